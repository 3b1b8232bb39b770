import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, tooMany, uid } from './helpers/envelope';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

/** Comment moderation: reports, hiding, the queue, author hiding, muting, held comments, exact counts, audit entries. */
jest.setTimeout(120_000);

const HIDDEN = '[This comment has been hidden by a moderator]';

describe('Moderation', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  let reader: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    // The holding rules on (the test helper turns them off for other suites); a small report limit.
    t = await createTestApp({
      env: { HOLD_NEW_ACCOUNT_HOURS: '24', HOLD_DUPLICATE_MINUTES: '10', HOLD_MAX_LINKS: '2', REPORT_LIMIT_PER_DAY: '5' },
    });
    db = t.app.get(DataSource);
    [admin, author, otherAuthor, reader, other] = await Promise.all([
      createAdmin(t),
      createAuthor(t),
      createAuthor(t),
      createReader(t),
      createReader(t),
    ]);
    // Old accounts, so that a link alone does not hold their comments.
    await db.query(`UPDATE users SET created_at = now() - interval '30 days' WHERE id = ANY($1::int[])`, [
      [admin.id, author.id, otherAuthor.id, reader.id, other.id],
    ]);
  });
  afterAll(() => t.close());

  async function publishedPost(by: TestUser = author): Promise<{ id: number; slug: string }> {
    const res = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Moderated ${uid()}`, content: 'Body', status: 'PUBLISHED' })
      .expect(201);
    await db.query('UPDATE posts SET author_id = $2 WHERE id = $1', [res.body.data.id, by.id]);
    return { id: res.body.data.id, slug: res.body.data.slug };
  }

  async function comment(user: TestUser, postId: number, content: string, parentId?: number): Promise<Record<string, any>> {
    const res = await t.http.post(api('/comments')).set(user.auth).send({ postId, content, parentId });
    if (res.status !== 201) throw new Error(`comment failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  const commentCount = async (postId: number) =>
    ((await db.query('SELECT comment_count FROM posts WHERE id = $1', [postId])) as { comment_count: number }[])[0].comment_count;
  const visibleCount = async (postId: number) =>
    (
      (await db.query(`SELECT count(*)::int AS n FROM comments WHERE post_id = $1 AND deleted_at IS NULL AND moderation = 'VISIBLE'`, [
        postId,
      ])) as { n: number }[]
    )[0].n;
  const thread = async (postId: number, user?: TestUser) => {
    const call = t.http.get(api(`/blog/posts/${postId}/comments?size=50`));
    return (await (user ? call.set(user.auth) : call).expect(200)).body.data as { content: Record<string, any>[]; totalElements: number };
  };
  const auditOf = async (type: string, targetId: number) =>
    (await db.query('SELECT type, actor_id, target_type, details FROM audit_log WHERE type = $1 AND target_id = $2 ORDER BY id', [
      type,
      targetId,
    ])) as {
      type: string;
      actor_id: number;
      target_type: string;
      details: Record<string, unknown>;
    }[];

  const notified = async (userId: number, type: string, commentId: number) =>
    (
      (await db.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND type = $2 AND comment_id = $3', [
        userId,
        type,
        commentId,
      ])) as { n: number }[]
    )[0].n;

  describe('reports', () => {
    it('a reader reports once (201, then 409); not their own comment (403); OTHER needs details; bad reasons are 400', async () => {
      const post = await publishedPost();
      const target = await comment(other, post.id, 'Buy cheap things now');
      const res = await t.http
        .post(api(`/comments/${target.id}/reports`))
        .set(reader.auth)
        .send({ reason: 'SPAM' })
        .expect(201);
      expect(res.body.data).toEqual({ commentId: target.id, reason: 'SPAM', createdAt: expect.any(String) });
      expect(
        (
          await t.http
            .post(api(`/comments/${target.id}/reports`))
            .set(reader.auth)
            .send({ reason: 'HARASSMENT' })
            .expect(409)
        ).body,
      ).toEqual(err(409, 'You have already reported this comment.'));
      expect(
        (
          await t.http
            .post(api(`/comments/${target.id}/reports`))
            .set(other.auth)
            .send({ reason: 'SPAM' })
            .expect(403)
        ).body,
      ).toEqual(err(403, 'You cannot report your own comment.'));
      const other400 = await t.http
        .post(api(`/comments/${target.id}/reports`))
        .set(author.auth)
        .send({ reason: 'OTHER' })
        .expect(400);
      expect(other400.body.errors).toEqual({ details: ['Please tell us what is wrong with this comment.'] });
      const bad = await t.http
        .post(api(`/comments/${target.id}/reports`))
        .set(author.auth)
        .send({ reason: 'RUDE' })
        .expect(400);
      expect(bad.body.errors.reason).toEqual(['reason must be one of SPAM, HARASSMENT, OFF_TOPIC, OTHER']);
      const long = await t.http
        .post(api(`/comments/${target.id}/reports`))
        .set(author.auth)
        .send({ reason: 'OTHER', details: 'x'.repeat(501) })
        .expect(400);
      expect(long.body.errors.details).toEqual(['details must be at most 500 characters']);
      await t.http
        .post(api(`/comments/${target.id}/reports`))
        .set(author.auth)
        .send({ reason: 'OTHER', details: 'Off the rails' })
        .expect(201);
      // The admins are told, once per report.
      expect(await notified(admin.id, 'COMMENT_REPORTED', target.id)).toBe(2);
      expect((await t.http.post(api('/comments/2000000000/reports')).set(reader.auth).send({ reason: 'SPAM' }).expect(404)).body).toEqual(
        err(404, 'Comment not found.'),
      );
      expect(
        ((await db.query('SELECT report_count FROM comments WHERE id = $1', [target.id])) as { report_count: number }[])[0].report_count,
      ).toBe(2);
      // canReport follows: false once reported, false on one's own comment.
      const seen = (await thread(post.id, reader)).content.find((c) => c.id === target.id)!;
      expect(seen.canReport).toBe(false);
      expect((await thread(post.id, admin)).content.find((c) => c.id === target.id)!.canReport).toBe(true);
      expect((await thread(post.id, other)).content.find((c) => c.id === target.id)!.canReport).toBe(false);
      expect((await thread(post.id)).content.find((c) => c.id === target.id)!.canReport).toBe(false);
    });

    it('the per-reader daily limit: 429 past REPORT_LIMIT_PER_DAY (5 here), nothing written', async () => {
      const post = await publishedPost();
      const reporter = await createReader(t);
      const ids: number[] = [];
      for (let i = 0; i < 6; i += 1) ids.push((await comment(other, post.id, `Limit target ${i}`)).id);
      const results = await Promise.all(
        ids.map((id) =>
          t.http
            .post(api(`/comments/${id}/reports`))
            .set(reporter.auth)
            .send({ reason: 'OFF_TOPIC' }),
        ),
      );
      expect(results.map((res) => res.status).sort()).toEqual([201, 201, 201, 201, 201, 429]);
      const limited = results.find((res) => res.status === 429)!;
      expect(limited.body).toEqual(
        tooMany('You can report at most 5 comments a day. Please try again later.', limited.headers['retry-after']),
      );
      // The wait is until the oldest of the five is a day old.
      expect(limited.body.retryAfterSeconds).toBeGreaterThan(24 * 60 * 60 - 120);
      expect(limited.body.retryAfterSeconds).toBeLessThanOrEqual(24 * 60 * 60);
      expect(
        ((await db.query('SELECT count(*)::int AS n FROM comment_reports WHERE reporter_id = $1', [reporter.id])) as { n: number }[])[0].n,
      ).toBe(5);
    });
  });

  describe('hiding and restoring', () => {
    it('a hidden comment keeps its place and replies, shows the placeholder to everyone, leaves the counts; restore brings it back; both audit-logged', async () => {
      const post = await publishedPost();
      const parent = await comment(reader, post.id, 'Rude words here');
      const reply = await comment(other, post.id, 'A calm reply', parent.id);
      expect(await commentCount(post.id)).toBe(2);

      const hidden = await t.http
        .post(api(`/comments/${parent.id}/hide`))
        .set(admin.auth)
        .send({ reason: 'Insults' })
        .expect(200);
      expect(hidden.body.data).toEqual({ id: parent.id, moderation: 'HIDDEN', hiddenReason: 'Insults', reportCount: 0 });
      expect(await notified(reader.id, 'COMMENT_HIDDEN', parent.id)).toBe(1);
      expect(await commentCount(post.id)).toBe(1);
      for (const viewer of [undefined, reader, other, admin]) {
        const page = await thread(post.id, viewer);
        expect(page.content.map((c) => c.id)).toEqual([parent.id]);
        expect(page.content[0]).toMatchObject({ content: HIDDEN, moderation: 'HIDDEN', canHide: false, canReport: false });
        expect(page.content[0].replies.map((c: Record<string, any>) => [c.id, c.content])).toEqual([[reply.id, 'A calm reply']]);
      }
      expect(JSON.stringify((await t.http.get(api(`/comments/${parent.id}/replies`)).expect(200)).body)).not.toContain('Rude words');
      expect(JSON.stringify((await t.http.get(api(`/comments/by-user/${reader.id}`)).expect(200)).body)).not.toContain('Rude words');
      expect(JSON.stringify((await t.http.get(api('/comments/search?keyword=rude')).expect(200)).body)).not.toContain('Rude words');
      expect(JSON.stringify((await t.http.get(api('/comments/my-comments')).set(reader.auth).expect(200)).body)).not.toContain(
        'Rude words',
      );
      expect((await t.http.get(api(`/comments/stats/post/${post.id}`)).expect(200)).body.data.totalComments).toBe(1);
      // Editing a hidden comment would bring the text back: refused.
      await t.http
        .put(api(`/comments/${parent.id}`))
        .set(reader.auth)
        .send({ content: 'Sneaky' })
        .expect(403);
      await t.http
        .post(api(`/comments/${parent.id}/hide`))
        .set(admin.auth)
        .send({ reason: 'Again' })
        .expect(409);
      expect(
        (
          await t.http
            .post(api(`/comments/${parent.id}/hide`))
            .set(admin.auth)
            .send({ reason: '  ' })
            .expect(400)
        ).body.errors,
      ).toEqual({
        reason: ['Please give a reason for hiding this comment.'],
      });

      const restored = await t.http
        .post(api(`/admin/comments/${parent.id}/restore`))
        .set(admin.auth)
        .expect(200);
      expect(restored.body.data.moderation).toBe('VISIBLE');
      expect(await commentCount(post.id)).toBe(2);
      expect((await thread(post.id)).content[0]).toMatchObject({ content: 'Rude words here', moderation: 'VISIBLE' });
      await t.http
        .post(api(`/admin/comments/${parent.id}/restore`))
        .set(admin.auth)
        .expect(409);

      expect(await auditOf('COMMENT_HIDDEN', parent.id)).toEqual([
        {
          type: 'COMMENT_HIDDEN',
          actor_id: admin.id,
          target_type: 'comment',
          details: expect.objectContaining({ reason: 'Insults', by: 'ADMIN' }),
        },
      ]);
      expect(await auditOf('COMMENT_RESTORED', parent.id)).toHaveLength(1);
      // On the admin dashboard's activity, as the nearest of the spec's six types.
      const activity = (await t.http.get(api('/dashboard/admin/stats')).set(admin.auth).expect(200)).body.data;
      const entries = JSON.stringify(activity);
      expect(entries).toContain('Comment hidden');
      expect(entries).toContain('Comment restored');
    });

    it("authors hide comments on their own posts (not others'); the admin sees who hid it in the queue and undoes it", async () => {
      const post = await publishedPost(author);
      const foreign = await publishedPost(otherAuthor);
      const target = await comment(reader, post.id, 'Off topic rant');
      const elsewhere = await comment(reader, foreign.id, 'Elsewhere');
      expect((await thread(post.id, author)).content[0].canHide).toBe(true);
      expect((await thread(foreign.id, author)).content[0].canHide).toBe(false);
      expect((await thread(post.id, reader)).content[0].canHide).toBe(false);
      expect(
        (
          await t.http
            .post(api(`/comments/${elsewhere.id}/hide`))
            .set(author.auth)
            .send({ reason: 'Mine?' })
            .expect(403)
        ).body,
      ).toEqual(err(403, 'You do not have permission to hide this comment.'));
      await t.http
        .post(api(`/comments/${target.id}/hide`))
        .set(reader.auth)
        .send({ reason: 'Self' })
        .expect(403);
      await t.http
        .post(api(`/comments/${target.id}/hide`))
        .set(author.auth)
        .send({ reason: 'Off topic' })
        .expect(200);
      // Authors hide, they do not delete or restore.
      await t.http
        .post(api(`/admin/comments/${target.id}/restore`))
        .set(author.auth)
        .expect(403);
      await t.http
        .delete(api(`/admin/comments/${target.id}`))
        .set(author.auth)
        .expect(403);

      const queue = (
        await t.http
          .get(api(`/admin/comments?filter=hidden&search=${encodeURIComponent('Off topic rant')}`))
          .set(admin.auth)
          .expect(200)
      ).body.data;
      expect(queue.content).toEqual([
        expect.objectContaining({
          id: target.id,
          content: 'Off topic rant',
          moderation: 'HIDDEN',
          hiddenReason: 'Off topic',
          hiddenBy: { id: author.id, fullName: author.fullName },
          post: { id: post.id, slug: post.slug, title: expect.any(String) },
          author: { id: reader.id, fullName: reader.fullName, email: reader.email },
        }),
      ]);
      expect((await auditOf('COMMENT_HIDDEN', target.id))[0].details).toMatchObject({ by: 'POST_AUTHOR' });
      await t.http
        .post(api(`/admin/comments/${target.id}/restore`))
        .set(admin.auth)
        .expect(200);
      expect((await thread(post.id)).content[0].content).toBe('Off topic rant');
    });
  });

  describe('the queue', () => {
    it('filters reported/hidden/held/all, searches text and author, sorts newest or most reported, pages; rows carry post, parent and reports', async () => {
      const post = await publishedPost();
      const tag = uid();
      const root = await comment(reader, post.id, `Queue root ${tag}`);
      const child = await comment(other, post.id, `Queue child ${tag}`, root.id);
      const third = await comment(other, post.id, `Queue third ${tag}`);
      const reporters = await Promise.all([createReader(t), createReader(t), createReader(t)]);
      for (const r of reporters)
        await t.http
          .post(api(`/comments/${child.id}/reports`))
          .set(r.auth)
          .send({ reason: 'HARASSMENT' })
          .expect(201);
      await t.http
        .post(api(`/comments/${root.id}/reports`))
        .set(reporters[0].auth)
        .send({ reason: 'OTHER', details: 'Odd' })
        .expect(201);

      const reported = (
        await t.http
          .get(api(`/admin/comments?filter=reported&sort=reports&search=${tag}`))
          .set(admin.auth)
          .expect(200)
      ).body.data;
      expect(reported.content.map((c: Record<string, any>) => [c.id, c.reportCount])).toEqual([
        [child.id, 3],
        [root.id, 1],
      ]);
      expect(reported.totalElements).toBe(2);
      expect(reported.content[0].parent).toEqual({
        id: root.id,
        content: `Queue root ${tag}`,
        author: { id: reader.id, fullName: reader.fullName },
      });
      expect(reported.content[0].reports).toHaveLength(3);
      expect(reported.content[0].reports[0]).toEqual({
        reason: 'HARASSMENT',
        details: null,
        reporter: { id: expect.any(Number), fullName: expect.any(String) },
        createdAt: expect.any(String),
      });
      expect(reported.content[1].reports).toEqual([expect.objectContaining({ reason: 'OTHER', details: 'Odd' })]);

      const newest = (
        await t.http
          .get(api(`/admin/comments?filter=all&sort=newest&search=${tag}`))
          .set(admin.auth)
          .expect(200)
      ).body.data;
      expect(newest.content.map((c: Record<string, any>) => c.id)).toEqual([third.id, child.id, root.id]);
      const paged = (
        await t.http
          .get(api(`/admin/comments?filter=all&search=${tag}&page=1&size=2`))
          .set(admin.auth)
          .expect(200)
      ).body.data;
      expect(paged.content.map((c: Record<string, any>) => c.id)).toEqual([root.id]);
      expect(paged.totalElements).toBe(3);
      // Search by author: the reader's name finds the root only.
      const byAuthor = (
        await t.http
          .get(api(`/admin/comments?filter=all&search=${encodeURIComponent(reader.email)}`))
          .set(admin.auth)
          .expect(200)
      ).body.data;
      expect(byAuthor.content.map((c: Record<string, any>) => c.id)).toContain(root.id);
      expect(byAuthor.content.map((c: Record<string, any>) => c.id)).not.toContain(child.id);

      // Dismiss: the reports leave the queue's reported filter, the reporters cannot report again.
      await t.http
        .post(api(`/admin/comments/${child.id}/dismiss-reports`))
        .set(admin.auth)
        .expect(200);
      await t.http
        .post(api(`/admin/comments/${child.id}/dismiss-reports`))
        .set(admin.auth)
        .expect(409);
      const after = (
        await t.http
          .get(api(`/admin/comments?filter=reported&search=${tag}`))
          .set(admin.auth)
          .expect(200)
      ).body.data;
      expect(after.content.map((c: Record<string, any>) => c.id)).toEqual([root.id]);
      await t.http
        .post(api(`/comments/${child.id}/reports`))
        .set(reporters[1].auth)
        .send({ reason: 'SPAM' })
        .expect(409);
      expect(await auditOf('COMMENT_REPORTS_DISMISSED', child.id)).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ dismissed: 3 }) }),
      ]);

      for (const query of ['filter=bad', 'sort=oldest', `search=${'x'.repeat(101)}`, 'page=-1']) {
        const res = await t.http
          .get(api(`/admin/comments?${query}`))
          .set(admin.auth)
          .expect(400);
        expect(res.body.success).toBe(false);
      }
    });

    it('delete and bulk: per-id results, audit entries, counts exact', async () => {
      const post = await publishedPost();
      const a = await comment(reader, post.id, 'Bulk a');
      const b = await comment(reader, post.id, 'Bulk b');
      const c = await comment(reader, post.id, 'Bulk c');
      expect(await commentCount(post.id)).toBe(3);
      const hide = await t.http
        .post(api('/admin/comments/bulk'))
        .set(admin.auth)
        .send({ ids: [a.id, b.id, 2000000000], action: 'hide', reason: 'Spam run' })
        .expect(200);
      expect(hide.body.data).toEqual([
        { id: a.id, status: 200, ok: true, message: 'Comment has been hidden.' },
        { id: b.id, status: 200, ok: true, message: 'Comment has been hidden.' },
        { id: 2000000000, status: 404, ok: false, message: 'Comment not found.' },
      ]);
      expect(await commentCount(post.id)).toBe(1);
      const restore = await t.http
        .post(api('/admin/comments/bulk'))
        .set(admin.auth)
        .send({ ids: [a.id, c.id], action: 'restore' })
        .expect(200);
      expect(restore.body.data.map((r: Record<string, any>) => [r.id, r.status])).toEqual([
        [a.id, 200],
        [c.id, 409],
      ]);
      expect(await commentCount(post.id)).toBe(2);
      await t.http
        .post(api('/admin/comments/bulk'))
        .set(admin.auth)
        .send({ ids: [a.id, b.id], action: 'delete' })
        .expect(200);
      // b was hidden (not counted): deleting it leaves the count alone.
      expect(await commentCount(post.id)).toBe(1);
      expect(await visibleCount(post.id)).toBe(1);
      expect(await auditOf('COMMENT_DELETED', b.id)).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ content: 'Bulk b', moderation: 'HIDDEN' }) }),
      ]);
      await t.http
        .delete(api(`/admin/comments/${c.id}`))
        .set(admin.auth)
        .expect(204);
      expect(await commentCount(post.id)).toBe(0);
      await t.http
        .post(api('/admin/comments/bulk'))
        .set(admin.auth)
        .send({ ids: [a.id], action: 'hide' })
        .expect(400);
      await t.http.post(api('/admin/comments/bulk')).set(admin.auth).send({ ids: [], action: 'restore' }).expect(400);
      await t.http
        .post(api('/admin/comments/bulk'))
        .set(admin.auth)
        .send({ ids: [1], action: 'nuke' })
        .expect(400);
    });
  });

  describe('muting', () => {
    it('for a period: 403 naming the end (site time zone) and the reason on create, reply and edit; lifted by DELETE; audit and status', async () => {
      const post = await publishedPost();
      const user = await createReader(t);
      await db.query(`UPDATE users SET created_at = now() - interval '30 days' WHERE id = $1`, [user.id]);
      const mine = await comment(user, post.id, 'Before the mute');
      const until = new Date(Date.now() + 3 * 86_400_000);
      until.setUTCHours(8, 30, 0, 0);
      const muted = await t.http
        .post(api(`/admin/users/${user.id}/mute`))
        .set(admin.auth)
        .send({ until: until.toISOString(), reason: 'Cooling off' })
        .expect(200);
      expect(muted.body.data).toEqual({ userId: user.id, mutedUntil: until.toISOString(), mutedForever: false, muteReason: 'Cooling off' });
      const expected = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Ho_Chi_Minh' })
        .format(until)
        .replace(/[\u202f\u00a0]/g, ' ');
      const message = `You cannot comment until ${expected} GMT+7. Reason: Cooling off`;
      expect((await t.http.post(api('/comments')).set(user.auth).send({ postId: post.id, content: 'Muted?' }).expect(403)).body).toEqual(
        err(403, message),
      );
      expect(
        (
          await t.http
            .post(api(`/blog/posts/${post.id}/comments`))
            .set(user.auth)
            .send({ content: 'Reply?', parentId: mine.id })
            .expect(403)
        ).body.message,
      ).toBe(message);
      expect(
        (
          await t.http
            .put(api(`/comments/${mine.id}`))
            .set(user.auth)
            .send({ content: 'Edit?' })
            .expect(403)
        ).body.message,
      ).toBe(message);
      expect((await auditOf('USER_MUTED', user.id))[0].details).toMatchObject({ forever: false, reason: 'Cooling off' });
      // The admin's user page and the user's own profile say so.
      expect(
        (
          await t.http
            .get(api(`/admin/users/${user.id}`))
            .set(admin.auth)
            .expect(200)
        ).body.data,
      ).toMatchObject({
        mutedUntil: until.toISOString(),
        mutedForever: false,
        muteReason: 'Cooling off',
      });
      expect((await t.http.get(api('/users/profile')).set(user.auth).expect(200)).body.data).toMatchObject({
        commentingMutedUntil: until.toISOString(),
        commentingMutedForever: false,
        commentingMutedReason: 'Cooling off',
      });

      const lifted = await t.http
        .delete(api(`/admin/users/${user.id}/mute`))
        .set(admin.auth)
        .expect(200);
      expect(lifted.body.data).toEqual({ userId: user.id, mutedUntil: null, mutedForever: false, muteReason: null });
      await t.http
        .delete(api(`/admin/users/${user.id}/mute`))
        .set(admin.auth)
        .expect(409);
      await comment(user, post.id, 'After the mute');
      expect(await auditOf('USER_UNMUTED', user.id)).toHaveLength(1);
    });

    it('for good, and a mute that has ended lets the user comment again by itself; bad input is 400/404/403', async () => {
      const post = await publishedPost();
      const user = await createReader(t);
      await t.http
        .post(api(`/admin/users/${user.id}/mute`))
        .set(admin.auth)
        .send({ until: null, reason: 'Repeated abuse' })
        .expect(200);
      expect(
        (await t.http.post(api('/comments')).set(user.auth).send({ postId: post.id, content: 'Hello' }).expect(403)).body.message,
      ).toBe('You can no longer comment on this site. Reason: Repeated abuse');
      expect(
        (
          await t.http
            .get(api(`/admin/users/${user.id}`))
            .set(admin.auth)
            .expect(200)
        ).body.data,
      ).toMatchObject({ mutedUntil: null, mutedForever: true, muteReason: 'Repeated abuse' });
      // The mute ends: the row says so, nothing else changes.
      await db.query(`UPDATE user_mutes SET muted_until = now() - interval '1 second' WHERE user_id = $1`, [user.id]);
      await comment(user, post.id, 'Free again');
      expect((await t.http.get(api('/users/profile')).set(user.auth).expect(200)).body.data).toMatchObject({
        commentingMutedUntil: null,
        commentingMutedForever: false,
        commentingMutedReason: null,
      });
      await t.http
        .delete(api(`/admin/users/${user.id}/mute`))
        .set(admin.auth)
        .expect(409);

      const past = await t.http
        .post(api(`/admin/users/${user.id}/mute`))
        .set(admin.auth)
        .send({ until: '2020-01-01T00:00:00Z', reason: 'x' })
        .expect(400);
      expect(past.body.errors.until).toEqual(['until must be an ISO date-time in the future (or null to mute for good)']);
      const missing = await t.http
        .post(api(`/admin/users/${user.id}/mute`))
        .set(admin.auth)
        .send({ reason: 'x' })
        .expect(400);
      expect(missing.body.errors.until).toEqual(['until is required: an ISO date-time, or null to mute for good']);
      await t.http
        .post(api(`/admin/users/${user.id}/mute`))
        .set(admin.auth)
        .send({ until: null, reason: '' })
        .expect(400);
      await t.http.post(api('/admin/users/2000000000/mute')).set(admin.auth).send({ until: null, reason: 'x' }).expect(404);
      await t.http
        .post(api(`/admin/users/${admin.id}/mute`))
        .set(admin.auth)
        .send({ until: null, reason: 'x' })
        .expect(403);
    });
  });

  describe('held comments', () => {
    it('a young account with a link, a repeated text, too many links: HELD, shown to the author only, not counted; approving publishes and counts it', async () => {
      const post = await publishedPost();
      const young = await createReader(t);
      const linkFromYoung = await comment(young, post.id, 'See https://example.com/offer');
      expect(linkFromYoung.moderation).toBe('HELD');
      const first = await comment(reader, post.id, 'Same   text again');
      expect(first.moderation).toBe('VISIBLE');
      const repeated = await comment(reader, post.id, 'same text AGAIN');
      expect(repeated.moderation).toBe('HELD');
      const links = await comment(other, post.id, 'a http://a.example b https://b.example c www.c.example');
      expect(links.moderation).toBe('HELD');
      const twoLinks = await comment(other, post.id, 'a http://a.example b www.b.example');
      expect(twoLinks.moderation).toBe('VISIBLE');
      expect(await commentCount(post.id)).toBe(2);

      const anonymous = await thread(post.id);
      expect(anonymous.content.map((c) => c.id).sort()).toEqual([first.id, twoLinks.id].sort());
      expect(anonymous.totalElements).toBe(2);
      const own = await thread(post.id, young);
      expect(own.content.find((c) => c.id === linkFromYoung.id)).toMatchObject({
        moderation: 'HELD',
        content: 'See https://example.com/offer',
      });
      // The total counts what each viewer is shown: their own held comments too, nobody else's.
      expect([own.totalElements, (await thread(post.id, reader)).totalElements, (await thread(post.id, other)).totalElements]).toEqual([
        3, 3, 3,
      ]);
      expect((await thread(post.id, reader)).content.map((c) => c.id)).not.toContain(linkFromYoung.id);
      // Nobody replies to or reports what they cannot see.
      await t.http
        .post(api('/comments'))
        .set(reader.auth)
        .send({ postId: post.id, content: 'Reply to held', parentId: linkFromYoung.id })
        .expect(404);
      await t.http
        .post(api(`/comments/${linkFromYoung.id}/reports`))
        .set(reader.auth)
        .send({ reason: 'SPAM' })
        .expect(404);

      // Nobody is told about a held comment until it is approved.
      expect(await notified(author.id, 'POST_COMMENT', linkFromYoung.id)).toBe(0);
      const held = (await t.http.get(api('/admin/comments?filter=held&search=example.com/offer')).set(admin.auth).expect(200)).body.data;
      expect(held.content.map((c: Record<string, any>) => [c.id, c.moderation])).toEqual([[linkFromYoung.id, 'HELD']]);
      await t.http
        .post(api(`/admin/comments/${linkFromYoung.id}/restore`))
        .set(admin.auth)
        .expect(200);
      expect(await commentCount(post.id)).toBe(3);
      expect((await thread(post.id)).content.map((c) => c.id)).toContain(linkFromYoung.id);
      expect(await notified(author.id, 'POST_COMMENT', linkFromYoung.id)).toBe(1);
      expect((await auditOf('COMMENT_RESTORED', linkFromYoung.id))[0].details).toMatchObject({ before: 'HELD' });

      // A visible comment edited into spam is held too, and leaves the counts; an unchanged repeat of its own text is no duplicate.
      await t.http
        .put(api(`/comments/${twoLinks.id}`))
        .set(other.auth)
        .send({ content: 'a http://a.example b www.b.example' })
        .expect(200);
      const edited = await t.http
        .put(api(`/comments/${twoLinks.id}`))
        .set(other.auth)
        .send({ content: 'x http://a.example y http://b.example z http://c.example' })
        .expect(200);
      expect(edited.body.data.moderation).toBe('HELD');
      expect(await commentCount(post.id)).toBe(2);
      expect(await visibleCount(post.id)).toBe(2);
      expect((await thread(post.id)).content.map((c) => c.id)).not.toContain(twoLinks.id);
    });
  });

  it('the public comment lists stay public whatever session comes along (a banned account, a forged token): 200 as anonymous', async () => {
    const post = await publishedPost();
    await comment(reader, post.id, 'Still readable');
    const banned = await createReader(t);
    await db.query(`UPDATE users SET status = 'BANNED' WHERE id = $1`, [banned.id]);
    for (const auth of [banned.auth, { Authorization: 'Bearer forged.token.value' }]) {
      for (const path of [`/blog/posts/${post.id}/comments`, `/comments/post/${post.id}`]) {
        const res = await t.http.get(api(path)).set(auth).expect(200);
        expect(res.body.data.content[0]).toMatchObject({ content: 'Still readable', canReport: false, canHide: false });
      }
    }
  });

  describe('counts stay exact', () => {
    it('concurrent creates, replies, hides, restores and deletes: commentCount and every replyCount equal a COUNT(*) of visible comments', async () => {
      const post = await publishedPost();
      const roots = await Promise.all(Array.from({ length: 10 }, (_, i) => comment(i % 2 ? reader : other, post.id, `Root ${i}`)));
      const replies = await Promise.all(
        roots.flatMap((root, i) => [comment(reader, post.id, `Reply ${i} a`, root.id), comment(other, post.id, `Reply ${i} b`, root.id)]),
      );
      const all = [...roots, ...replies].map((c) => c.id as number);
      const calls = [
        ...all.map((id, i) =>
          i % 3 === 0
            ? t.http
                .post(api(`/comments/${id}/hide`))
                .set(admin.auth)
                .send({ reason: 'Race' })
            : null,
        ),
        ...all.map((id, i) => (i % 3 === 0 ? t.http.post(api(`/admin/comments/${id}/restore`)).set(admin.auth) : null)),
        ...all.map((id, i) => (i % 5 === 1 ? t.http.delete(api(`/admin/comments/${id}`)).set(admin.auth) : null)),
        ...roots.map((root, i) =>
          t.http
            .post(api('/comments'))
            .set(i % 2 ? other.auth : reader.auth)
            .send({ postId: post.id, content: `Late ${i}`, parentId: root.id }),
        ),
        ...all.map((id, i) =>
          i % 4 === 2
            ? t.http
                .post(api(`/comments/${id}/hide`))
                .set(author.auth)
                .send({ reason: 'Author race' })
            : null,
        ),
      ].filter((call): call is NonNullable<typeof call> => call !== null);
      const results = await Promise.all(calls);
      for (const res of results) expect(res.status).toBeLessThan(500);
      expect(await commentCount(post.id)).toBe(await visibleCount(post.id));
      const wrong = (await db.query(
        `SELECT c.id, c.reply_count, (SELECT count(*)::int FROM comments r WHERE r.parent_id = c.id AND r.moderation = 'VISIBLE') AS actual
           FROM comments c WHERE c.post_id = $1`,
        [post.id],
      )) as { id: number; reply_count: number; actual: number }[];
      expect(wrong.filter((row) => row.reply_count !== row.actual)).toEqual([]);
      expect((await t.http.get(api(`/comments/stats/post/${post.id}`)).expect(200)).body.data.totalComments).toBe(
        await visibleCount(post.id),
      );
    });
  });
});
