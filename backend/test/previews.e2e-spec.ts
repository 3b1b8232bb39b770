import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../src/config/env';
import { previewKey, signPreviewToken } from '../src/previews/preview-token';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, uid } from './helpers/envelope';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

const INVALID_LINK = 'This preview link is invalid or has expired.';
const FORBIDDEN = 'You do not have permission to share previews of this post.';
const MISSING = 2_000_000_000;

describe('Preview links', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let config: AppConfig;
  let admin: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  let reader: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    dataSource = t.app.get(DataSource);
    config = t.app.get<AppConfig>(APP_CONFIG);
    admin = await createAdmin(t);
    author = await createAuthor(t);
    otherAuthor = await createAuthor(t);
    reader = await createReader(t);
  });
  afterAll(() => t.close());

  async function draftOf(user: TestUser, content = 'The draft body'): Promise<{ id: number; slug: string; title: string }> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts/author/create'))
      .set(user.auth)
      .send({ title: `Preview ${token}`, slug: `preview-${token}`, summary: 'A summary', content })
      .expect(201);
    return res.body.data;
  }

  async function createLink(postId: number, user: TestUser = author): Promise<{ id: number; url: string; expiresAt: string }> {
    const res = await t.http
      .post(api(`/blog/posts/${postId}/preview-links`))
      .set(user.auth)
      .expect(201);
    return res.body.data;
  }

  const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const readPreview = (token: string) => t.http.get(api(`/blog/preview/${encodeURIComponent(token)}`));

  it('creates a 7-day link whose token shows the post to anyone, without the e-mail; lists it; audits it', async () => {
    const post = await draftOf(author);
    const before = Date.now();
    const res = await t.http
      .post(api(`/blog/posts/${post.id}/preview-links`))
      .set(author.auth)
      .expect(201);
    const link = res.body.data;
    expect(link).toEqual({
      id: expect.any(Number),
      url: expect.stringMatching(/^http:\/\/localhost:3000\/preview\/[^/]+$/),
      createdAt: ISO,
      expiresAt: ISO,
      createdBy: { id: author.id, fullName: author.fullName },
    });
    const days = (Date.parse(link.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const shown = await readPreview(tokenOf(link.url)).expect(200);
    expect(shown.body.data).toMatchObject({
      id: post.id,
      title: post.title,
      status: 'DRAFT',
      content: 'The draft body',
      previewExpiresAt: link.expiresAt,
    });
    expect(shown.body.data.contentHtml).toContain('The draft body');
    expect(shown.body.data).not.toHaveProperty('authorEmail');

    const listed = await t.http
      .get(api(`/blog/posts/${post.id}/preview-links`))
      .set(author.auth)
      .expect(200);
    expect(listed.body.data).toEqual([link]);
    const audits = (await dataSource.query(
      `SELECT type, actor_id, description FROM audit_log WHERE target_type = 'post' AND target_id = $1 AND type LIKE 'PREVIEW_LINK_%'`,
      [post.id],
    )) as { type: string; actor_id: number; description: string }[];
    // The expiry as the pages show times (the admin's Recent Activity): the site's zone, named.
    expect(audits).toEqual([
      {
        type: 'PREVIEW_LINK_CREATED',
        actor_id: author.id,
        description: expect.stringMatching(/ until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M GMT\+7$/),
      },
    ]);
  });

  it('shows the latest saved content, not the content at the time the link was made', async () => {
    const post = await draftOf(author, 'First words');
    const link = await createLink(post.id);
    await t.http
      .put(api(`/blog/posts/author/${post.id}`))
      .set(author.auth)
      .send({ title: `${post.title} again`, slug: post.slug, content: 'Second words' })
      .expect(200);
    const shown = await readPreview(tokenOf(link.url)).expect(200);
    expect(shown.body.data).toMatchObject({ title: `${post.title} again`, content: 'Second words' });
  });

  it('revoking drops the link from the list and its token answers 404; the revocation is audited; revoking twice is 404', async () => {
    const post = await draftOf(author);
    const kept = await createLink(post.id);
    const revoked = await createLink(post.id);
    await t.http
      .delete(api(`/blog/posts/${post.id}/preview-links/${revoked.id}`))
      .set(author.auth)
      .expect(204);
    expect((await readPreview(tokenOf(revoked.url)).expect(404)).body).toEqual(err(404, INVALID_LINK));
    await readPreview(tokenOf(kept.url)).expect(200);
    const listed = await t.http
      .get(api(`/blog/posts/${post.id}/preview-links`))
      .set(author.auth)
      .expect(200);
    expect(listed.body.data.map((link: { id: number }) => link.id)).toEqual([kept.id]);
    await t.http
      .delete(api(`/blog/posts/${post.id}/preview-links/${revoked.id}`))
      .set(author.auth)
      .expect(404);
    // A link of another post cannot be revoked through this one.
    const other = await draftOf(author);
    await t.http
      .delete(api(`/blog/posts/${other.id}/preview-links/${kept.id}`))
      .set(author.auth)
      .expect(404);
    const [{ count }] = (await dataSource.query(
      `SELECT count(*)::int AS count FROM audit_log WHERE target_id = $1 AND type = 'PREVIEW_LINK_REVOKED'`,
      [post.id],
    )) as { count: number }[];
    expect(count).toBe(1);
  });

  it('lists newest first and leaves out expired links', async () => {
    const post = await draftOf(author);
    const first = await createLink(post.id);
    const second = await createLink(post.id);
    const expired = await createLink(post.id);
    await dataSource.query(`UPDATE post_preview_links SET expires_at = now() - interval '1 minute' WHERE id = $1`, [expired.id]);
    const listed = await t.http
      .get(api(`/blog/posts/${post.id}/preview-links`))
      .set(author.auth)
      .expect(200);
    expect(listed.body.data.map((link: { id: number }) => link.id)).toEqual([second.id, first.id]);
  });

  describe('ownership as editing', () => {
    it('admins manage links of any post; other authors and readers get 403; an unknown post 404', async () => {
      const post = await draftOf(author);
      const byAdmin = await createLink(post.id, admin);
      await t.http
        .get(api(`/blog/posts/${post.id}/preview-links`))
        .set(admin.auth)
        .expect(200);
      for (const user of [otherAuthor, reader]) {
        expect(
          (
            await t.http
              .post(api(`/blog/posts/${post.id}/preview-links`))
              .set(user.auth)
              .expect(403)
          ).body,
        ).toEqual(err(403, FORBIDDEN));
        await t.http
          .get(api(`/blog/posts/${post.id}/preview-links`))
          .set(user.auth)
          .expect(403);
        await t.http
          .delete(api(`/blog/posts/${post.id}/preview-links/${byAdmin.id}`))
          .set(user.auth)
          .expect(403);
      }
      await t.http.post(api(`/blog/posts/${post.id}/preview-links`)).expect(401);
      await t.http
        .post(api(`/blog/posts/${MISSING}/preview-links`))
        .set(admin.auth)
        .expect(404);
      await t.http
        .get(api(`/blog/posts/${MISSING}/preview-links`))
        .set(author.auth)
        .expect(404);
      await t.http.post(api('/blog/posts/abc/preview-links')).set(author.auth).expect(400);
      await t.http
        .delete(api(`/blog/posts/${post.id}/preview-links/abc`))
        .set(author.auth)
        .expect(400);
      await t.http
        .delete(api(`/blog/posts/${post.id}/preview-links/${byAdmin.id}`))
        .set(author.auth)
        .expect(204);
    });
  });

  describe('statuses', () => {
    it('409 for a published (or archived) post; a pending or rejected post may be previewed', async () => {
      const token = uid();
      const published = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Live ${token}`, slug: `live-${token}`, content: 'Body', status: 'PUBLISHED' })
        .expect(201);
      const res = await t.http
        .post(api(`/blog/posts/${published.body.data.id}/preview-links`))
        .set(admin.auth)
        .expect(409);
      expect(res.body).toEqual(
        err(409, 'Only DRAFT, PENDING_REVIEW and REJECTED posts can be previewed through a link; this post is PUBLISHED.'),
      );

      const pending = await draftOf(author);
      await t.http
        .post(api(`/blog/posts/author/${pending.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);
      const link = await createLink(pending.id);
      expect((await readPreview(tokenOf(link.url)).expect(200)).body.data.status).toBe('PENDING_REVIEW');

      await t.http
        .put(api(`/blog/posts/admin/${pending.id}/review`))
        .set(admin.auth)
        .send({ status: 'REJECTED', rejectionReason: 'Needs work' })
        .expect(200);
      expect((await readPreview(tokenOf(link.url)).expect(200)).body.data.status).toBe('REJECTED');
    });

    it('a link stops working once its post is published, and when the post is deleted', async () => {
      const post = await draftOf(author);
      const link = await createLink(post.id);
      await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ status: 'PUBLISHED' })
        .expect(200);
      expect((await readPreview(tokenOf(link.url)).expect(404)).body).toEqual(err(404, INVALID_LINK));

      const gone = await draftOf(author);
      const goneLink = await createLink(gone.id);
      await t.http
        .delete(api(`/blog/posts/${gone.id}`))
        .set(author.auth)
        .expect(204);
      await readPreview(tokenOf(goneLink.url)).expect(404);
    });
  });

  describe('tokens', () => {
    it('a tampered token is 404: another id, another expiry, another signature, garbage', async () => {
      const post = await draftOf(author);
      const link = await createLink(post.id);
      const other = await createLink((await draftOf(author)).id);
      const [id, seconds, signature] = tokenOf(link.url).split('.');
      const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
      const tampered = [
        `${other.id}.${seconds}.${signature}`,
        `${id}.${Number(seconds) + 86_400}.${signature}`,
        `${id}.${seconds}.${flipped}`,
        `${id}.${seconds}`,
        'not-a-token',
        `${id}.${seconds}.${signature}x`,
      ];
      for (const token of tampered) expect((await readPreview(token).expect(404)).body).toEqual(err(404, INVALID_LINK));
    });

    it('a correctly signed token past its expiry is 404, and so is a live token whose row has expired', async () => {
      const post = await draftOf(author);
      const link = await createLink(post.id);
      const key = previewKey(config.jwtSecret);
      const expiredToken = signPreviewToken(key, link.id, new Date(Date.now() - 1000));
      await readPreview(expiredToken).expect(404);
      // The same key signs what the app signs: the link's own token works until its row expires.
      expect(signPreviewToken(key, link.id, new Date(link.expiresAt))).toBe(tokenOf(link.url));
      await readPreview(tokenOf(link.url)).expect(200);
      await dataSource.query(`UPDATE post_preview_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [link.id]);
      await readPreview(tokenOf(link.url)).expect(404);
    });

    it('a token signed with another secret is 404', async () => {
      const post = await draftOf(author);
      const link = await createLink(post.id);
      await readPreview(signPreviewToken(previewKey(`${config.jwtSecret}-other`), link.id, new Date(link.expiresAt))).expect(404);
    });
  });
});
