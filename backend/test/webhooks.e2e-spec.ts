import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../src/config/env';
import { DomainEvents } from '../src/events/domain-events.service';
import { TagsService } from '../src/tags/tags.service';
import { secretContext, webhookSecretBox } from '../src/webhooks/webhook-delivery.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, ok, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { MailCatcher, startMailCatcher } from './helpers/mail';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';
import { ReceivedHook, startWebhookReceiver, verifySignature, WebhookReceiver } from './helpers/webhook-receiver';

const FAILURE_WINDOW_SECONDS = 4;

/** An entry of GET /admin/webhooks/{id}/attempts. */
interface LoggedAttempt {
  id: number;
  deliveryId: number;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  deliveryStatus: string;
}

/**
 * Webhooks (docs/integrations.md, 'Webhooks'): deliveries of real changes to a receiver on loopback, signed, retried
 * on 5xx and timeouts with the same delivery id, not on 4xx, turned off after the failure window;
 * historic events not sent; private targets refused at save and at send. Webhooks are site-wide:
 * this suite has a database of its own, so no other suite's changes reach its receivers.
 */
describe('Webhooks', () => {
  let t: TestApp;
  let mail: MailCatcher;
  let admin: TestUser;
  let author: TestUser;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({
      databaseUrl: await createFreshDatabase('inkwell_webhooks'),
      env: {
        WEBHOOK_ALLOW_PRIVATE: '1',
        // Fast retries: 200 ms, 400 ms, ... within a 4 s window; a receiver that hangs fails after 500 ms.
        WEBHOOK_RETRY_BASE_MS: '200',
        WEBHOOK_TIMEOUT_MS: '500',
        WEBHOOK_FAILURE_WINDOW_SECONDS: String(FAILURE_WINDOW_SECONDS),
        JOB_POLL_SECONDS: '1',
        SMTP_URL: mail.url,
      },
    });
    admin = await createAdmin(t);
    author = await createAuthor(t);
  }, 60_000);
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await t?.close();
    await mail?.close();
  });

  async function receiver(): Promise<WebhookReceiver> {
    const started = await startWebhookReceiver();
    receivers.push(started);
    return started;
  }

  async function webhook(
    target: WebhookReceiver,
    events: string[],
    extra: Record<string, unknown> = {},
  ): Promise<{ id: number; secret: string }> {
    const res = await t.http
      .post(api('/admin/webhooks'))
      .set(admin.auth)
      .send({ url: target.url, events, ...extra })
      .expect(201);
    return { id: res.body.data.id, secret: res.body.data.secret };
  }

  async function publishedPost(): Promise<{ id: number; slug: string; title: string }> {
    const title = `Hooked ${uid()}`;
    const created = await t.http
      .post(api('/blog/posts/author/create'))
      .set(author.auth)
      .send({ title, content: 'The body of a public post' })
      .expect(201);
    const id: number = created.body.data.id;
    await t.http
      .post(api(`/blog/posts/author/${id}/submit-for-review`))
      .set(author.auth)
      .expect(200);
    await t.http
      .put(api(`/blog/posts/admin/${id}/review`))
      .set(admin.auth)
      .send({ status: 'APPROVED' })
      .expect(200);
    return { id, slug: created.body.data.slug, title };
  }

  const log = async (id: number): Promise<LoggedAttempt[]> =>
    (
      await t.http
        .get(api(`/admin/webhooks/${id}/attempts`))
        .set(admin.auth)
        .expect(200)
    ).body.data;
  /** The log once `ready` holds (the receiver has a request before its attempt is logged). */
  async function logWhen(id: number, ready: (attempts: LoggedAttempt[]) => unknown): Promise<LoggedAttempt[]> {
    for (let tries = 0; ; tries += 1) {
      const attempts = await log(id);
      if (ready(attempts) || tries > 100) return attempts;
      await sleep(50);
    }
  }
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const ofType = (type: string) => (hook: ReceivedHook) => hook.json.type === type;

  it('manages webhooks: the secret is answered on create and read, never listed; field errors; 404', async () => {
    const target = await receiver();
    const created = await t.http
      .post(api('/admin/webhooks'))
      .set(admin.auth)
      .send({ url: target.url, events: ['tag.created'] })
      .expect(201);
    const { id, secret } = created.body.data;
    expect(created.body).toEqual(
      ok(
        {
          id,
          url: target.url,
          events: ['tag.created'],
          active: true,
          includeEmails: false,
          failingSince: null,
          disabledReason: null,
          lastAttemptAt: null,
          lastAttemptOk: null,
          createdAt: ISO,
          updatedAt: ISO,
          secret: expect.stringMatching(/^whsec_[\w-]{43}$/),
        },
        'Webhook created. Copy its secret to verify the signatures.',
        201,
      ),
    );
    // Sealed at rest: the row holds no plain secret.
    const [{ secret_sealed }] = await t.app.get(DataSource).query(`SELECT secret_sealed FROM webhooks WHERE id = $1`, [id]);
    expect(secret_sealed).not.toContain(secret.slice(6));
    const listed = (await t.http.get(api('/admin/webhooks')).set(admin.auth).expect(200)).body.data.find(
      (hook: { id: number }) => hook.id === id,
    );
    expect(listed).not.toHaveProperty('secret');
    expect(
      (
        await t.http
          .get(api(`/admin/webhooks/${id}`))
          .set(admin.auth)
          .expect(200)
      ).body.data.secret,
    ).toBe(secret);

    const updated = await t.http
      .put(api(`/admin/webhooks/${id}`))
      .set(admin.auth)
      .send({ events: ['tag.created', 'tag.updated'], rotateSecret: true })
      .expect(200);
    expect(updated.body.message).toBe('Webhook saved with a new secret. Update your receiver.');
    expect(updated.body.data.events).toEqual(['tag.created', 'tag.updated']);
    expect(updated.body.data.secret).not.toBe(secret);

    const wrong = await t.http
      .post(api('/admin/webhooks'))
      .set(admin.auth)
      .send({ url: '', events: ['post.exploded'] })
      .expect(400);
    expect(wrong.body.errors).toEqual({
      url: ['URL is required'],
      events: [
        'Each event must be one of post.published, post.unpublished, post.updated, post.deleted, comment.created, comment.hidden, user.registered, user.banned, tag.created, tag.updated',
      ],
    });
    const noEvents = await t.http.post(api('/admin/webhooks')).set(admin.auth).send({ url: target.url, events: [] }).expect(400);
    expect(noEvents.body.errors).toEqual({ events: ['Choose at least one event'] });
    const scheme = await t.http
      .post(api('/admin/webhooks'))
      .set(admin.auth)
      .send({ url: 'ftp://example.com/hook', events: ['tag.created'] })
      .expect(400);
    expect(scheme.body).toEqual(
      err(400, 'The URL must start with http:// or https://.', { url: ['The URL must start with http:// or https://.'] }),
    );

    await t.http
      .delete(api(`/admin/webhooks/${id}`))
      .set(admin.auth)
      .expect(204);
    expect(
      (
        await t.http
          .get(api(`/admin/webhooks/${id}`))
          .set(admin.auth)
          .expect(404)
      ).body,
    ).toEqual(err(404, 'Webhook not found.'));
    expect((await t.http.get(api('/admin/webhooks/abc')).set(admin.auth).expect(400)).body).toEqual(err(400, 'Invalid webhook ID.'));
    expect((await t.http.get(api('/admin/webhooks')).set(author.auth).expect(403)).body).toEqual(
      err(403, 'You do not have permission to manage webhooks.'),
    );
    expect((await t.http.get(api('/admin/webhooks')).expect(401)).body).toEqual(
      err(401, 'Authentication required. Please log in to manage webhooks.'),
    );
  });

  it("audit-logs every change to a webhook by its host, never its path (a receiver's own secret may be there)", async () => {
    const created = await t.http
      .post(api('/admin/webhooks'))
      .set(admin.auth)
      .send({ url: 'http://127.0.0.1:9/hooks/T0KEN-in-path', events: ['post.published'] })
      .expect(201);
    const id: number = created.body.data.id;
    await t.http
      .put(api(`/admin/webhooks/${id}`))
      .set(admin.auth)
      .send({ events: ['post.published', 'tag.created'], includeEmails: true, active: false, rotateSecret: true })
      .expect(200);
    // A save that changes nothing is not an entry.
    await t.http
      .put(api(`/admin/webhooks/${id}`))
      .set(admin.auth)
      .send({ active: false })
      .expect(200);
    await t.http
      .delete(api(`/admin/webhooks/${id}`))
      .set(admin.auth)
      .expect(204);
    const db = t.app.get(DataSource);
    const entries = (await db.query(
      `SELECT type, actor_id, title, description, link FROM audit_log WHERE target_type = 'webhook' AND target_id = $1 ORDER BY id`,
      [id],
    )) as Record<string, unknown>[];
    expect(entries).toEqual([
      {
        type: 'WEBHOOK_CREATED',
        actor_id: admin.id,
        title: 'Webhook added',
        description: `${admin.fullName} added a webhook to 127.0.0.1:9 for post.published`,
        link: '/admin/integrations',
      },
      {
        type: 'WEBHOOK_UPDATED',
        actor_id: admin.id,
        title: 'Webhook changed',
        description: `${admin.fullName} changed the webhook to 127.0.0.1:9: its events (now post.published, tag.created), e-mail addresses on, turned off, a new secret`,
        link: '/admin/integrations',
      },
      {
        type: 'WEBHOOK_DELETED',
        actor_id: admin.id,
        title: 'Webhook deleted',
        description: `${admin.fullName} deleted the webhook to 127.0.0.1:9`,
        link: null,
      },
    ]);
    expect(JSON.stringify(entries)).not.toContain('T0KEN');
    // The entries follow the webhook's events, which name the receiver by its host too.
    const stream = (await db.query(
      `SELECT name, actor_id, data FROM domain_events WHERE subject_type = 'webhook' AND subject_id = $1 ORDER BY id`,
      [id],
    )) as Record<string, unknown>[];
    const facts = { webhookId: id, host: '127.0.0.1:9' };
    expect(stream).toEqual([
      { name: 'webhook.created', actor_id: admin.id, data: { ...facts, events: ['post.published'], active: true, includeEmails: false } },
      {
        name: 'webhook.updated',
        actor_id: admin.id,
        data: {
          ...facts,
          events: ['post.published', 'tag.created'],
          active: false,
          includeEmails: true,
          changed: ['events', 'includeEmails', 'active', 'secret'],
        },
      },
      {
        name: 'webhook.deleted',
        actor_id: admin.id,
        data: { ...facts, events: ['post.published', 'tag.created'], active: false, includeEmails: true },
      },
    ]);
    expect(JSON.stringify(stream)).not.toMatch(/T0KEN|hooks|whsec_/);
    // Recent Activity shows them as account changes (the nearest of the six activity types of docs/requirements.md#activity-types).
    const [newest] = (await t.http.get(api('/admin/stats')).set(admin.auth).expect(200)).body.data.recentActivities;
    expect(newest).toEqual({
      id: expect.any(Number),
      type: 'USER_UPDATED',
      title: 'Webhook deleted',
      description: `${admin.fullName} deleted the webhook to 127.0.0.1:9`,
      timestamp: ISO,
    });
  });

  it('delivers real changes, signed, in their public form: a publication, a comment and its hiding, tags', async () => {
    const target = await receiver();
    const { secret } = await webhook(target, ['post.published', 'comment.created', 'comment.hidden', 'tag.created', 'tag.updated']);
    const post = await publishedPost();
    const reader = await createReader(t);
    const comment = await t.http.post(api('/comments')).set(reader.auth).send({ postId: post.id, content: 'A public reply' }).expect(201);
    await t.http
      .post(api(`/comments/${comment.body.data.id}/hide`))
      .set(admin.auth)
      .send({ reason: 'Off topic' })
      .expect(200);
    const tag = await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Hook tag ${uid()}` })
      .expect(201);
    await t.http
      .put(api(`/blog/tags/${tag.body.data.id}`))
      .set(admin.auth)
      .send({ description: 'Described' })
      .expect(200);

    const [published] = await target.waitFor((hook) => hook.json.type === 'post.published' && hook.json.data.id === post.id);
    expect(verifySignature(secret, published.headers['x-inkwell-signature'] as string, published.body)).toBe(true);
    expect(verifySignature('whsec_wrong', published.headers['x-inkwell-signature'] as string, published.body)).toBe(false);
    expect(published.headers['x-inkwell-delivery']).toBe(published.json.id);
    expect(published.headers['x-inkwell-event']).toBe('post.published');
    expect(published.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'post.published',
      createdAt: ISO,
      data: {
        id: post.id,
        status: 'PUBLISHED',
        title: post.title,
        slug: post.slug,
        url: `http://localhost:3000/blog/${post.slug}`,
        summary: null,
        content: 'The body of a public post',
        thumbnail: null,
        publishedAt: ISO,
        updatedAt: ISO,
        readingTime: 1,
        author: { id: author.id, fullName: author.fullName, slug: author.slug },
        tags: [],
      },
    });

    const [created] = await target.waitFor((hook) => hook.json.type === 'comment.created' && hook.json.data.id === comment.body.data.id);
    expect(created.json.data).toEqual({
      id: comment.body.data.id,
      postId: post.id,
      postSlug: post.slug,
      parentId: null,
      visibility: 'VISIBLE',
      url: `http://localhost:3000/blog/${post.slug}#comment-${comment.body.data.id}`,
      content: 'A public reply',
      createdAt: ISO,
      author: { id: reader.id, fullName: reader.fullName, slug: reader.slug },
    });
    // Hidden: no longer public, so neither its text nor the moderators' reason is sent.
    const [hidden] = await target.waitFor((hook) => hook.json.type === 'comment.hidden' && hook.json.data.id === comment.body.data.id);
    expect(hidden.json.data).toEqual({
      id: comment.body.data.id,
      postId: post.id,
      postSlug: post.slug,
      parentId: null,
      visibility: 'HIDDEN',
    });

    const [tagCreated] = await target.waitFor((hook) => hook.json.type === 'tag.created' && hook.json.data.id === tag.body.data.id);
    expect(tagCreated.json.data).toEqual({
      id: tag.body.data.id,
      name: tag.body.data.name,
      slug: tag.body.data.slug,
      description: null,
      active: true,
    });
    const [tagUpdated] = await target.waitFor((hook) => hook.json.type === 'tag.updated' && hook.json.data.id === tag.body.data.id);
    expect(tagUpdated.json.data).toMatchObject({ id: tag.body.data.id, description: 'Described' });
    // Every delivery its own id.
    expect(new Set(target.received.map((hook) => hook.json.id)).size).toBe(target.received.length);
  });

  it('sends e-mail addresses in user events only to a webhook that opted in', async () => {
    const plain = await receiver();
    const opted = await receiver();
    await webhook(plain, ['user.registered', 'user.banned']);
    await webhook(opted, ['user.registered', 'user.banned'], { includeEmails: true });
    const email = `hooked-${uid()}@test.inkwell.test`;
    await t.http
      .post(api('/auth/register'))
      .send({ fullName: 'Hooked Reader', email, password: 'Hooked1!pass', confirmPassword: 'Hooked1!pass' })
      .expect(201);
    const reader = await createReader(t);
    await t.http
      .post(api(`/admin/users/${reader.id}/ban`))
      .set(admin.auth)
      .send({ reason: 'Spam links', adminNote: 'Seen twice' })
      .expect(200);

    const [registered] = await plain.waitFor((hook) => hook.json.type === 'user.registered' && hook.json.data.fullName === 'Hooked Reader');
    expect(registered.json.data).toEqual({
      id: expect.any(Number),
      fullName: 'Hooked Reader',
      slug: expect.any(String),
      status: 'PENDING',
      verified: false,
      roles: ['USER'],
      createdAt: ISO,
    });
    const [registeredWithEmail] = await opted.waitFor(
      (hook) => hook.json.type === 'user.registered' && hook.json.data.fullName === 'Hooked Reader',
    );
    expect(registeredWithEmail.json.data).toEqual({ ...registered.json.data, email });

    const [banned] = await plain.waitFor((hook) => hook.json.type === 'user.banned' && hook.json.data.id === reader.id);
    expect(banned.json.data).toEqual({
      id: reader.id,
      fullName: reader.fullName,
      slug: reader.slug,
      status: 'BANNED',
      verified: true,
      roles: ['USER'],
      createdAt: ISO,
    });
    const [bannedWithEmail] = await opted.waitFor((hook) => hook.json.type === 'user.banned' && hook.json.data.id === reader.id);
    expect(bannedWithEmail.json.data.email).toBe(reader.email);
    // The ban's reason and note are the administrators'.
    expect(JSON.stringify(bannedWithEmail.json)).not.toContain('Spam links');
  });

  it('forgets an erased account in the stored bodies: its name, slug and e-mail address leave them', async () => {
    const opted = await receiver();
    const hook = await webhook(opted, ['user.banned', 'comment.created'], { includeEmails: true });
    const reader = await createReader(t);
    const post = await publishedPost();
    const comment = (
      await t.http.post(api('/comments')).set(reader.auth).send({ postId: post.id, content: 'A comment before leaving' }).expect(201)
    ).body.data as { id: number };
    await t.http
      .post(api(`/admin/users/${reader.id}/ban`))
      .set(admin.auth)
      .send({ reason: 'Spam links' })
      .expect(200);
    const [banned] = await opted.waitFor((hook) => hook.json.type === 'user.banned' && hook.json.data.id === reader.id);
    expect(banned.json.data).toMatchObject({ fullName: reader.fullName, email: reader.email });
    const [commented] = await opted.waitFor((hook) => hook.json.type === 'comment.created' && hook.json.data.id === comment.id);
    expect(commented.json.data.author).toEqual({ id: reader.id, fullName: reader.fullName, slug: reader.slug });
    const db = t.app.get(DataSource);
    // Other tests' webhooks hear these events too: every delivery counts, this webhook's are listed.
    const naming = async () =>
      (await db.query(`SELECT event, webhook_id FROM webhook_deliveries WHERE body LIKE $1 OR body LIKE $2 ORDER BY id`, [
        `%${reader.email}%`,
        `%${reader.fullName}%`,
      ])) as { event: string; webhook_id: number }[];
    expect((await naming()).filter((row) => row.webhook_id === hook.id).map((row) => row.event)).toEqual([
      'comment.created',
      'user.banned',
    ]);

    await t.http
      .delete(api(`/admin/users/${reader.id}`))
      .set(admin.auth)
      .expect(202);
    for (let i = 0; (await db.query(`SELECT 1 FROM users WHERE id = $1`, [reader.id])).length > 0; i += 1) {
      if (i > 100) throw new Error('the account was not erased');
      await sleep(100);
    }
    expect(await naming()).toEqual([]);
    const kept = (await db.query(
      `SELECT event, body::jsonb -> 'data' AS data FROM webhook_deliveries WHERE webhook_id = $2 AND event = 'user.banned' AND body::jsonb #>> '{data,id}' = $1`,
      [String(reader.id), hook.id],
    )) as { data: Record<string, unknown> }[];
    expect(kept.map((row) => row.data)).toEqual([{ id: reader.id, status: 'BANNED', verified: true, roles: ['USER'], createdAt: ISO }]);
    const [forgotten] = (await db.query(
      `SELECT body::jsonb -> 'data' AS data FROM webhook_deliveries WHERE webhook_id = $2 AND event = 'comment.created' AND body::jsonb #>> '{data,id}' = $1`,
      [String(comment.id), hook.id],
    )) as { data: Record<string, unknown> }[];
    expect(forgotten.data).toMatchObject({ id: comment.id, content: 'A comment before leaving', author: null });
  });

  it('retries 5xx and timeouts with the same delivery id and body until delivered, then never again', async () => {
    const target = await receiver();
    target.answers.push(500, 'hang', 200);
    const { id } = await webhook(target, ['tag.created']);
    await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Retried ${uid()}` })
      .expect(201);
    const hooks = await target.waitFor(ofType('tag.created'), 3);
    expect(hooks.map((hook) => hook.answered)).toEqual([500, 0, 200]);
    expect(new Set(hooks.map((hook) => hook.headers['x-inkwell-delivery'])).size).toBe(1);
    expect(new Set(hooks.map((hook) => hook.body)).size).toBe(1);
    // Backoff: the second try waits at least the base delay.
    expect(hooks[1].at - hooks[0].at).toBeGreaterThanOrEqual(200);

    const attempts = await logWhen(id, (list) => list.length === 3);
    expect(attempts.map((a) => [a.ok, a.statusCode, a.error])).toEqual([
      [true, 200, null],
      [false, null, 'No answer within 0.5 s.'],
      [false, 500, null],
    ]);
    expect(attempts[0]).toEqual({
      id: expect.any(Number),
      deliveryId: expect.any(Number),
      deliveryKey: hooks[0].json.id,
      event: 'tag.created',
      deliveryStatus: 'DELIVERED',
      attemptedAt: ISO,
      durationMs: expect.any(Number),
      ok: true,
      statusCode: 200,
      error: null,
      responseExcerpt: 'answered 200',
    });
  });

  it('does not retry a 4xx; Redeliver sends the same delivery again', async () => {
    const target = await receiver();
    target.answers.push(410);
    const { id } = await webhook(target, ['tag.created']);
    await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Gone ${uid()}` })
      .expect(201);
    const [first] = await target.waitFor(ofType('tag.created'));
    const [attempt] = await logWhen(id, (list) => list.length);
    expect(attempt).toMatchObject({ ok: false, statusCode: 410, deliveryStatus: 'FAILED', responseExcerpt: 'answered 410' });

    const again = await t.http
      .post(api(`/admin/webhooks/${id}/deliveries/${attempt.deliveryId}/redeliver`))
      .set(admin.auth)
      .expect(202);
    expect(again.body).toEqual(
      ok({ deliveryId: attempt.deliveryId, deliveryKey: first.json.id, status: 'PENDING' }, 'Redelivery queued.', 202),
    );
    const [, second] = await target.waitFor(ofType('tag.created'), 2);
    expect(second.json.id).toBe(first.json.id);
    expect(second.body).toBe(first.body);
    expect(await logWhen(id, (attempts) => attempts[0]?.ok)).toMatchObject([{ ok: true, deliveryStatus: 'DELIVERED' }, { ok: false }]);
    const unknown = await t.http
      .post(api(`/admin/webhooks/${id}/deliveries/2147483647/redeliver`))
      .set(admin.auth)
      .expect(404);
    expect(unknown.body).toEqual(err(404, 'Delivery not found.'));
  });

  it('sends a test event on demand and answers its attempt', async () => {
    const target = await receiver();
    const { id, secret } = await webhook(target, ['post.deleted']);
    const res = await t.http
      .post(api(`/admin/webhooks/${id}/test`))
      .set(admin.auth)
      .expect(200);
    expect(res.body).toEqual(
      ok(
        {
          id: expect.any(Number),
          deliveryId: expect.any(Number),
          deliveryKey: expect.any(String),
          event: 'webhook.test',
          deliveryStatus: 'DELIVERED',
          attemptedAt: ISO,
          durationMs: expect.any(Number),
          ok: true,
          statusCode: 200,
          error: null,
          responseExcerpt: 'answered 200',
        },
        'Test event delivered.',
      ),
    );
    const [hook] = await target.waitFor(ofType('webhook.test'));
    expect(hook.json).toEqual({
      id: res.body.data.deliveryKey,
      type: 'webhook.test',
      createdAt: ISO,
      data: { webhookId: id, message: 'This is a test event from Inkwell.' },
    });
    expect(verifySignature(secret, hook.headers['x-inkwell-signature'] as string, hook.body)).toBe(true);

    target.answers.push(503);
    const failed = await t.http
      .post(api(`/admin/webhooks/${id}/test`))
      .set(admin.auth)
      .expect(200);
    expect(failed.body.message).toBe('Test event not delivered.');
    expect(failed.body.data).toMatchObject({ ok: false, statusCode: 503, deliveryStatus: 'FAILED' });
    // A test never turns a webhook off.
    expect(
      (
        await t.http
          .get(api(`/admin/webhooks/${id}`))
          .set(admin.auth)
          .expect(200)
      ).body.data,
    ).toMatchObject({ active: true, failingSince: null });
  });

  it('turns off a webhook failing for the whole window and e-mails its admin', async () => {
    const target = await receiver();
    target.fallback = 503;
    const since = mail.messages.length;
    const { id } = await webhook(target, ['tag.created']);
    await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Down ${uid()}` })
      .expect(201);
    const message = await mail.waitFor(admin.email, { since, timeoutMs: 15_000 });
    expect(message.subject).toBe('An Inkwell webhook was turned off');
    expect(message.text).toContain(
      `The webhook to ${target.url} was turned off. Turned off after ${FAILURE_WINDOW_SECONDS} seconds of failed deliveries.`,
    );
    const state = (
      await t.http
        .get(api(`/admin/webhooks/${id}`))
        .set(admin.auth)
        .expect(200)
    ).body.data;
    expect(state).toMatchObject({
      active: false,
      disabledReason: `Turned off after ${FAILURE_WINDOW_SECONDS} seconds of failed deliveries.`,
      failingSince: ISO,
    });
    const attempts = await log(id);
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts[0]).toMatchObject({ ok: false, statusCode: 503, deliveryStatus: 'FAILED' });
    // Turned off: a new event is not sent, and Redeliver asks to turn it on first.
    const sent = target.received.length;
    await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Down again ${uid()}` })
      .expect(201);
    const refused = await t.http
      .post(api(`/admin/webhooks/${id}/deliveries/${attempts[0].deliveryId}/redeliver`))
      .set(admin.auth)
      .expect(409);
    expect(refused.body).toEqual(err(409, 'This webhook is turned off: turn it on to redeliver.'));
    await sleep(1200);
    expect(target.received).toHaveLength(sent);
    // On again: a fresh start.
    const on = await t.http
      .put(api(`/admin/webhooks/${id}`))
      .set(admin.auth)
      .send({ active: true })
      .expect(200);
    expect(on.body.data).toMatchObject({ active: true, failingSince: null, disabledReason: null });
  }, 30_000);

  it('does not send historic events (an import), only live ones', async () => {
    const target = await receiver();
    await webhook(target, ['tag.created']);
    const historic = `Historic ${uid()}`;
    const live = `Live ${uid()}`;
    const tags = t.app.get(TagsService);
    await t.app.get(DomainEvents).asHistoric(() => tags.create({ name: historic }));
    await tags.create({ name: live });
    await target.waitFor((hook) => hook.json.data.name === live);
    expect(target.received.filter((hook) => hook.json.data.name === historic)).toEqual([]);
    const [{ n }] = await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE body LIKE $1`, [`%${historic}%`]);
    expect(n).toBe(0);
  });

  describe('without WEBHOOK_ALLOW_PRIVATE', () => {
    let strict: TestApp;
    let strictAdmin: TestUser;
    beforeAll(async () => {
      // The run's shared database: this app only refuses, it creates no webhook through the API.
      strict = await createTestApp();
      strictAdmin = await createAdmin(strict);
    }, 60_000);
    afterAll(() => strict?.close());

    it.each([
      ['http://127.0.0.1:9/hook', '127.0.0.1'],
      ['http://localhost:9/hook', '127.0.0.1'],
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
      ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
      ['http://10.1.2.3/', '10.1.2.3'],
      ['http://100.64.0.1/', '100.64.0.1'],
      ['http://[::ffff:192.168.1.1]/', '::ffff:c0a8:101'],
    ])('refuses %s at save time', async (url, address) => {
      const res = await strict.http
        .post(api('/admin/webhooks'))
        .set(strictAdmin.auth)
        .send({ url, events: ['tag.created'] })
        .expect(400);
      const text = `The URL points to a private, loopback, link-local or otherwise reserved address (${address}); webhooks are sent to public addresses only.`;
      expect(res.body).toEqual(err(400, text, { url: [text] }));
    });

    it('refuses at send time a target that has become private, and sends nothing', async () => {
      const target = await receiver();
      const dataSource = strict.app.get(DataSource);
      // As if its name had resolved to a public address when it was saved (DNS rebinding).
      const [{ id }] = await dataSource.query(
        `INSERT INTO webhooks (url, events, secret_sealed) VALUES ($1, '{post.deleted}', '') RETURNING id`,
        [target.url],
      );
      try {
        const box = webhookSecretBox(strict.app.get<AppConfig>(APP_CONFIG));
        await dataSource.query(`UPDATE webhooks SET secret_sealed = $2 WHERE id = $1`, [id, box.seal('whsec_test', secretContext(id))]);
        const res = await strict.http
          .post(api(`/admin/webhooks/${id}/test`))
          .set(strictAdmin.auth)
          .expect(200);
        expect(res.body.data).toMatchObject({
          ok: false,
          statusCode: null,
          deliveryStatus: 'FAILED',
          error:
            'The URL points to a private, loopback, link-local or otherwise reserved address (127.0.0.1); webhooks are sent to public addresses only.',
        });
        expect(target.received).toEqual([]);
      } finally {
        await dataSource.query(`DELETE FROM webhooks WHERE id = $1`, [id]);
      }
    });
  });
});
