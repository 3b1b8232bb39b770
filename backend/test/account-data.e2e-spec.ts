import { existsSync } from 'node:fs';
import { generate } from 'otplib';
import { join } from 'node:path';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { fromBuffer as zipFromBuffer, type Entry, type ZipFile } from 'yauzl';
import { PasswordHasher } from '../src/auth/password-hasher';
import { RoleName } from '../src/users/roles';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { MailCatcher, startMailCatcher } from './helpers/mail';
import { createAdmin, createAuthor, createReader, createUser, TestUser } from './helpers/users';

const PASSWORD = 'Str0ng!Pass';
type Person = TestUser & { password: string };

/**
 * 'Your data is yours': deletion (disabled at once, cancelled by signing in, erased
 * by the job through every owner with all counters exact) and the data export. A database of its
 * own: the erasure policy (a site setting) changes here, and the counters are checked against
 * aggregates over every row.
 */
describe('Your data: account deletion and data export', () => {
  let t: TestApp;
  let mail: MailCatcher;
  let db: DataSource;
  /** PASSWORD's hash, made once (bcrypt is slow on purpose). */
  let passwordHash: string;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({
      databaseUrl: await createFreshDatabase('inkwell_account_data'),
      env: { SMTP_URL: mail.url, JOB_POLL_SECONDS: '1' },
    });
    db = t.app.get(DataSource);
    passwordHash = await t.app.get(PasswordHasher).hash(PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  /** A user of the helpers with a real password (theirs is '!', which matches none). */
  async function withPassword(user: TestUser): Promise<Person> {
    await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user.id, passwordHash]);
    return { ...user, password: PASSWORD };
  }
  const png = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
  const post = async (by: TestUser, status = 'PUBLISHED', extra: Record<string, unknown> = {}) => {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts'))
      .set(by.auth)
      .send({ title: `Data ${token}`, slug: `data-${token}`, content: `Body ${token}`, status, ...extra })
      .expect(201);
    return res.body.data as { id: number; slug: string };
  };
  const like = (by: TestUser, postId: number) =>
    t.http
      .post(api(`/likes/post/${postId}`))
      .set(by.auth)
      .expect((res) => expect([200, 201]).toContain(res.status));
  const comment = async (by: TestUser, postId: number, content: string, parentId?: number) =>
    (await t.http.post(api('/comments')).set(by.auth).send({ postId, content, parentId }).expect(201)).body.data as { id: number };
  const login = (email: string, password = PASSWORD) => t.http.post(api('/auth/login')).send({ email, password });
  const userExists = async (id: number) => (await db.query('SELECT 1 FROM users WHERE id = $1', [id])).length > 0;

  /** Makes a pending deletion due now and wakes its job (the grace period, skipped); waits for the job's end. */
  async function runDueErasure(userId: number): Promise<void> {
    await db.query(`UPDATE users SET deletion_due_at = now() - interval '1 second' WHERE id = $1`, [userId]);
    await db.query(
      `UPDATE pgboss.job SET start_after = now() WHERE name = 'account-erasure' AND data->>'userId' = $1 AND state = 'created'`,
      [String(userId)],
    );
    await waitForJobs('account-erasure');
  }
  async function waitForJobs(queue: string): Promise<void> {
    for (let i = 0; i < 150; i += 1) {
      const [{ open }] = (await db.query(
        `SELECT count(*)::int AS open FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active') AND start_after <= now()`,
        [queue],
      )) as { open: number }[];
      if (open === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`jobs of ${queue} still open`);
  }

  /** Every kept counter that differs from its aggregate (empty when all are exact). */
  async function counterDrift(): Promise<unknown[]> {
    return db.query(
      `SELECT 'post.like_count' AS counter, p.id, p.like_count AS kept, (SELECT count(*)::int FROM likes l WHERE l.post_id = p.id) AS counted FROM posts p
        WHERE p.like_count <> (SELECT count(*) FROM likes l WHERE l.post_id = p.id)
       UNION ALL
       SELECT 'post.comment_count', p.id, p.comment_count, (SELECT count(*)::int FROM comments c WHERE c.post_id = p.id AND c.deleted_at IS NULL AND c.moderation = 'VISIBLE') FROM posts p
        WHERE p.comment_count <> (SELECT count(*) FROM comments c WHERE c.post_id = p.id AND c.deleted_at IS NULL AND c.moderation = 'VISIBLE')
       UNION ALL
       SELECT 'comment.reply_count', c.id, c.reply_count, (SELECT count(*)::int FROM comments r WHERE r.parent_id = c.id AND r.moderation = 'VISIBLE') FROM comments c
        WHERE c.reply_count <> (SELECT count(*) FROM comments r WHERE r.parent_id = c.id AND r.moderation = 'VISIBLE')
       UNION ALL
       SELECT 'comment.report_count', c.id, c.report_count, (SELECT count(*)::int FROM comment_reports cr WHERE cr.comment_id = c.id AND cr.dismissed_at IS NULL) FROM comments c
        WHERE c.report_count <> (SELECT count(*) FROM comment_reports cr WHERE cr.comment_id = c.id AND cr.dismissed_at IS NULL)
       UNION ALL
       SELECT 'reader_like_counts', u.id, COALESCE(r.published_likes, 0), (SELECT count(*)::int FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED' WHERE l.user_id = u.id)
         FROM users u LEFT JOIN reader_like_counts r ON r.user_id = u.id
        WHERE COALESCE(r.published_likes, 0) <> (SELECT count(*) FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED' WHERE l.user_id = u.id)`,
    );
  }

  /** Audit rows about an account, with everything they say. */
  const auditAbout = async (userId: number) =>
    (await db.query(
      `SELECT type, title, description, details::text AS details FROM audit_log WHERE target_type = 'user' AND target_id = $1 ORDER BY id`,
      [userId],
    )) as {
      type: string;
      title: string;
      description: string;
      details: string;
    }[];

  describe('Delete my account', () => {
    it('refuses anonymous callers, a wrong confirmation and a wrong password, with the field errors', async () => {
      await t.http.post(api('/account/deletion')).send({ password: PASSWORD, confirmation: 'DELETE' }).expect(401);
      const user = await withPassword(await createReader(t));
      const typed = await t.http
        .post(api('/account/deletion'))
        .set(user.auth)
        .send({ password: PASSWORD, confirmation: 'delete' })
        .expect(400);
      expect(typed.body.errors).toEqual({ confirmation: ['Type DELETE to confirm.'] });
      const wrong = await t.http
        .post(api('/account/deletion'))
        .set(user.auth)
        .send({ password: 'Wr0ng!Pass', confirmation: 'DELETE' })
        .expect(400);
      expect(wrong.body).toEqual(err(400, 'The password is not correct.', { password: ['The password is not correct.'] }));
      const code = await t.http
        .post(api('/account/deletion'))
        .set(user.auth)
        .send({ password: PASSWORD, confirmation: 'DELETE', twoFactorCode: 12 })
        .expect(400);
      expect(code.body.errors).toEqual({ twoFactorCode: ['Enter the 6-digit code from your authenticator app or a recovery code.'] });
      expect(await userExists(user.id)).toBe(true);
      expect((await db.query('SELECT deletion_due_at FROM users WHERE id = $1', [user.id]))[0].deletion_due_at).toBeNull();
    });

    it("with two-factor sign-in on, deleting and cancelling take a code too, and the account's API tokens stop at once", async () => {
      const user = await withPassword(await createReader(t));
      const secret = (await t.http.post(api('/account/two-factor/setup')).set(user.auth).expect(200)).body.data.secret as string;
      // The previous step's code confirms, so the current step's stays unused for the deletion below.
      const stepCode = (steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
      await t.http
        .post(api('/account/two-factor/confirm'))
        .set(user.auth)
        .send({ code: await stepCode(-1) })
        .expect(200);
      const token = (
        await t.http
          .post(api('/account/tokens'))
          .set(user.auth)
          .send({ name: 'Script', scopes: ['read'], expiresInDays: 30 })
          .expect(201)
      ).body.data.token as string;
      await t.http.get(api('/users/profile')).set('Authorization', `Bearer ${token}`).expect(200);

      const noCode = await t.http
        .post(api('/account/deletion'))
        .set(user.auth)
        .send({ password: PASSWORD, confirmation: 'DELETE' })
        .expect(400);
      expect(noCode.body.errors).toEqual({ twoFactorCode: ['The two-factor code is not correct.'] });
      const wrongCode = await t.http
        .post(api('/account/deletion'))
        .set(user.auth)
        .send({ password: PASSWORD, confirmation: 'DELETE', twoFactorCode: '000000' })
        .expect(400);
      expect(wrongCode.body.errors).toEqual({ twoFactorCode: ['The two-factor code is not correct.'] });
      expect((await db.query('SELECT deletion_due_at FROM users WHERE id = $1', [user.id]))[0].deletion_due_at).toBeNull();
      await t.http
        .post(api('/account/deletion'))
        .set(user.auth)
        .send({ password: PASSWORD, confirmation: 'DELETE', twoFactorCode: await stepCode(0) })
        .expect(200);

      // Disabled at once, for the token as well as the session.
      await t.http.get(api('/users/profile')).set('Authorization', `Bearer ${token}`).expect(403);
      // Cancelling without a code is refused as sign-in refuses a wrong code; the next step's code gives the account back.
      await t.http.post(api('/account/deletion/cancel')).send({ email: user.email, password: PASSWORD }).expect(401);
      await t.http
        .post(api('/account/deletion/cancel'))
        .send({ email: user.email, password: PASSWORD, twoFactorCode: await stepCode(1) })
        .expect(200);
      await t.http.get(api('/users/profile')).set('Authorization', `Bearer ${token}`).expect(200);
    });

    it('disables the account at once, answers sign-in with the date, and signing in to cancel gives it back (the waiting job then erases nothing)', async () => {
      const user = await withPassword(await createReader(t));
      const before = Date.now();
      const res = await t.http
        .post(api('/account/deletion'))
        .set(user.auth)
        .send({ password: PASSWORD, confirmation: 'DELETE', twoFactorCode: '123456' })
        .expect(200);
      expect(res.body.message).toBe('Your account is scheduled for deletion. You have been signed out.');
      const due = new Date(res.body.data.deletionScheduledFor).getTime();
      expect(due - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 1_000);
      expect(due - before).toBeLessThan(7 * 86_400_000 + 60_000);
      expect(String(res.headers['set-cookie'])).toMatch(/inkwell_access=;/);

      // Disabled at once: the token's session ended, and sign-in tells the date instead of a session.
      await t.http.get(api('/users/profile')).set(user.auth).expect(401);
      const signIn = await login(user.email).expect(403);
      expect(signIn.body.message).toMatch(/^Your account is scheduled for deletion on .+\. Cancel the deletion to use it again\.$/);
      expect(signIn.body.errors).toEqual({ deletionScheduledFor: [res.body.data.deletionScheduledFor] });
      // Already pending: another request cannot be made (no session), and an admin's delete says so.
      const admin = await createAdmin(t);
      expect(
        (
          await t.http
            .delete(api(`/admin/users/${user.id}`))
            .set(admin.auth)
            .expect(409)
        ).body.message,
      ).toBe('This account is already scheduled for deletion.');

      // Cancelling needs the sign-in data; wrong data gets sign-in's answer and says nothing about the account.
      expect(
        (await t.http.post(api('/account/deletion/cancel')).send({ email: user.email, password: 'Wr0ng!Pass' }).expect(401)).body,
      ).toEqual(err(401, 'Incorrect email or password.'));
      const cancelled = await t.http
        .post(api('/account/deletion/cancel'))
        .send({ email: user.email.toUpperCase(), password: PASSWORD })
        .expect(200);
      expect(cancelled.body.message).toBe('The deletion is cancelled: your account is yours again. You can sign in now.');
      await t.http.post(api('/account/deletion/cancel')).send({ email: user.email, password: PASSWORD }).expect(409);
      const back = await login(user.email).expect(200);
      expect(back.body.data.user.id).toBe(user.id);

      // The erasure job enqueued with the schedule still runs at its time and finds nothing due.
      await db.query(
        `UPDATE pgboss.job SET start_after = now() WHERE name = 'account-erasure' AND data->>'userId' = $1 AND state = 'created'`,
        [String(user.id)],
      );
      await waitForJobs('account-erasure');
      expect(await userExists(user.id)).toBe(true);

      const audit = await auditAbout(user.id);
      expect(audit.map((row) => row.type)).toEqual(['USER_DELETION_SCHEDULED', 'USER_DELETION_CANCELLED']);
      for (const row of audit)
        expect(`${row.title} ${row.description} ${row.details}`).not.toMatch(new RegExp(`${user.email}|${user.fullName}`, 'i'));
    });

    it('answers cancellation like sign-in (401 for a wrong password or code), and spends a code only when it cancels', async () => {
      const user = await withPassword(await createReader(t));
      const secret = (await t.http.post(api('/account/two-factor/setup')).set(user.auth).expect(200)).body.data.secret as string;
      const stepCode = (steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
      const recoveryCodes = (
        await t.http
          .post(api('/account/two-factor/confirm'))
          .set(user.auth)
          .send({ code: await stepCode(-1) })
          .expect(200)
      ).body.data.recoveryCodes as string[];
      const unusedCodes = async () =>
        (await db.query('SELECT count(*)::int AS n FROM two_factor_recovery_codes WHERE user_id = $1 AND used_at IS NULL', [user.id]))[0]
          .n as number;
      const cancel = (body: Record<string, unknown>) => t.http.post(api('/account/deletion/cancel')).send({ email: user.email, ...body });
      const wrongCode = err(401, 'That code is not right. Try again.', { twoFactorCode: ['That code is not right. Try again.'] });

      // Nothing pending: the right password and a valid recovery code answer 409, and the code stays unused.
      await cancel({ password: PASSWORD, twoFactorCode: recoveryCodes[0] }).expect(409);
      expect(await unusedCodes()).toBe(10);

      await t.http
        .post(api('/account/deletion'))
        .set(user.auth)
        .send({ password: PASSWORD, confirmation: 'DELETE', twoFactorCode: await stepCode(0) })
        .expect(200);
      // Wrong password: sign-in's 401, whatever the code.
      expect((await cancel({ password: 'Wr0ng!Pass', twoFactorCode: '000000' }).expect(401)).body).toEqual(
        err(401, 'Incorrect email or password.'),
      );
      // The right password with no code or a wrong one: sign-in's 401 for a wrong code (never a 400 that tells the password was right by its status).
      expect((await cancel({ password: PASSWORD }).expect(401)).body).toEqual(wrongCode);
      expect((await cancel({ password: PASSWORD, twoFactorCode: '000000' }).expect(401)).body).toEqual(wrongCode);
      expect((await cancel({ password: PASSWORD, twoFactorCode: 'aaaaa-bbbbb' }).expect(401)).body).toEqual(wrongCode);
      expect(await unusedCodes()).toBe(10);
      // The recovery code kept above cancels the deletion, and is spent by it.
      await cancel({ password: PASSWORD, twoFactorCode: recoveryCodes[0] }).expect(200);
      expect(await unusedCodes()).toBe(9);
      expect((await db.query('SELECT deletion_due_at FROM users WHERE id = $1', [user.id]))[0].deletion_due_at).toBeNull();
    });

    it('refuses the last active administrator (409), and lets an administrator go when another remains', async () => {
      const admin = await withPassword(await createAdmin(t));
      const others = (await db.query(
        `SELECT u.id FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id AND r.name = 'ADMIN' WHERE u.status = 'ACTIVE' AND u.id <> $1`,
        [admin.id],
      )) as { id: number }[];
      await db.query(`UPDATE users SET status = 'INACTIVE' WHERE id = ANY($1::int[])`, [others.map((o) => o.id)]);
      try {
        const refused = await t.http
          .post(api('/account/deletion'))
          .set(admin.auth)
          .send({ password: PASSWORD, confirmation: 'DELETE' })
          .expect(409);
        expect(refused.body).toEqual(
          err(409, 'The last active administrator cannot delete their account: make another administrator first.'),
        );
      } finally {
        await db.query(`UPDATE users SET status = 'ACTIVE' WHERE id = ANY($1::int[])`, [others.map((o) => o.id)]);
      }
      await t.http.post(api('/account/deletion')).set(admin.auth).send({ password: PASSWORD, confirmation: 'DELETE' }).expect(200);
    });
  });

  describe('the erasure', () => {
    it('gives comments to [deleted user] with the threads whole, removes likes and reports with every counter exact, reassigns published posts and removes the rest and the images', async () => {
      const admin = await createAdmin(t);
      const author = await withPassword(await createAuthor(t));
      const reader = await withPassword(await createReader(t));
      const other = await createReader(t);

      // The author: an avatar, a published post with an uploaded thumbnail, another published one, a draft.
      await t.http
        .post(api('/users/avatar'))
        .set(author.auth)
        .attach('file', await png(64, 64), { filename: 'a.png', contentType: 'image/png' })
        .expect(200);
      const thumb = await t.http
        .post('/images/thumbnail/upload')
        .set(author.auth)
        .attach('image', await png(800, 400), { filename: 't.png', contentType: 'image/png' })
        .expect(201);
      const unusedThumb = await t.http
        .post('/images/thumbnail/upload')
        .set(author.auth)
        .attach('image', await png(800, 400), { filename: 'u.png', contentType: 'image/png' })
        .expect(201);
      const withThumb = await post(admin, 'PUBLISHED');
      await db.query('UPDATE posts SET author_id = $1, thumbnail = $2 WHERE id = $3', [author.id, thumb.body.data.url, withThumb.id]);
      const plain = await post(admin, 'PUBLISHED');
      await db.query('UPDATE posts SET author_id = $1 WHERE id = $2', [author.id, plain.id]);
      const draft = await t.http
        .post(api('/blog/posts/author/create'))
        .set(author.auth)
        .send({ title: `Draft ${uid()}`, content: 'draft' })
        .expect(201);
      const avatarBefore = (await db.query('SELECT avatar FROM users WHERE id = $1', [author.id]))[0].avatar as string;

      // The reader: likes, comments in threads (one with a reply under it), a report; the others around them.
      const elsewhere = await post(admin);
      for (const target of [withThumb, plain, elsewhere]) await like(reader, target.id);
      await like(other, withThumb.id);
      await like(author, elsewhere.id);
      const top = await comment(reader, withThumb.id, 'A reader thought');
      const reply = await comment(other, withThumb.id, 'An answer', top.id);
      await comment(reader, withThumb.id, 'Replying back', reply.id);
      await comment(reader, elsewhere.id, 'Elsewhere too');
      const byAuthor = await comment(author, elsewhere.id, 'The author speaks');
      const othersComment = await comment(other, elsewhere.id, 'Something to report');
      await t.http
        .post(api(`/comments/${othersComment.id}/reports`))
        .set(reader.auth)
        .send({ reason: 'SPAM' })
        .expect(201);
      expect(await counterDrift()).toEqual([]);

      await t.http
        .put(api(`/newsletter/follows/author/${author.id}`))
        .set(reader.auth)
        .expect(200);
      await t.http.post(api('/account/deletion')).set(reader.auth).send({ password: PASSWORD, confirmation: 'DELETE' }).expect(200);
      await runDueErasure(reader.id);
      expect(await userExists(reader.id)).toBe(false);
      expect(await db.query('SELECT id FROM newsletter_subscribers WHERE user_id = $1 OR email = $2', [reader.id, reader.email])).toEqual(
        [],
      );
      expect(await counterDrift()).toEqual([]);
      const thread = await t.http.get(api(`/comments/post/${withThumb.id}`)).expect(200);
      const shown = JSON.stringify(thread.body.data);
      expect(shown).toContain('[deleted user]');
      expect(shown).toContain('A reader thought');
      expect(shown).toContain('An answer');
      expect(shown).not.toContain(reader.fullName);
      expect(
        (await db.query('SELECT count(*)::int AS n FROM likes WHERE post_id = ANY($1::int[])', [[withThumb.id, plain.id, elsewhere.id]]))[0]
          .n,
      ).toBe(2);
      expect((await db.query('SELECT report_count FROM comments WHERE id = $1', [othersComment.id]))[0].report_count).toBe(0);

      // The author, policy 'reassign' (the default): published posts to 'Former author', the draft gone, the unused thumbnail and the avatar gone.
      await t.http.post(api('/account/deletion')).set(author.auth).send({ password: PASSWORD, confirmation: 'DELETE' }).expect(200);
      await runDueErasure(author.id);
      expect(await userExists(author.id)).toBe(false);
      expect(await counterDrift()).toEqual([]);
      const kept = (await db.query(
        `SELECT p.id, u.full_name, u.placeholder FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id = ANY($1::int[]) ORDER BY p.id`,
        [[withThumb.id, plain.id]],
      )) as {
        full_name: string;
        placeholder: string;
      }[];
      expect(kept.map((row) => [row.full_name, row.placeholder])).toEqual([
        ['Former author', 'former-author'],
        ['Former author', 'former-author'],
      ]);
      expect((await t.http.get(api(`/blog/posts/public/${plain.slug}`)).expect(200)).body.data.authorName).toBe('Former author');
      expect(await db.query('SELECT 1 FROM posts WHERE id = $1', [draft.body.data.id])).toEqual([]);
      expect(JSON.stringify((await t.http.get(api(`/comments/post/${elsewhere.id}`)).expect(200)).body.data)).not.toContain(
        author.fullName,
      );
      expect((await db.query('SELECT user_id FROM comments WHERE id = $1', [byAuthor.id]))[0].user_id).not.toBe(author.id);
      const uploads = join(t.dataDir, 'uploads');
      expect(existsSync(join(uploads, 'thumbnails', thumb.body.data.filename))).toBe(true);
      expect(existsSync(join(uploads, 'thumbnails', unusedThumb.body.data.filename))).toBe(false);
      expect(existsSync(join(uploads, 'avatars', avatarBefore.split('/').pop()!))).toBe(false);
      const placeholderLogin = await login('former-author@placeholder.invalid', '!');
      expect([400, 401, 403]).toContain(placeholderLogin.status);

      // The audit log keeps that it happened, by id, without the person.
      for (const person of [reader, author]) {
        const audit = await auditAbout(person.id);
        expect(audit.map((row) => row.type)).toEqual(expect.arrayContaining(['USER_DELETION_SCHEDULED', 'USER_DELETED']));
        for (const row of audit)
          expect(`${row.title} ${row.description} ${row.details}`).not.toMatch(new RegExp(`${person.email}|${person.fullName}`, 'i'));
      }
      const stored = (await db.query(`SELECT data::text AS data FROM domain_events WHERE subject_type = 'user' AND subject_id = $1`, [
        reader.id,
      ])) as { data: string }[];
      for (const row of stored) expect(row.data).not.toContain(reader.email);
    }, 60_000);

    it("deletes an erased author's published posts when the site setting says so, their likes leaving every reader's count", async () => {
      const admin = await createAdmin(t);
      await t.http.patch(api('/admin/settings')).set(admin.auth).send({ erasedAuthorPosts: 'delete' }).expect(200);
      try {
        const author = await withPassword(await createAuthor(t));
        const fan = await createReader(t);
        const published = await post(admin);
        await db.query('UPDATE posts SET author_id = $1 WHERE id = $2', [author.id, published.id]);
        await like(fan, published.id);
        await comment(fan, published.id, 'Nice one');
        expect((await db.query('SELECT published_likes FROM reader_like_counts WHERE user_id = $1', [fan.id]))[0].published_likes).toBe(1);

        await t.http.post(api('/account/deletion')).set(author.auth).send({ password: PASSWORD, confirmation: 'DELETE' }).expect(200);
        await runDueErasure(author.id);
        expect(await db.query('SELECT 1 FROM posts WHERE id = $1', [published.id])).toEqual([]);
        expect((await db.query('SELECT published_likes FROM reader_like_counts WHERE user_id = $1', [fan.id]))[0].published_likes).toBe(0);
        expect(await counterDrift()).toEqual([]);
        const audit = (await db.query(`SELECT details FROM audit_log WHERE type = 'USER_DELETED' AND target_id = $1`, [author.id])) as {
          details: Record<string, unknown>;
        }[];
        expect(audit[0].details).toMatchObject({ via: 'self', postsReassigned: 0, postsDeleted: 1 });
      } finally {
        await t.http.patch(api('/admin/settings')).set(admin.auth).send({ erasedAuthorPosts: 'reassign' }).expect(200);
      }
    }, 30_000);

    it('admin deletion: disabled at once and erased by the queue without a grace period; not oneself, admins only', async () => {
      const admin = await createAdmin(t);
      const author = await createAuthor(t);
      const target = await createUser(t, [RoleName.USER]);
      await t.http.delete(api(`/admin/users/${target.id}`)).expect(401);
      await t.http
        .delete(api(`/admin/users/${target.id}`))
        .set(author.auth)
        .expect(403);
      await t.http.delete(api('/admin/users/2147483000')).set(admin.auth).expect(404);
      await t.http.delete(api('/admin/users/abc')).set(admin.auth).expect(400);
      expect(
        (
          await t.http
            .delete(api(`/admin/users/${admin.id}`))
            .set(admin.auth)
            .expect(409)
        ).body.message,
      ).toBe('Use Delete my account on your account page to delete your own account.');

      const res = await t.http
        .delete(api(`/admin/users/${target.id}`))
        .set(admin.auth)
        .expect(202);
      expect(res.body).toMatchObject({
        success: true,
        status: 202,
        data: { deletionScheduledFor: ISO },
        message: 'User deleted: the account is disabled and its data is being erased.',
      });
      await t.http
        .get(api('/users/profile'))
        .set(target.auth)
        .expect((r) => expect([401, 404]).toContain(r.status));
      await waitForJobs('account-erasure');
      expect(await userExists(target.id)).toBe(false);
      const audit = await auditAbout(target.id);
      expect(audit.map((row) => row.type)).toEqual(['USER_DELETION_SCHEDULED', 'USER_DELETED']);
      expect(audit[1].details).toContain('"via": "admin"');
      for (const row of audit)
        expect(`${row.description} ${row.details}`).not.toMatch(new RegExp(`${target.email}|${target.fullName}`, 'i'));
      const actor = (
        await db.query(`SELECT actor_id FROM audit_log WHERE type = 'USER_DELETION_SCHEDULED' AND target_id = $1`, [target.id])
      )[0].actor_id;
      expect(actor).toBe(admin.id);
    }, 30_000);
  });

  describe('Download my data', () => {
    async function entriesOf(zip: Buffer): Promise<Map<string, Buffer>> {
      const file = await new Promise<ZipFile>((resolve, reject) =>
        zipFromBuffer(zip, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
      );
      const entries = new Map<string, Buffer>();
      await new Promise<void>((resolve, reject) => {
        file.on('entry', (entry: Entry) => {
          file.openReadStream(entry, (error, stream) => {
            if (error) return reject(error);
            const chunks: Buffer[] = [];
            stream.on('data', (chunk: Buffer) => chunks.push(chunk));
            stream.on('end', () => {
              entries.set(entry.fileName, Buffer.concat(chunks));
              file.readEntry();
            });
          });
        });
        file.on('end', resolve);
        file.on('error', reject);
        file.readEntry();
      });
      return entries;
    }
    const binary = (res: NodeJS.ReadableStream, callback: (error: Error | null, body: Buffer) => void) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => callback(null, Buffer.concat(chunks)));
    };

    it('builds the zip as a job with progress, mails the link, serves it to its owner only, and expires it after 24 h', async () => {
      const admin = await createAdmin(t);
      const author = await createAuthor(t);
      const stranger = await createReader(t);
      await t.http
        .post(api('/users/avatar'))
        .set(author.auth)
        .attach('file', await png(64, 64), { filename: 'a.png', contentType: 'image/png' })
        .expect(200);
      const thumb = await t.http
        .post('/images/thumbnail/upload')
        .set(author.auth)
        .attach('image', await png(800, 400), { filename: 't.png', contentType: 'image/png' })
        .expect(201);
      const own = await post(admin, 'PUBLISHED');
      await db.query('UPDATE posts SET author_id = $1, thumbnail = $2 WHERE id = $3', [author.id, thumb.body.data.url, own.id]);
      const draft = await t.http
        .post(api('/blog/posts/author/create'))
        .set(author.auth)
        .send({ title: 'Mine, unpublished', content: 'Draft body with *Markdown*' })
        .expect(201);
      const liked = await post(admin);
      await like(author, liked.id);
      await comment(author, liked.id, 'My comment, exported');
      await t.http.put(api('/newsletter/follows/publication/0')).set(author.auth).expect(200);

      await t.http.get(api('/account/export')).set(author.auth).expect(404);
      await t.http.post(api('/account/export')).expect(401);
      const since = mail.messages.length;
      const started = await t.http.post(api('/account/export')).set(author.auth).expect(202);
      expect(started.body.data).toMatchObject({ status: 'QUEUED', progress: 0, downloadUrl: null });

      let status = started.body.data as { status: string; progress: number; downloadUrl: string | null; expiresAt: string | null };
      for (let i = 0; i < 100 && status.status !== 'READY'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await t.http.get(api('/account/export')).set(author.auth).expect(200)).body.data;
        expect(status.status).not.toBe('FAILED');
      }
      expect(status).toMatchObject({
        status: 'READY',
        progress: 100,
        downloadUrl: expect.stringMatching(/^\/api\/v1\/account\/export\/download\/[A-Za-z0-9_-]{43}$/),
      });
      expect(new Date(status.expiresAt!).getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
      const letter = await mail.waitFor(author.email, { since });
      expect(letter.subject).toBe('Your Inkwell data is ready to download');
      expect(letter.text).toContain(`http://localhost:3000${status.downloadUrl}`);

      const download = await t.http
        .get(status.downloadUrl!)
        .set(author.auth)
        .buffer(true)
        .parse(binary as never)
        .expect(200);
      expect(download.headers['content-type']).toBe('application/zip');
      expect(download.headers['content-disposition']).toMatch(/^attachment; filename="inkwell-data-\d{4}-\d\d-\d\d\.zip"$/);
      const entries = await entriesOf(download.body as Buffer);
      const names = [...entries.keys()];
      expect(names).toEqual(
        expect.arrayContaining([
          'profile.json',
          'likes.json',
          'comments.json',
          'notifications.json',
          'sessions.json',
          'newsletter.json',
          `posts/${own.id}-${own.slug}.md`,
        ]),
      );
      expect(JSON.parse(entries.get('profile.json')!.toString())).toMatchObject({
        id: author.id,
        email: author.email,
        fullName: author.fullName,
        roles: ['AUTHOR'],
      });
      expect(JSON.parse(entries.get('likes.json')!.toString())).toEqual([
        expect.objectContaining({ postId: liked.id, postSlug: liked.slug }),
      ]);
      expect(JSON.parse(entries.get('comments.json')!.toString())).toEqual([
        expect.objectContaining({ postId: liked.id, content: 'My comment, exported', deleted: false }),
      ]);
      expect(Array.isArray(JSON.parse(entries.get('notifications.json')!.toString()))).toBe(true);
      expect(JSON.parse(entries.get('sessions.json')!.toString())).toEqual([expect.objectContaining({ live: true, createdAt: ISO })]);
      expect(JSON.parse(entries.get('newsletter.json')!.toString())).toMatchObject({
        subscriber: { email: author.email, status: 'active', source: 'account' },
        follows: [{ kind: 'publication', targetId: 0 }],
        deliveries: [],
      });
      const draftFile = names.find((name) => name.startsWith(`posts/${draft.body.data.id}-`))!;
      expect(entries.get(draftFile)!.toString()).toMatch(
        /^---\ntitle: Mine, unpublished\n[\s\S]*status: DRAFT\n[\s\S]*---\n\nDraft body with \*Markdown\*\n$/,
      );
      expect(names).toContain(`images/thumbnails/${thumb.body.data.filename}`);
      expect(names.some((name) => name.startsWith('images/avatar/'))).toBe(true);

      // Someone else's session with the link, or a made-up link: 404 with the same words.
      const refused = await t.http.get(status.downloadUrl!).set(stranger.auth).expect(404);
      expect(refused.body).toEqual(err(404, 'This download link is not valid or has expired. Ask for a new export on your account page.'));
      await t.http
        .get(api(`/account/export/download/${'x'.repeat(43)}`))
        .set(author.auth)
        .expect(404);
      await t.http.get(status.downloadUrl!).expect(401);

      // After 24 h: the link is refused at once, and the expiry job removes the archive.
      const [{ file_name: fileName }] = (await db.query('SELECT file_name FROM account_exports WHERE user_id = $1', [author.id])) as {
        file_name: string;
      }[];
      expect(existsSync(join(t.dataDir, 'exports', fileName))).toBe(true);
      await db.query(`UPDATE account_exports SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [author.id]);
      await t.http.get(status.downloadUrl!).set(author.auth).expect(404);
      expect((await t.http.get(api('/account/export')).set(author.auth).expect(200)).body.data).toMatchObject({
        status: 'EXPIRED',
        downloadUrl: null,
      });
      await db.query(`UPDATE pgboss.job SET start_after = now() WHERE name = 'account-export-expiry' AND state = 'created'`);
      await waitForJobs('account-export-expiry');
      expect(existsSync(join(t.dataDir, 'exports', fileName))).toBe(false);
      expect((await db.query('SELECT status, token, file_name FROM account_exports WHERE user_id = $1', [author.id]))[0]).toEqual({
        status: 'EXPIRED',
        token: null,
        file_name: null,
      });
    }, 30_000);
  });
});
