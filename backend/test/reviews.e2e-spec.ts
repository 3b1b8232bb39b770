import { ContentChange, ContentEvents } from '../src/common/content-events';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, uid } from './helpers/envelope';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

const AUTH_REQUIRED = 'Authentication required. Please log in to continue.';

describe('Post reviews API', () => {
  let t: TestApp;
  let admin: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  let reader: TestUser;
  const events: ContentChange[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    t.app.get(ContentEvents).onChange((change) => events.push(change));
    admin = await createAdmin(t);
    author = await createAuthor(t);
    otherAuthor = await createAuthor(t);
    reader = await createReader(t);
  });
  afterAll(() => t.close());

  async function pendingPost(): Promise<{ id: number; slug: string }> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts/author/create'))
      .set(author.auth)
      .send({ title: `Review me ${token}`, content: 'Please review', slug: `review-${token}` })
      .expect(201);
    await t.http
      .post(api(`/blog/posts/author/${res.body.data.id}/submit-for-review`))
      .set(author.auth)
      .expect(200);
    return res.body.data;
  }

  const review = (id: number, body: Record<string, unknown>, user: TestUser = admin) =>
    t.http
      .put(api(`/blog/posts/admin/${id}/review`))
      .set(user.auth)
      .send(body);

  describe('PUT /blog/posts/admin/{id}/review', () => {
    it('401 without a session, 403 for authors and readers', async () => {
      const post = await pendingPost();
      expect(
        (
          await t.http
            .put(api(`/blog/posts/admin/${post.id}/review`))
            .send({ status: 'APPROVED' })
            .expect(401)
        ).body,
      ).toEqual(err(401, AUTH_REQUIRED));
      for (const user of [author, reader]) {
        expect((await review(post.id, { status: 'APPROVED' }, user).expect(403)).body).toEqual(
          err(403, 'You do not have permission to review posts.'),
        );
      }
    });

    it('400 without a decision, or rejecting without a reason; 400 for a malformed id, 404 for an unknown post', async () => {
      const post = await pendingPost();
      expect((await review(post.id, {}).expect(400)).body).toEqual(
        err(400, 'Please select a review decision.', { status: ['Please select a review decision.'] }),
      );
      expect((await review(post.id, { status: 'MAYBE' }).expect(400)).body.message).toBe('Please select a review decision.');
      expect((await review(post.id, { status: 'REJECTED', rejectionReason: '   ' }).expect(400)).body).toEqual(
        err(400, 'Please provide a rejection reason.', { rejectionReason: ['Please provide a rejection reason.'] }),
      );
      expect((await review(post.id, { status: 'REJECTED', rejectionReason: 'x'.repeat(2001) }).expect(400)).body.message).toBe(
        'Review notes must be at most 2000 characters',
      );
      await t.http.put(api('/blog/posts/admin/abc/review')).set(admin.auth).send({ status: 'APPROVED' }).expect(400);
      expect((await review(999999, { status: 'APPROVED' }).expect(404)).body).toEqual(err(404, 'Post with id 999999 not found'));
    });

    it('409 for posts not waiting for a decision', async () => {
      const res = await t.http
        .post(api('/blog/posts/author/create'))
        .set(author.auth)
        .send({ title: `Draft ${uid()}`, content: 'c' })
        .expect(201);
      expect((await review(res.body.data.id, { status: 'APPROVED' }).expect(409)).body).toEqual(
        err(409, 'Cannot approve a post with status DRAFT: only PENDING_REVIEW or REJECTED posts can be approved.'),
      );
      expect((await review(res.body.data.id, { status: 'REJECTED', rejectionReason: 'No' }).expect(409)).body).toEqual(
        err(409, 'Cannot reject a post with status DRAFT: only PENDING_REVIEW posts can be rejected.'),
      );
    });

    it('author draft → submit → approve publishes it: public list, slug page, publishedAt, review answer', async () => {
      const post = await pendingPost();
      await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(404);
      events.length = 0;
      const res = await review(post.id, { status: 'APPROVED', adminNotes: 'Looks good' }).expect(200);
      expect(res.body).toMatchObject({ success: true, status: 200, message: 'Post approved and published.', errors: null });
      expect(res.body.data.post).toMatchObject({ id: post.id, status: 'PUBLISHED', publishedAt: ISO, userId: author.id });
      expect(res.body.data.review).toEqual({
        id: expect.any(Number),
        postId: post.id,
        reviewerId: admin.id,
        reviewerName: admin.fullName,
        status: 'APPROVED',
        reviewNote: null,
        adminNotes: 'Looks good',
        rejectionReason: null,
        priority: 'NORMAL',
        createdAt: ISO,
        updatedAt: ISO,
      });
      expect(events).toEqual([{ kind: 'post', postId: post.id, slugs: [post.slug] }]);
      await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200);
      const list = await t.http.get(api('/blog/posts/public?size=100')).expect(200);
      expect(list.body.data.content.map((c: { id: number }) => c.id)).toContain(post.id);
      expect((await review(post.id, { status: 'REJECTED', rejectionReason: 'Too late' }).expect(409)).body.message).toBe(
        'Cannot reject a post with status PUBLISHED: only PENDING_REVIEW posts can be rejected.',
      );
    });

    it('reject with a reason → author sees REJECTED and the history → edits, resubmits → approve now', async () => {
      const post = await pendingPost();
      events.length = 0;
      const rejected = await review(post.id, {
        status: 'REJECTED',
        rejectionReason: ' Please add sources. ',
        adminNotes: 'internal: weak',
      }).expect(200);
      expect(rejected.body.message).toBe('Post rejected.');
      expect(rejected.body.data.post.status).toBe('REJECTED');
      expect(rejected.body.data.review).toMatchObject({
        status: 'REJECTED',
        rejectionReason: 'Please add sources.',
        adminNotes: 'internal: weak',
      });
      // No public page shows it: only the back office's post counts per status are told.
      expect(events).toEqual([{ kind: 'unpublished-post', postId: post.id }]);

      const mine = await t.http.get(api('/blog/posts/author/my-posts?status=REJECTED&size=1000')).set(author.auth).expect(200);
      expect(mine.body.data.content.map((p: { id: number }) => p.id)).toContain(post.id);
      await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(404);

      let history = await t.http
        .get(api(`/blog/post-reviews/${post.id}/history`))
        .set(author.auth)
        .expect(200);
      expect(history.body.data).toEqual([
        expect.objectContaining({ status: 'REJECTED', rejectionReason: 'Please add sources.', adminNotes: null }),
      ]);

      await t.http
        .put(api(`/blog/posts/author/${post.id}`))
        .set(author.auth)
        .send({ content: 'Now with sources' })
        .expect(200);
      await t.http
        .post(api(`/blog/posts/author/${post.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);
      await review(post.id, { status: 'REJECTED', rejectionReason: 'Still not enough' }).expect(200);
      const approved = await review(post.id, { status: 'APPROVED' }).expect(200);
      expect(approved.body.data.post.status).toBe('PUBLISHED');

      history = await t.http
        .get(api(`/blog/post-reviews/${post.id}/history`))
        .set(admin.auth)
        .expect(200);
      expect(
        history.body.data.map((r: { status: string; rejectionReason: string | null; adminNotes: string | null }) => [
          r.status,
          r.rejectionReason,
          r.adminNotes,
        ]),
      ).toEqual([
        ['APPROVED', null, null],
        ['REJECTED', 'Still not enough', null],
        ['REJECTED', 'Please add sources.', 'internal: weak'],
      ]);
    });
  });

  describe('lastRejection on the list rows', () => {
    it("a REJECTED post's row carries its latest rejection (reason, reviewer, time) on the author's and the admin's lists; other rows null", async () => {
      const post = await pendingPost();
      await review(post.id, { status: 'REJECTED', rejectionReason: 'First reason', adminNotes: 'internal' }).expect(200);
      await t.http
        .post(api(`/blog/posts/author/${post.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);
      await review(post.id, { status: 'REJECTED', rejectionReason: 'Latest reason' }).expect(200);
      const latest = { reason: 'Latest reason', reviewerName: admin.fullName, reviewedAt: ISO };

      const row = async (path: string, user: TestUser) =>
        ((await t.http.get(api(path)).set(user.auth).expect(200)).body.data.content as { id: number; lastRejection: unknown }[]).find(
          (p) => p.id === post.id,
        );
      expect((await row('/blog/posts/author/my-posts?status=REJECTED&size=1000', author))?.lastRejection).toEqual(latest);
      expect((await row('/blog/posts/admin/all?status=REJECTED&size=100', admin))?.lastRejection).toEqual(latest);

      // Approved (Approve Now): no longer rejected, no rejection on the row.
      await review(post.id, { status: 'APPROVED' }).expect(200);
      expect((await row('/blog/posts/author/my-posts?size=1000', author))?.lastRejection).toBeNull();
    });
  });

  describe('GET /blog/post-reviews/{id}/history', () => {
    it('401, 400, 404, and 403 for readers and other authors', async () => {
      const post = await pendingPost();
      expect((await t.http.get(api(`/blog/post-reviews/${post.id}/history`)).expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
      expect((await t.http.get(api('/blog/post-reviews/x/history')).set(admin.auth).expect(400)).body.message).toBe(
        'Invalid id: it must be a positive whole number.',
      );
      expect((await t.http.get(api('/blog/post-reviews/999999/history')).set(admin.auth).expect(404)).body).toEqual(
        err(404, 'Post with id 999999 not found'),
      );
      for (const user of [reader, otherAuthor]) {
        expect(
          (
            await t.http
              .get(api(`/blog/post-reviews/${post.id}/history`))
              .set(user.auth)
              .expect(403)
          ).body,
        ).toEqual(err(403, 'You do not have permission to view review history.'));
      }
      const empty = await t.http
        .get(api(`/blog/post-reviews/${post.id}/history`))
        .set(author.auth)
        .expect(200);
      expect(empty.body).toEqual({ success: true, data: [], message: 'OK', status: 200, errors: null });
    });
  });
});
