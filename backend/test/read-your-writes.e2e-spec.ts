import type { NextFunction, Request, Response } from 'express';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AstroHandler, ServerLocals } from '../src/frontend/frontend.module';
import { STRONG_PASSWORD, uniqueEmail } from './helpers/accounts';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { codeOf, MailCatcher, startMailCatcher } from './helpers/mail';
import { rawRequest } from './helpers/raw-request';
import { createAdmin, createAuthor, createReader, type TestUser } from './helpers/users';

/**
 * Every cache lets a writer read its write at once. Each test reads first (so the
 * answer or page is held: 5 s micro-caches, the page cache), writes, and reads again at once:
 * the held entry must have been dropped before the write answered. No waiting anywhere: a time
 * limit is only a backstop.
 */
describe('Read-your-writes on one instance', () => {
  let t: TestApp;
  let server: Server;
  let mail: MailCatcher;
  let clientDir: string;
  let admin: TestUser;
  let author: TestUser;
  const renders: string[] = [];

  /** /blog as the post list shows it: each card with its like count (real public reads through the gateway). */
  const pages: AstroHandler = async (req: Request, res: Response, _next: NextFunction, locals: ServerLocals) => {
    renders.push(req.path);
    const list = await locals.gateway.call({ method: 'GET', path: '/api/v1/blog/posts/public', params: { query: { page: 0, size: 100 } } });
    const cards = (list.body as { data?: { content: { slug: string; likeCount: number }[] } }).data?.content ?? [];
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Blog</title></head><body><main><ul>${cards.map((card) => `<li data-slug="${card.slug}">${card.likeCount}</li>`).join('')}</ul></main></body></html>`,
    );
  };

  beforeAll(async () => {
    mail = await startMailCatcher();
    clientDir = mkdtempSync(join(tmpdir(), 'inkwell-client-'));
    // Its own database: the site-wide totals read here must not move with other test files' writes.
    const databaseUrl = await createFreshDatabase('inkwell_read_your_writes');
    t = await createTestApp({ databaseUrl, env: { SMTP_URL: mail.url }, frontend: { handler: pages, clientDir } });
    server = t.app.getHttpServer() as Server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    admin = await createAdmin(t);
    author = await createAuthor(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await mail?.close();
    if (clientDir) rmSync(clientDir, { recursive: true, force: true });
  });

  const data = async (path: string, auth: Record<string, string> = {}) => (await t.http.get(api(path)).set(auth).expect(200)).body.data;
  const quickStats = () => data('/dashboard/quick-stats');
  const adminStats = () => data('/dashboard/admin/stats', admin.auth);
  const usersTotal = async () => (await data('/admin/users?size=1', admin.auth)).totalElements as number;
  const postsToday = async () => ((await data('/dashboard/admin/activity?days=1', admin.auth)).days as { posts: number }[])[0].posts;

  async function publishedPost(): Promise<{ id: number; slug: string }> {
    const slug = `ryw-${uid()}`;
    return (
      await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Read your writes ${slug}`, slug, content: 'Body', status: 'PUBLISHED' })
        .expect(201)
    ).body.data;
  }

  it('a sign-up and its verification show at once in the quick stats, the admin stats and the admin user list', async () => {
    const [quick, stats, total] = [await quickStats(), await adminStats(), await usersTotal()];
    const email = uniqueEmail('ryw');
    const since = mail.messages.length;
    await t.http
      .post(api('/auth/register'))
      .send({ fullName: 'Fresh Reader', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD })
      .expect(201);
    expect((await quickStats()).totalUsers).toBe(quick.totalUsers + 1);
    expect(await adminStats()).toMatchObject({
      totalUsers: stats.totalUsers + 1,
      pendingUsers: stats.pendingUsers + 1,
      activeUsers: stats.activeUsers,
    });
    expect(await usersTotal()).toBe(total + 1);

    const code = codeOf(await mail.waitFor(email, { since }));
    await t.http.post(api('/auth/verify-email')).send({ email, verificationCode: code }).expect(200);
    expect(await adminStats()).toMatchObject({ pendingUsers: stats.pendingUsers, activeUsers: stats.activeUsers + 1 });
  });

  it("an author's draft and its deletion (once submitted) show at once in the admin stats and the activity chart", async () => {
    const [stats, today] = [await adminStats(), await postsToday()];
    const slug = `ryw-draft-${uid()}`;
    const draft = (
      await t.http
        .post(api('/blog/posts/author/create'))
        .set(author.auth)
        .send({ title: `Draft ${slug}`, content: 'Body', slug })
        .expect(201)
    ).body.data;
    expect((await adminStats()).totalPosts).toBe(stats.totalPosts + 1);
    expect(await postsToday()).toBe(today + 1);
    await t.http
      .post(api(`/blog/posts/author/${draft.id}/submit-for-review`))
      .set(author.auth)
      .expect(200);
    await t.http
      .delete(api(`/blog/posts/${draft.id}`))
      .set(admin.auth)
      .expect(204);
    expect((await adminStats()).totalPosts).toBe(stats.totalPosts);
    expect(await postsToday()).toBe(today);
  });

  it('a like and a comment show at once in the post, the quick stats and the admin stats', async () => {
    const post = await publishedPost();
    const reader = await createReader(t);
    const onPost = () => data(`/blog/posts/public/${post.slug}`);
    const [before, quick, stats] = [await onPost(), await quickStats(), await adminStats()];
    await t.http
      .post(api(`/likes/post/${post.id}/toggle`))
      .set(reader.auth)
      .expect(200);
    await t.http.post(api('/comments')).set(reader.auth).send({ postId: post.id, content: 'Seen at once?' }).expect(201);
    expect(await onPost()).toMatchObject({ likeCount: before.likeCount + 1, commentCount: before.commentCount + 1 });
    expect(await quickStats()).toMatchObject({ totalLikes: quick.totalLikes + 1, totalComments: quick.totalComments + 1 });
    expect(await adminStats()).toMatchObject({ totalLikes: stats.totalLikes + 1, totalComments: stats.totalComments + 1 });
  });

  it("every like shows at once on the anonymous /blog page, not only a window's first", async () => {
    const post = await publishedPost();
    const count = async () => {
      const html = (await rawRequest(server, '/blog')).body.toString();
      return Number(new RegExp(`data-slug="${post.slug}">(\\d+)<`).exec(html)?.[1]);
    };
    expect(await count()).toBe(0);
    const rendered = renders.length;
    expect(await count()).toBe(0);
    expect(renders.length).toBe(rendered); // held by the page cache
    for (let likes = 1; likes <= 3; likes++) {
      const reader = await createReader(t);
      await t.http
        .post(api(`/likes/post/${post.id}/toggle`))
        .set(reader.auth)
        .expect(200);
      expect(await count()).toBe(likes);
    }
  });
});
