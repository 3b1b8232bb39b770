import { DataSource } from 'typeorm';
import { NOTIFICATION_CLOCK, NotificationClock } from '../src/notifications/notification-clock';
import { NotificationMailer } from '../src/notifications/notification-mailer';
import { NotificationsService } from '../src/notifications/notifications.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { CapturedMail, MailCatcher, startMailCatcher } from './helpers/mail';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

/**
 * Notifications: every event reaches the in-app list and, per preference, the
 * captured mailbox; unsubscribe without signing in; the job is in the event's transaction; SMTP
 * failures retried with backoff then recorded; banned and unverified users get no mail; two
 * instances send each e-mail once; the hourly digest. A database of its own, so no other suite's
 * app works (or feeds) these queues.
 */
jest.setTimeout(120_000);

const JWT_SECRET = 'notifications-e2e-secret-0123456789abcdef';

describe('Notifications', () => {
  let databaseUrl: string;
  let mail: MailCatcher;
  const refused = new Set<string>();
  let t: TestApp;
  let db: DataSource;
  let admin: TestUser;
  let admin2: TestUser;
  let author: TestUser;
  let reader: TestUser;
  let other: TestUser;

  const env = () => ({ SMTP_URL: mail.url, JWT_SECRET, JOB_RETRY_LIMIT: '2', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '1' });

  beforeAll(async () => {
    databaseUrl = await createFreshDatabase('inkwell_notifications');
    mail = await startMailCatcher({ refuse: (to) => refused.has(to) });
    t = await createTestApp({ databaseUrl, env: env() });
    db = t.app.get(DataSource);
    [admin, admin2, author, reader, other] = await Promise.all([
      createAdmin(t),
      createAdmin(t),
      createAuthor(t),
      createReader(t),
      createReader(t),
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  /** Polls a database read until it holds (the queue works in the background). */
  async function until<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (holds(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function publishedPost(owner: TestUser = author): Promise<{ id: number; slug: string; title: string }> {
    const title = `Notified ${uid()}`;
    const created = await t.http.post(api('/blog/posts/author/create')).set(owner.auth).send({ title, content: 'Body' }).expect(201);
    const id: number = created.body.data.id;
    await t.http
      .post(api(`/blog/posts/author/${id}/submit-for-review`))
      .set(owner.auth)
      .expect(200);
    await t.http
      .put(api(`/blog/posts/admin/${id}/review`))
      .set(admin.auth)
      .send({ status: 'APPROVED' })
      .expect(200);
    return { id, slug: created.body.data.slug, title };
  }

  async function comment(user: TestUser, postId: number, content: string, parentId?: number): Promise<number> {
    const res = await t.http.post(api('/comments')).set(user.auth).send({ postId, content, parentId });
    if (res.status !== 201) throw new Error(`comment failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id;
  }

  const list = async (user: TestUser) => (await t.http.get(api('/notifications?size=100')).set(user.auth).expect(200)).body.data;
  const unread = async (user: TestUser): Promise<number> =>
    (await t.http.get(api('/notifications/unread-count')).set(user.auth).expect(200)).body.data.count;
  const deliveriesOf = (
    userId: number,
  ): Promise<{ id: number; status: string; attempts: number; last_error: string | null; notification_id: number | null }[]> =>
    db.query('SELECT id, status, attempts, last_error, notification_id FROM notification_deliveries WHERE user_id = $1 ORDER BY id', [
      userId,
    ]);
  const header = (message: CapturedMail, name: string) =>
    new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(message.raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' '))?.[1];
  /** The next e-mail to `to` with this subject (the author also gets their posts' approval e-mails). */
  async function mailWith(to: string, subject: string, since: number): Promise<CapturedMail> {
    for (;;) {
      const message = await mail.waitFor(to, { since });
      if (message.subject === subject) return message;
      since = mail.messages.indexOf(message) + 1;
    }
  }
  const typesOn = async (user: TestUser, postId: number): Promise<string[]> =>
    (await list(user)).content.filter((n: { post: { id: number } | null }) => n.post?.id === postId).map((n: { type: string }) => n.type);
  /** Users whose counter row (notification_counters) differs from a count of their rows: none, if the triggers keep them exact. */
  const counterDrift = (): Promise<unknown[]> =>
    db.query(
      `SELECT coalesce(c.user_id, n.user_id) AS user_id, c.listed, c.unread, n.listed AS rows_listed, n.unread AS rows_unread
         FROM notification_counters c
         FULL JOIN (SELECT user_id, count(*)::int AS listed, count(*) FILTER (WHERE NOT read)::int AS unread FROM notifications WHERE in_app GROUP BY user_id) n ON n.user_id = c.user_id
        WHERE coalesce(c.listed, 0) <> coalesce(n.listed, 0) OR coalesce(c.unread, 0) <> coalesce(n.unread, 0)`,
    );
  const tokenOf = (message: CapturedMail) => decodeURIComponent(/\/unsubscribe\?token=([\w.%-]+)/.exec(message.text)?.[1] ?? '');

  it('a reply: the replied-to reader gets it in-app and by e-mail (one-click unsubscribe headers); the post author in-app only; never the actor', async () => {
    const post = await publishedPost();
    const parent = await comment(reader, post.id, 'First!');
    const since = mail.messages.length;
    const reply = await comment(other, post.id, 'Welcome aboard', parent);

    const readerList = await list(reader);
    expect(readerList.content[0]).toEqual({
      id: expect.any(Number),
      type: 'COMMENT_REPLY',
      read: false,
      createdAt: ISO,
      actor: { id: other.id, fullName: other.fullName, avatar: null },
      post: { id: post.id, slug: post.slug, title: post.title },
      commentId: reply,
      reason: null,
      publishAt: null,
      link: `/blog/${post.slug}#comment-${reply}`,
    });
    const message = await mail.waitFor(reader.email, { since });
    expect(message.subject).toBe('New reply to your comment');
    // The page's sentence (isomorphic/notification-wording.ts), ended with a full stop.
    expect(message.text).toContain(`${other.fullName} replied to your comment on “${post.title}”.`);
    expect(message.text).toContain('Welcome aboard');
    expect(message.text).toContain(`http://localhost:3000/blog/${post.slug}#comment-${reply}`);
    expect(header(message, 'List-Unsubscribe')).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\?token=[\w.%-]+>$/);
    expect(header(message, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    await until(
      () => deliveriesOf(reader.id),
      (rows) => rows.at(-1)?.status === 'SENT',
      'reply delivery',
    );

    // The post's author: both comments in-app (the first and the reply), no e-mail by default.
    expect(await typesOn(author, post.id)).toEqual(['POST_COMMENT', 'POST_COMMENT', 'POST_APPROVED']);
    const commentMails = await db.query(
      `SELECT d.id FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id WHERE d.user_id = $1 AND n.type = 'POST_COMMENT'`,
      [author.id],
    );
    expect(commentMails).toEqual([]);
    // The actor is never told: a reply to one's own comment tells nobody but the post's author.
    await comment(other, post.id, 'Me again', reply);
    expect((await list(other)).content).toEqual([]);
  });

  it("a reply to the post author's own comment tells them once (as a reply)", async () => {
    const post = await publishedPost();
    const own = await comment(author, post.id, 'Thanks for reading');
    await comment(reader, post.id, 'Great post', own);
    expect(await typesOn(author, post.id)).toEqual(['COMMENT_REPLY', 'POST_APPROVED']);
  });

  it('submission tells every active admin but the actor (in-app); approval and rejection tell the author by e-mail with the reason and reviewer', async () => {
    const created = await t.http
      .post(api('/blog/posts/author/create'))
      .set(author.auth)
      .send({ title: `Reviewed ${uid()}`, content: 'Body' })
      .expect(201);
    const id: number = created.body.data.id;
    const title: string = created.body.data.title;
    await t.http
      .post(api(`/blog/posts/author/${id}/submit-for-review`))
      .set(author.auth)
      .expect(200);
    for (const who of [admin, admin2]) {
      expect(
        (await list(who)).content.find(
          (n: { type: string; post: { id: number } | null }) => n.type === 'POST_SUBMITTED' && n.post?.id === id,
        ),
      ).toMatchObject({
        actor: { id: author.id },
        link: '/admin/posts',
      });
    }
    expect(
      (await db.query('SELECT count(*)::int AS n FROM notification_deliveries WHERE user_id = ANY($1)', [[admin.id, admin2.id]]))[0].n,
    ).toBe(0);

    let since = mail.messages.length;
    await t.http
      .put(api(`/blog/posts/admin/${id}/review`))
      .set(admin.auth)
      .send({ status: 'REJECTED', rejectionReason: 'Needs a clearer title' })
      .expect(200);
    const rejected = (await list(author)).content.find(
      (n: { type: string; post: { id: number } | null }) => n.type === 'POST_REJECTED' && n.post?.id === id,
    );
    expect(rejected).toMatchObject({
      actor: { id: admin.id, fullName: admin.fullName },
      reason: 'Needs a clearer title',
      link: `/author/posts/${id}/edit`,
    });
    const rejection = await mailWith(author.email, 'Your post was rejected', since);
    expect(rejection.text).toContain(`${admin.fullName} rejected your post “${title}”.`);
    expect(rejection.text).toContain('Reason: Needs a clearer title');

    await t.http
      .post(api(`/blog/posts/author/${id}/submit-for-review`))
      .set(author.auth)
      .expect(200);
    since = mail.messages.length;
    await t.http
      .put(api(`/blog/posts/admin/${id}/review`))
      .set(admin2.auth)
      .send({ status: 'APPROVED' })
      .expect(200);
    const approval = await mailWith(author.email, 'Your post was published', since);
    expect(approval.text).toContain(`${admin2.fullName} approved and published your post “${title}”.`);
    // Both admins were told of both submissions; a review tells the author only.
    expect(await typesOn(admin, id)).toEqual(['POST_SUBMITTED', 'POST_SUBMITTED']);
    expect(await typesOn(admin2, id)).toEqual(['POST_SUBMITTED', 'POST_SUBMITTED']);
  });

  it("unread count, mark one read (404 for another's), mark all read; unread first, then newest", async () => {
    const post = await publishedPost();
    const target = await createReader(t);
    const parent = await comment(target, post.id, 'Mine');
    await comment(reader, post.id, 'Reply 1', parent);
    await comment(other, post.id, 'Reply 2', parent);
    expect(await unread(target)).toBe(2);
    const [newest, older] = (await list(target)).content;
    expect(newest.commentId).toBeGreaterThan(older.commentId);
    expect(
      (
        await t.http
          .post(api(`/notifications/${older.id}/read`))
          .set(reader.auth)
          .expect(404)
      ).body,
    ).toEqual(err(404, 'Notification not found'));
    expect((await t.http.post(api('/notifications/abc/read')).set(target.auth).expect(400)).body.message).toBe('Invalid notification ID.');
    expect(
      (
        await t.http
          .post(api(`/notifications/${newest.id}/read`))
          .set(target.auth)
          .expect(200)
      ).body.data,
    ).toEqual({ count: 1 });
    // The read one goes below the unread one.
    expect((await list(target)).content.map((n: { id: number; read: boolean }) => [n.id, n.read])).toEqual([
      [older.id, false],
      [newest.id, true],
    ]);
    expect((await t.http.post(api('/notifications/read-all')).set(target.auth).expect(200)).body.data).toEqual({ updated: 1 });
    expect(await unread(target)).toBe(0);
    expect((await t.http.get(api('/notifications?page=-1')).set(target.auth).expect(400)).body.errors).toHaveProperty('page');
  });

  it('preferences: defaults by role; switching e-mail on or in-app off takes effect; a type outside the role is 400', async () => {
    const fresh = await createReader(t);
    expect((await t.http.get(api('/notifications/preferences')).set(fresh.auth).expect(200)).body.data).toEqual({
      digest: false,
      events: [
        { type: 'COMMENT_REPLY', inApp: true, email: true },
        { type: 'COMMENT_HIDDEN', inApp: true, email: false },
      ],
    });
    expect(
      (await t.http.get(api('/notifications/preferences')).set(admin.auth).expect(200)).body.data.events.map(
        (e: { type: string }) => e.type,
      ),
    ).toEqual(['COMMENT_REPLY', 'POST_COMMENT', 'POST_APPROVED', 'POST_REJECTED', 'COMMENT_HIDDEN', 'POST_SUBMITTED', 'COMMENT_REPORTED']);
    const refusedType = await t.http
      .put(api('/notifications/preferences'))
      .set(fresh.auth)
      .send({ events: [{ type: 'POST_SUBMITTED', inApp: true, email: true }] })
      .expect(400);
    expect(refusedType.body.errors).toHaveProperty('events');
    await t.http
      .put(api('/notifications/preferences'))
      .set(fresh.auth)
      .send({ events: [{ type: 'NOPE', inApp: true, email: true }] })
      .expect(400);
    await t.http.put(api('/notifications/preferences')).set(fresh.auth).send({ digest: 'yes' }).expect(400);
    // null is 'not given' (as for the other optional fields): nothing changes (the fuzz run found a 500 here).
    expect(
      (await t.http.put(api('/notifications/preferences')).set(fresh.auth).send({ digest: null, events: null }).expect(200)).body.data
        .digest,
    ).toBe(false);

    // The author wants comments by e-mail, and no in-app entry for them.
    const writer = await createAuthor(t);
    const saved = await t.http
      .put(api('/notifications/preferences'))
      .set(writer.auth)
      .send({ events: [{ type: 'POST_COMMENT', inApp: false, email: true }] })
      .expect(200);
    expect(saved.body.data.events.find((e: { type: string }) => e.type === 'POST_COMMENT')).toEqual({
      type: 'POST_COMMENT',
      inApp: false,
      email: true,
    });
    const post = await publishedPost(writer);
    const since = mail.messages.length;
    await comment(reader, post.id, 'Nice one');
    await mailWith(writer.email, 'New comment on your post', since);
    expect(await typesOn(writer, post.id)).toEqual(['POST_APPROVED']);
    expect(await unread(writer)).toBe(1);
  });

  it('unsubscribe without signing in: GET says what and changes nothing; the one-click POST (no Origin, form body) stops those e-mails', async () => {
    const post = await publishedPost();
    const target = await createReader(t);
    const parent = await comment(target, post.id, 'Subscribe me');
    let since = mail.messages.length;
    await comment(reader, post.id, 'Reply', parent);
    const token = tokenOf(await mail.waitFor(target.email, { since }));
    expect(token).toMatch(new RegExp(`^${target.id}\\.COMMENT_REPLY\\.`));

    const preview = await t.http.get(api(`/notifications/unsubscribe?token=${encodeURIComponent(token)}`)).expect(200);
    expect(preview.body.data).toEqual({
      scope: 'COMMENT_REPLY',
      description: 'e-mails about replies to your comments',
      unsubscribed: false,
    });
    expect(
      (await t.http.get(api(`/notifications/unsubscribe?token=${encodeURIComponent(token)}`)).expect(200)).body.data.unsubscribed,
    ).toBe(false);

    const done = await t.http
      .post(api(`/notifications/unsubscribe?token=${encodeURIComponent(token)}`))
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    expect(done.body.data).toEqual({ scope: 'COMMENT_REPLY', description: 'e-mails about replies to your comments', unsubscribed: true });
    expect((await t.http.get(api('/notifications/preferences')).set(target.auth).expect(200)).body.data.events[0]).toEqual({
      type: 'COMMENT_REPLY',
      inApp: true,
      email: false,
    });

    since = mail.messages.length;
    await comment(other, post.id, 'Another reply', parent);
    expect(await unread(target)).toBe(2);
    expect(await deliveriesOf(target.id)).toHaveLength(1);

    // Tampered, foreign-secret or malformed tokens: 400 with a field error; the same from a cross-site page.
    const [id, scope, sig] = token.split('.');
    for (const bad of [`${id}.COMMENT_HIDDEN.${sig}`, `${Number(id) + 1}.${scope}.${sig}`, 'nonsense', '']) {
      const res = await t.http.post(api(`/notifications/unsubscribe?token=${encodeURIComponent(bad)}`)).expect(400);
      expect(res.body.errors).toHaveProperty('token');
    }
    await t.http.post(api('/notifications/unsubscribe')).expect(400);
    await t.http
      .post(api(`/notifications/unsubscribe?token=${encodeURIComponent(token)}`))
      .set('Origin', 'https://evil.example')
      .expect(403);
  });

  it("exactly once: the rows and the job are written in the event's transaction (a rolled-back comment leaves neither)", async () => {
    const post = await publishedPost();
    const target = await createReader(t);
    const parent = await comment(target, post.id, 'Parent');
    const jobs = async () => (await db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'notification-email'`))[0].n as number;
    const before = {
      jobs: await jobs(),
      comments: (await db.query('SELECT count(*)::int AS n FROM comments WHERE post_id = $1', [post.id]))[0].n,
    };
    await expect(
      db.transaction(async (manager) => {
        const [{ id }] = await manager.query(
          `INSERT INTO comments (post_id, user_id, parent_id, level, content) VALUES ($1, $2, $3, 1, 'Rolled back') RETURNING id`,
          [post.id, reader.id, parent],
        );
        await t.app
          .get(NotificationsService)
          .record(manager, { type: 'COMMENT_REPLY', actorId: reader.id, commentId: id, repliedToId: parent });
        expect((await manager.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'notification-email'`))[0].n).toBe(
          before.jobs + 1,
        );
        throw new Error('the comment insert fails after the notification');
      }),
    ).rejects.toThrow('the comment insert fails');
    expect(await jobs()).toBe(before.jobs);
    expect(await list(target)).toMatchObject({ totalElements: 0 });
    expect(await deliveriesOf(target.id)).toEqual([]);
    expect((await db.query('SELECT count(*)::int AS n FROM comments WHERE post_id = $1', [post.id]))[0].n).toBe(before.comments);
  });

  it('concurrent replies to one busy thread: the counts stay exact and each reply is told exactly once (row, delivery, e-mail job)', async () => {
    const post = await publishedPost();
    const target = await createReader(t);
    const repliers = await Promise.all([createReader(t), createReader(t), createReader(t)]);
    const parent = await comment(target, post.id, 'A busy thread');
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => comment(repliers[i % 3], post.id, `Busy reply ${i} ${uid()}`, parent)),
    );
    const [counts] = await db.query(
      'SELECT (SELECT reply_count FROM comments WHERE id = $1) AS replies, (SELECT comment_count FROM posts WHERE id = $2) AS comments',
      [parent, post.id],
    );
    expect(counts).toEqual({ replies: 12, comments: 13 });
    const told = await db.query(
      `SELECT n.comment_id, count(d.id)::int AS deliveries FROM notifications n LEFT JOIN notification_deliveries d ON d.notification_id = n.id
        WHERE n.user_id = $1 AND n.type = 'COMMENT_REPLY' GROUP BY n.comment_id ORDER BY n.comment_id`,
      [target.id],
    );
    expect(told).toEqual([...replies].sort((a, b) => a - b).map((id) => ({ comment_id: id, deliveries: 1 })));
    const [jobs] = await db.query(
      `SELECT count(*)::int AS n FROM pgboss.job j JOIN notification_deliveries d ON d.id = (j.data->>'deliveryId')::int WHERE j.name = 'notification-email' AND d.user_id = $1`,
      [target.id],
    );
    expect(jobs.n).toBe(12);
    // The post's author: one in-app entry per comment, none e-mailed.
    expect((await typesOn(author, post.id)).filter((type) => type === 'POST_COMMENT')).toHaveLength(13);
  });

  it('SMTP failure: retried with backoff, then recorded FAILED with the reason; a later success is SENT once', async () => {
    const post = await publishedPost();
    const target = await createReader(t);
    refused.add(target.email.toLowerCase());
    const parent = await comment(target, post.id, 'Parent');
    await comment(reader, post.id, 'Reply', parent);
    const [failed] = await until(
      () => deliveriesOf(target.id),
      (rows) => rows[0]?.status === 'FAILED',
      'failed delivery',
    );
    // JOB_RETRY_LIMIT=2: the first try and two retries.
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 3, last_error: expect.stringContaining('Mailbox busy, try again later') });
    const [job] = await db.query(
      `SELECT state, retry_count, retry_limit, retry_delay, retry_backoff FROM pgboss.job WHERE name = 'notification-email' AND data->>'deliveryId' = $1`,
      [String(failed.id)],
    );
    expect(job).toEqual({ state: 'failed', retry_count: 2, retry_limit: 2, retry_delay: 1, retry_backoff: true });
    expect(mail.to(target.email)).toEqual([]);

    refused.delete(target.email.toLowerCase());
    const since = mail.messages.length;
    await comment(other, post.id, 'Second reply', parent);
    await mail.waitFor(target.email, { since });
    const rows = await until(
      () => deliveriesOf(target.id),
      (r) => r[1]?.status === 'SENT',
      'second delivery',
    );
    expect(rows[1]).toMatchObject({ status: 'SENT', attempts: 1, last_error: null });
  });

  it('banned and unverified users get no e-mail (checked when the job runs); the in-app entry stays', async () => {
    const post = await publishedPost();
    const banned = await createReader(t);
    const unverified = await createReader(t);
    const parents = [await comment(banned, post.id, 'Banned soon'), await comment(unverified, post.id, 'Unverified soon')];
    await db.query(`UPDATE users SET status = 'BANNED' WHERE id = $1`, [banned.id]);
    await db.query(`UPDATE users SET is_verified = false WHERE id = $1`, [unverified.id]);
    await comment(reader, post.id, 'Reply', parents[0]);
    await comment(reader, post.id, 'Reply', parents[1]);
    const [b] = await until(
      () => deliveriesOf(banned.id),
      (rows) => rows[0]?.status === 'SKIPPED',
      'banned delivery',
    );
    const [u] = await until(
      () => deliveriesOf(unverified.id),
      (rows) => rows[0]?.status === 'SKIPPED',
      'unverified delivery',
    );
    expect(b.last_error).toBe('The account is banned');
    expect(u.last_error).toBe('The account is not active or not verified');
    expect(mail.to(banned.email)).toEqual([]);
    expect(mail.to(unverified.email)).toEqual([]);
    expect(
      (await db.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = ANY($1)', [[banned.id, unverified.id]]))[0].n,
    ).toBe(2);
  });

  it('digest: at most one e-mail an hour, grouping what happened (an injected clock; no waiting for the hour)', async () => {
    const clock = t.app.get<NotificationClock>(NOTIFICATION_CLOCK);
    const mailer = t.app.get(NotificationMailer);
    const post = await publishedPost();
    const target = await createReader(t);
    await t.http.put(api('/notifications/preferences')).set(target.auth).send({ digest: true }).expect(200);
    const parent = await comment(target, post.id, 'Digest me');

    let since = mail.messages.length;
    await comment(reader, post.id, 'First reply', parent);
    const first = await mail.waitFor(target.email, { since });
    expect(first.subject).toBe('Inkwell: 1 new notification');
    expect(header(first, 'List-Unsubscribe')).toMatch(new RegExp(`token=${target.id}\\.ALL\\.`));

    // Within the hour: the rows wait for the next digest, which is a job due an hour after the last.
    await comment(other, post.id, 'Second reply', parent);
    await comment(reader, post.id, 'Third reply', parent);
    const pending = await db.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND digest_pending', [target.id]);
    expect(pending[0].n).toBe(2);
    const [job] = await db.query(
      `SELECT start_after > now() + interval '55 minutes' AS later FROM pgboss.job WHERE name = 'notification-digest' AND singleton_key = $1 AND state = 'created'`,
      [`digest:${target.id}`],
    );
    expect(job).toEqual({ later: true });
    await mailer.digest(target.id);
    expect((await db.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND digest_pending', [target.id]))[0].n).toBe(
      2,
    );

    // An hour later by the clock: one e-mail with both.
    const realNow = clock.now;
    clock.now = () => new Date(realNow().getTime() + 61 * 60 * 1000);
    try {
      since = mail.messages.length;
      await mailer.digest(target.id);
      const digest = await mail.waitFor(target.email, { since });
      expect(digest.subject).toBe('Inkwell: 2 new notifications');
      expect(digest.text).toContain(`${other.fullName} replied to your comment`);
      expect(digest.text).toContain(`${reader.fullName} replied to your comment`);
    } finally {
      clock.now = realNow;
    }
    expect(mail.to(target.email)).toHaveLength(2);
  });

  it('the bell and the total are counters kept with the rows: exact after replies, a read and a deleted post (cascade), for every user', async () => {
    const [post, elsewhere] = [await publishedPost(), await publishedPost()];
    const target = await createReader(t);
    const parent = await comment(target, post.id, 'Counted');
    await Promise.all([comment(reader, post.id, 'One', parent), comment(other, post.id, 'Two', parent)]);
    await comment(reader, elsewhere.id, 'Three', await comment(target, elsewhere.id, 'Counted too'));
    expect(await unread(target)).toBe(3);
    const before = await list(target);
    expect(before.totalElements).toBe(3);
    expect(
      (
        await t.http
          .post(api(`/notifications/${before.content[0].id}/read`))
          .set(target.auth)
          .expect(200)
      ).body.data,
    ).toEqual({ count: 2 });
    expect((await list(target)).totalElements).toBe(3);
    // The newest (read) one is about the other post: deleting this one takes the two unread replies with it.
    expect(before.content[0].post.id).toBe(elsewhere.id);
    await t.http
      .delete(api(`/blog/posts/${post.id}`))
      .set(admin.auth)
      .expect(204);
    expect(await unread(target)).toBe(0);
    const after = (await t.http.get(api('/notifications?page=3&size=10')).set(target.auth).expect(200)).body.data;
    expect(after).toMatchObject({ content: [], totalElements: 1, totalPages: 1, number: 3 });
    // Everything the tests above did (in-app off, read-all, concurrent replies, digests) left no counter off.
    expect(await counterDrift()).toEqual([]);
  });

  it('anonymous callers get 401 on the signed-in routes', async () => {
    for (const [method, path] of [
      ['get', '/notifications'],
      ['get', '/notifications/unread-count'],
      ['post', '/notifications/1/read'],
      ['post', '/notifications/read-all'],
      ['get', '/notifications/preferences'],
      ['put', '/notifications/preferences'],
    ] as const) {
      expect((await t.http[method](api(path)).expect(401)).body.status).toBe(401);
    }
  });
  // Last: Passport's strategies are process-wide, so once the second app closes the first cannot check tokens.
  it('two instances: a burst of replies is delivered exactly once each', async () => {
    const second = await createTestApp({ databaseUrl, env: env() });
    try {
      const post = await publishedPost();
      const target = await createReader(t);
      const parent = await comment(target, post.id, 'Popular');
      const repliers = await Promise.all(Array.from({ length: 4 }, () => createReader(t)));
      const replies = 40;
      await Promise.all(
        Array.from({ length: replies }, (_, i) =>
          (i % 2 ? second : t).http
            .post(api('/comments'))
            .set(repliers[i % repliers.length].auth)
            .send({ postId: post.id, content: `Reply ${i}`, parentId: parent })
            .expect(201),
        ),
      );
      const rows = await until(
        () => deliveriesOf(target.id),
        (r) => r.length === replies && r.every((d) => d.status === 'SENT'),
        'burst deliveries',
      );
      expect(rows.every((d) => d.attempts === 1)).toBe(true);
      const received = mail.to(target.email);
      expect(received).toHaveLength(replies);
      expect(new Set(received.map((m) => header(m, 'Message-ID'))).size).toBe(replies);
      expect(await unread(target)).toBe(replies);
      expect(await counterDrift()).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
