import { DataSource } from 'typeorm';
import { CLOCK, ShiftableClock } from '../src/common/clock';
import { DomainEvents } from '../src/events/domain-events.service';
import { NewsletterDigest, siteDay } from '../src/newsletter/digest';
import { signBounceReport } from '../src/newsletter/bounces.service';
import { NewsletterPostEmail } from '../src/newsletter/newsletter-post-email';
import { NewsletterSender } from '../src/newsletter/newsletter-sender';
import { NewsletterTransport } from '../src/newsletter/newsletter-transport';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { CapturedMail, MailCatcher, startMailCatcher } from './helpers/mail';
import { createAdmin, createAuthor, TestUser } from './helpers/users';

/**
 * The newsletter's sending (docs/newsletter.md#sending), end to end through the job queue into the
 * in-process SMTP capture: one e-mail per subscriber however many follows match, none for imports
 * or a second publish, the RFC 8058 headers, 4xx retried, 5xx bounced and suppressed, the soft
 * bounce limit, the signed bounce endpoint, 'Publish without e-mail', the test e-mail and preview,
 * 'Retry failed', and the weekly digest on its weekday. A database of its own: no other suite's app
 * works these queues.
 */
jest.setTimeout(120_000);

const SECRET = 'newsletter-bounce-secret-0123456789abcdef';
/** Both instances of the two-instance test sign and check sessions with one key. */
const JWT_SECRET = 'newsletter-sending-e2e-shared-secret-0123456789';

describe('Newsletter sending', () => {
  let mail: MailCatcher;
  /** Addresses the SMTP server refuses, with the code it answers. */
  const refused = new Map<string, number>();
  let t: TestApp;
  let db: DataSource;
  let admin: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  let tag: { id: number; slug: string };
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createFreshDatabase('inkwell_newsletter_sending');
    mail = await startMailCatcher({ refuse: (to) => refused.get(to) ?? false });
    t = await createTestApp({
      databaseUrl,
      env: {
        SMTP_URL: mail.url,
        JWT_SECRET,
        JOB_RETRY_LIMIT: '1',
        JOB_RETRY_DELAY_SECONDS: '1',
        JOB_POLL_SECONDS: '1',
        NEWSLETTER_WEBHOOK_SECRET: SECRET,
        NEWSLETTER_SOFT_BOUNCE_LIMIT: '2',
        SITE_TIME_ZONE: 'Asia/Ho_Chi_Minh',
        LOG_LEVEL: process.env.NL_LOG ?? 'silent',
      },
    });
    db = t.app.get(DataSource);
    [admin, author, otherAuthor] = await Promise.all([createAdmin(t), createAuthor(t, { fullName: 'Ada Writer' }), createAuthor(t)]);
    const created = await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Letters ${uid()}` })
      .expect(201);
    tag = { id: created.body.data.id, slug: created.body.data.slug };
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  async function until<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (holds(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  /** A subscriber (SQL: the following API is the other half of the module) with its follows; answers ids. */
  async function subscriber(
    follows: ('publication' | 'author' | 'tag' | 'other-author')[],
    options: { status?: string; cadence?: string; weekday?: number } = {},
  ): Promise<{ id: number; email: string; follows: Record<string, number> }> {
    const email = `nl-${uid()}@test.inkwell.test`;
    const [{ id }]: { id: number }[] = await db.query(
      `INSERT INTO newsletter_subscribers (email, status, source, cadence, digest_weekday, confirmed_at) VALUES ($1, $2, 'page', $3, $4, now()) RETURNING id`,
      [email, options.status ?? 'active', options.cadence ?? 'instant', options.weekday ?? null],
    );
    const ids: Record<string, number> = {};
    for (const follow of follows) {
      const [kind, target] =
        follow === 'publication'
          ? ['publication', 0]
          : follow === 'author'
            ? ['author', author.id]
            : follow === 'tag'
              ? ['tag', tag.id]
              : ['author', otherAuthor.id];
      const [row]: { id: number }[] = await db.query(
        `INSERT INTO newsletter_follows (subscriber_id, kind, target_id) VALUES ($1, $2, $3) RETURNING id`,
        [id, kind, target],
      );
      ids[follow] = row.id;
    }
    return { id, email, follows: ids };
  }

  async function draft(owner: TestUser = author, content = 'Hello **readers**.'): Promise<{ id: number; slug: string; title: string }> {
    const title = `Letter ${uid()}`;
    const created = await t.http
      .post(api('/blog/posts/author/create'))
      .set(owner.auth)
      .send({ title, content, tagSlugs: [tag.slug] })
      .expect(201);
    await t.http
      .post(api(`/blog/posts/author/${created.body.data.id}/submit-for-review`))
      .set(owner.auth)
      .expect(200);
    return { id: created.body.data.id, slug: created.body.data.slug, title };
  }

  async function approve(postId: number): Promise<void> {
    await t.http
      .put(api(`/blog/posts/admin/${postId}/review`))
      .set(admin.auth)
      .send({ status: 'APPROVED' })
      .expect(200);
  }

  async function published(owner: TestUser = author, content?: string) {
    const post = await draft(owner, content);
    await approve(post.id);
    return post;
  }

  const sendState = async (postId: number) =>
    ((await db.query(`SELECT state FROM newsletter_post_sends WHERE post_id = $1`, [postId])) as { state: string }[])[0]?.state;
  const deliveries = (postId: number): Promise<{ subscriber_id: number; state: string; attempts: number; last_error: string | null }[]> =>
    db.query(`SELECT subscriber_id, state, attempts, last_error FROM newsletter_deliveries WHERE post_id = $1 ORDER BY id`, [postId]);
  const mailsFor = (address: string, title: string): CapturedMail[] => mail.to(address).filter((m) => m.subject.includes(title));
  const header = (message: CapturedMail, name: string): string | undefined =>
    new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(message.raw.slice(0, message.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' '))?.[1];

  it('sends one e-mail per subscriber however many follows match, with the RFC 8058 headers, ref=newsletter links and a text part', async () => {
    const all = await subscriber(['publication', 'author', 'tag']);
    const tagOnly = await subscriber(['tag']);
    const unrelated = await subscriber(['other-author']);
    const pending = await subscriber(['author'], { status: 'pending' });
    const weekly = await subscriber(['author'], { cadence: 'weekly', weekday: (new Date().getDay() + 4) % 7 });
    const post = await published(
      author,
      '## A heading\n\n![A lamp](/images/content/abc-1200x800.webp)\n\n```js\nlet a = 1;\n```\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
    );
    await until(
      () => sendState(post.id),
      (state) => state === 'done',
      'the send',
    );
    const rows = await deliveries(post.id);
    expect(rows.map((row) => row.subscriber_id).sort()).toEqual([all.id, tagOnly.id].sort());
    expect(rows.every((row) => row.state === 'sent' && row.attempts === 1)).toBe(true);
    expect(mailsFor(all.email, post.title)).toHaveLength(1);
    expect(mailsFor(tagOnly.email, post.title)).toHaveLength(1);
    for (const nobody of [unrelated, pending, weekly]) expect(mailsFor(nobody.email, post.title)).toHaveLength(0);

    const [message] = mailsFor(all.email, post.title);
    // These copies came from the post's MIME prepared once (not built per e-mail).
    const postEmail = t.app.get(NewsletterPostEmail);
    expect(await t.app.get(NewsletterTransport).prepare(await postEmail.render((await postEmail.post(post.id))!))).toBeDefined();
    // The one-click link removes the most specific follow that matched: the author's.
    const unsubscribe = header(message, 'List-Unsubscribe');
    expect(unsubscribe).toMatch(
      new RegExp(
        `^<http://localhost:3000/newsletter/unsubscribe\\?token=u\\.${all.follows.author}\\.[\\w-]{43}>, <mailto:[^>]+\\?subject=unsubscribe%20u\\.${all.follows.author}\\.[\\w-]{43}>$`,
      ),
    );
    expect(header(message, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(header(message, 'Message-ID')).toBe(`<newsletter-${post.id}-${all.id}@localhost>`);
    expect(message.html).toContain('<html dir="ltr" lang="en">');
    expect(message.html).toContain(`http://localhost:3000/blog/${post.slug}?ref=newsletter`);
    expect(message.html).toContain(`http://localhost:3000/blog/${post.slug}?ref=newsletter#comments`);
    expect(message.html).toMatch(
      /<img src="http:\/\/localhost:3000\/images\/content\/abc-1200x800\.webp" alt="A lamp" width="600" height="400"/,
    );
    expect(message.html).toMatch(/<pre style="[^"]*"><code[^>]*>let a = 1;/);
    expect(message.html).toContain('<blockquote');
    expect(message.html).toContain('<table class="post-table" style="margin:0 0 16px;border-collapse:collapse');
    expect(message.html).toContain('Ada Writer');
    expect(message.html).toMatch(/1 min read/);
    expect(message.html).toContain('/newsletter/preferences?token=p.');
    expect(message.text).toContain(`http://localhost:3000/blog/${post.slug}?ref=newsletter`);
    expect(message.text).toContain('You receive this because you follow Ada Writer');
    expect(message.text).toMatch(/A HEADING/);

    // RFC 8058: the provider POSTs 'List-Unsubscribe=One-Click' with no cookie; only that follow goes.
    const token = /token=([\w.-]+)>/.exec(unsubscribe!)![1];
    await t.http
      .post(api(`/newsletter/unsubscribe?token=${token}`))
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    const left: { kind: string }[] = await db.query(`SELECT kind FROM newsletter_follows WHERE subscriber_id = $1 ORDER BY kind`, [all.id]);
    expect(left.map((row) => row.kind)).toEqual(['publication', 'tag']);

    const status = await t.http
      .get(api(`/newsletter/posts/${post.id}/send`))
      .set(admin.auth)
      .expect(200);
    expect(status.body.data).toMatchObject({
      postId: post.id,
      sendEmail: true,
      state: 'done',
      recipients: 2,
      counts: { sent: 2, queued: 0 },
    });
  });

  it('sends a post only to those who followed before it was published, however late its fan-out runs', async () => {
    const early = await subscriber(['publication']);
    // Hold the fan-out at its INSERT (a lock it waits for), so a follow can land between the publish and the fan-out.
    const holder = db.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query('LOCK TABLE newsletter_deliveries IN EXCLUSIVE MODE');
      const post = await published();
      await until(
        async () =>
          (
            (await db.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO newsletter_deliveries%'`,
            )) as { n: number }[]
          )[0].n,
        (n) => n > 0,
        'the fan-out waiting',
      );
      const late = await subscriber(['publication']);
      await holder.rollbackTransaction();
      await until(
        () => sendState(post.id),
        (state) => state === 'done',
        'the send',
      );
      expect(mailsFor(early.email, post.title)).toHaveLength(1);
      expect(mailsFor(late.email, post.title)).toHaveLength(0);
      expect((await deliveries(post.id)).map((row) => row.subscriber_id)).not.toContain(late.id);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  });

  it('sends nothing for an imported (historic) publish, nor for a second publish of a post already e-mailed', async () => {
    const reader = await subscriber(['publication']);
    const post = await published();
    await until(
      () => sendState(post.id),
      (state) => state === 'done',
      'the send',
    );
    expect(mailsFor(reader.email, post.title)).toHaveLength(1);
    // A second live publish of the same post (after an unpublish) records post.published again.
    const events = t.app.get(DomainEvents);
    const facts = { postId: post.id, title: post.title, slug: post.slug, authorId: author.id, status: 'PUBLISHED' as const, version: 3 };
    await events.transaction(({ record }) =>
      record({ name: 'post.published', actor: null, data: { ...facts, previousStatus: 'ARCHIVED', via: 'update' } }),
    );
    // An import publishes a post historically (inside asHistoric, via 'import').
    const [imported]: { id: number }[] = await db.query(
      `INSERT INTO posts (title, slug, content, content_html, status, author_id, published_at) VALUES ('Old', $1, 'x', '<p>x</p>', 'PUBLISHED', $2, now() - interval '3 years') RETURNING id`,
      [`old-${uid()}`, author.id],
    );
    await events.asHistoric(() =>
      events.transaction(({ record }) =>
        record({
          name: 'post.published',
          actor: null,
          data: { ...facts, postId: imported.id, title: 'Old', previousStatus: null, via: 'import' },
        }),
      ),
    );
    expect(await sendState(imported.id)).toBe('off');
    // And a later live publish of the imported post sends nothing either.
    await events.transaction(({ record }) =>
      record({ name: 'post.published', actor: null, data: { ...facts, postId: imported.id, previousStatus: 'DRAFT', via: 'update' } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(mailsFor(reader.email, post.title)).toHaveLength(1);
    expect(mail.to(reader.email).filter((m) => m.subject === 'Old')).toHaveLength(0);
    expect(await deliveries(imported.id)).toHaveLength(0);
  });

  it("'Publish without e-mail' before approving sends nothing; the setting is 409 once the post is e-mailed", async () => {
    const reader = await subscriber(['author']);
    const post = await draft();
    const off = await t.http
      .put(api(`/newsletter/posts/${post.id}/send`))
      .set(admin.auth)
      .send({ sendEmail: false })
      .expect(200);
    expect(off.body.data).toMatchObject({ sendEmail: false, state: 'pending' });
    await t.http
      .put(api(`/newsletter/posts/${post.id}/send`))
      .set(admin.auth)
      .send({ sendEmail: 'no' })
      .expect(400);
    await approve(post.id);
    expect(await sendState(post.id)).toBe('off');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailsFor(reader.email, post.title)).toHaveLength(0);
    await t.http
      .put(api(`/newsletter/posts/${post.id}/send`))
      .set(admin.auth)
      .send({ sendEmail: true })
      .expect(409);
    await t.http
      .put(api(`/newsletter/posts/${post.id}/send`))
      .set(author.auth)
      .send({ sendEmail: true })
      .expect(403);
    await t.http.get(api('/newsletter/posts/999999/send')).set(admin.auth).expect(404);
  });

  it('sends the admin a test with the preview, and serves the preview page under its own policy', async () => {
    const post = await draft();
    const since = mail.messages.length;
    const sent = await t.http
      .post(api(`/newsletter/posts/${post.id}/test`))
      .set(admin.auth)
      .expect(200);
    expect(sent.body.data).toEqual({ to: admin.email });
    const message = await mail.waitFor(admin.email, { since });
    expect(message.subject).toBe(`[Test] ${post.title}`);
    expect(message.html).toContain('This is a test of the newsletter e-mail');
    const preview = await t.http
      .get(api(`/newsletter/posts/${post.id}/preview`))
      .set(admin.auth)
      .expect(200);
    expect(preview.body.data.subject).toBe(post.title);
    const page = await t.http
      .get(api(`/newsletter/posts/${post.id}/preview.html`))
      .set(admin.auth)
      .expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain('sandbox');
    expect(page.text).toContain(post.title);
  });

  it('retries a 4xx answer with backoff; a 5xx bounces and suppresses the address', async () => {
    const busy = await subscriber(['author']);
    const gone = await subscriber(['author']);
    refused.set(busy.email, 451);
    refused.set(gone.email, 550);
    const post = await published();
    await until(
      () => deliveries(post.id),
      (rows) => rows.some((row) => row.subscriber_id === gone.id && row.state === 'bounced'),
      'the bounce',
    );
    await until(
      () => deliveries(post.id),
      (rows) => rows.some((row) => row.subscriber_id === busy.id && row.attempts === 1 && row.state === 'queued'),
      'the 4xx',
    );
    refused.delete(busy.email);
    const rows = await until(
      () => deliveries(post.id),
      (list) => list.some((row) => row.subscriber_id === busy.id && row.state === 'sent'),
      'the retry',
    );
    expect(rows.find((row) => row.subscriber_id === busy.id)).toMatchObject({ state: 'sent', attempts: 2, last_error: null });
    expect(rows.find((row) => row.subscriber_id === gone.id)?.last_error).toMatch(/550/);
    expect(mailsFor(busy.email, post.title)).toHaveLength(1);
    expect(await db.query(`SELECT reason FROM newsletter_suppressions WHERE email = $1`, [gone.email])).toEqual([
      { reason: 'hard_bounce' },
    ]);
    // The suppressed address is not a recipient of the next post.
    const next = await published();
    await until(
      () => sendState(next.id),
      (state) => state === 'done',
      'the next send',
    );
    expect((await deliveries(next.id)).map((row) => row.subscriber_id)).not.toContain(gone.id);
  });

  it("fails a delivery after its last retry (a soft bounce), 'Retry failed' sends it, and the soft-bounce limit suppresses", async () => {
    const flaky = await subscriber(['author']);
    refused.set(flaky.email, 452);
    const post = await published();
    await until(
      () => deliveries(post.id),
      (rows) => rows.some((row) => row.subscriber_id === flaky.id && row.state === 'failed'),
      'the failure',
      40_000,
    );
    expect(await db.query(`SELECT soft_bounces FROM newsletter_subscribers WHERE id = $1`, [flaky.id])).toEqual([{ soft_bounces: 1 }]);
    const failed = await t.http
      .get(api(`/newsletter/posts/${post.id}/deliveries?state=failed`))
      .set(admin.auth)
      .expect(200);
    expect(failed.body.data.items).toEqual([expect.objectContaining({ email: flaky.email, state: 'failed', attempts: 2 })]);
    refused.delete(flaky.email);
    const retried = await t.http
      .post(api(`/newsletter/posts/${post.id}/send/retry-failed`))
      .set(admin.auth)
      .expect(200);
    expect(retried.body.data).toEqual({ requeued: 1 });
    await until(
      () => sendState(post.id),
      (state) => state === 'done',
      'the retried send',
    );
    expect(mailsFor(flaky.email, post.title)).toHaveLength(1);
    // Delivered: the count starts again.
    expect(await db.query(`SELECT soft_bounces FROM newsletter_subscribers WHERE id = $1`, [flaky.id])).toEqual([{ soft_bounces: 0 }]);

    // Two soft bounces in a row (the limit here) from the bounce endpoint suppress the address.
    const report = (type: string) => JSON.stringify({ events: [{ type, email: flaky.email.toUpperCase(), detail: '452 mailbox full' }] });
    for (const body of [report('soft_bounce'), report('soft_bounce')]) {
      await t.http
        .post(api('/newsletter/bounces'))
        .set('Content-Type', 'application/json')
        .set('X-Inkwell-Signature', signBounceReport(SECRET, body, Math.floor(Date.now() / 1000)))
        .send(body)
        .expect(200);
    }
    expect(await db.query(`SELECT reason FROM newsletter_suppressions WHERE email = $1`, [flaky.email])).toEqual([
      { reason: 'soft_bounces' },
    ]);
  });

  it('takes signed bounce and complaint reports only: a wrong, missing or stale signature is 401 and changes nothing', async () => {
    const victim = await subscriber(['author']);
    const body = JSON.stringify({ events: [{ type: 'complaint', email: victim.email, detail: 'spam report' }] });
    const now = Math.floor(Date.now() / 1000);
    const send = (signature?: string, payload = body) => {
      const req = t.http.post(api('/newsletter/bounces')).set('Content-Type', 'application/json');
      return (signature ? req.set('X-Inkwell-Signature', signature) : req).send(payload);
    };
    await send().expect(401);
    await send(signBounceReport('another-secret-0123456789abcdefghijkl', body, now)).expect(401);
    await send(signBounceReport(SECRET, body, now - 3600)).expect(401);
    // Signed over other bytes (the same JSON re-spaced): the raw body counts.
    await send(signBounceReport(SECRET, JSON.stringify(JSON.parse(body), null, 2), now)).expect(401);
    expect(await db.query(`SELECT 1 FROM newsletter_suppressions WHERE email = $1`, [victim.email])).toEqual([]);
    const bad = JSON.stringify({ events: [{ type: 'maybe', email: 'x' }] });
    await send(signBounceReport(SECRET, bad, now), bad).expect(400);
    const done = await send(signBounceReport(SECRET, body, now)).expect(200);
    expect(done.body.data).toEqual({ received: 1, suppressed: 1, softBouncesCounted: 0, unknown: 0 });
    expect(await db.query(`SELECT reason, detail FROM newsletter_suppressions WHERE email = $1`, [victim.email])).toEqual([
      { reason: 'complaint', detail: 'spam report' },
    ]);
  });

  it("sends a weekly subscriber one digest of the week's posts on their weekday, once", async () => {
    const clock = t.app.get(CLOCK) as ShiftableClock;
    // Tomorrow at 09:00 site time: the week before it holds the posts published now.
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const day = siteDay(tomorrow, 'Asia/Ho_Chi_Minh');
    const reader = await subscriber(['author', 'tag'], { cadence: 'weekly', weekday: day.weekday });
    const elsewhere = await subscriber(['author'], { cadence: 'weekly', weekday: (day.weekday + 3) % 7 });
    const first = await published();
    const second = await published(otherAuthor);
    await until(
      () => sendState(second.id),
      (state) => state === 'done',
      'the live sends',
    );
    expect(mailsFor(reader.email, first.title)).toHaveLength(0);
    const digest = t.app.get(NewsletterDigest);
    const nine = new Date(`${day.date}T09:00:00+07:00`);
    clock.offsetMs = nine.getTime() - Date.now();
    try {
      expect(await digest.queueDue()).toBe(1);
      expect(await digest.queueDue()).toBe(0);
    } finally {
      clock.offsetMs = 0;
    }
    const message = await mail.waitFor(reader.email);
    expect(message.subject).toMatch(/new posts? this week/);
    expect(message.html).toContain(first.title);
    // The other author's post is tagged with the followed tag.
    expect(message.html).toContain(second.title);
    expect(header(message, 'List-Unsubscribe')).toMatch(/token=a\.\d+\./);
    expect(message.html).toContain('<html dir="ltr" lang="en">');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mail.to(reader.email)).toHaveLength(1);
    expect(mail.to(elsewhere.email)).toHaveLength(0);
    expect(await db.query(`SELECT state FROM newsletter_digest_deliveries WHERE subscriber_id = $1`, [reader.id])).toEqual([
      { state: 'sent' },
    ]);
  });

  // Last: a second app on this database (its own session check) is started and closed here.
  it('two instances working the same rows (each send job twice) send every e-mail once', async () => {
    const [{ id: first }]: { id: number }[] = await db.query(
      `INSERT INTO newsletter_subscribers (email, status, source, confirmed_at)
       SELECT 'twin-' || n || '-' || $1 || '@test.inkwell.test', 'active', 'import', now() FROM generate_series(1, 300) n RETURNING id`,
      [uid()],
    );
    await db.query(
      `INSERT INTO newsletter_follows (subscriber_id, kind, target_id) SELECT id, 'author', $2 FROM newsletter_subscribers WHERE id >= $1 AND email LIKE 'twin-%'`,
      [first, author.id],
    );
    const second = await createTestApp({
      databaseUrl,
      env: { SMTP_URL: mail.url, JWT_SECRET, JOB_POLL_SECONDS: '1', LOG_LEVEL: 'silent' },
    });
    try {
      const post = await draft();
      // The second instance queues every send job again in the approval's wake: both instances hold copies of each range.
      await approve(post.id);
      await until(
        () => sendState(post.id),
        (state) => state !== 'queued',
        'the fan-out',
      );
      await second.app.get(DataSource).transaction((manager) => second.app.get(NewsletterSender).enqueueSends(manager, post.id));
      await until(
        () => sendState(post.id),
        (state) => state === 'done',
        'the send',
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const copies = new Map<string, number>();
      for (const message of mail.messages.filter((m) => m.subject === post.title)) {
        const id = header(message, 'Message-ID')!;
        copies.set(id, (copies.get(id) ?? 0) + 1);
      }
      const twins = mail.messages.filter((m) => m.subject === post.title && m.to[0].startsWith('twin-'));
      expect(twins).toHaveLength(300);
      expect([...copies.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await second.close();
    }
  });
});
