import type { Request, Response } from 'express';
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { AstroHandler } from '../src/frontend/frontend.module';
import { PostViewsService } from '../src/post-views/post-views.service';
import { PostsService } from '../src/posts/posts.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { rawRequest } from './helpers/raw-request';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

/** PostsService.adjustCounters: what likes and comments call inside their own transaction. */
describe('Post counters (PostsService.adjustCounters)', () => {
  let t: TestApp;
  let author: TestUser;
  let posts: PostsService;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    author = await createAuthor(t);
    posts = t.app.get(PostsService);
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function newPost(): Promise<{ id: number; updatedAt: string }> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts/author/create'))
      .set(author.auth)
      .send({ title: `Counted ${token}`, content: 'x', slug: `counted-${token}` })
      .expect(201);
    return res.body.data;
  }

  const counts = async (id: number) =>
    (
      (await dataSource.query('SELECT like_count, comment_count, updated_at FROM posts WHERE id = $1', [id])) as {
        like_count: number;
        comment_count: number;
        updated_at: Date;
      }[]
    )[0];

  it('adds and subtracts in the caller’s transaction and returns the new counts, updated_at untouched', async () => {
    const post = await newPost();
    const before = await counts(post.id);
    const result = await dataSource.transaction((manager) => posts.adjustCounters(manager, post.id, { likes: 2, comments: 1 }));
    expect(result).toEqual({ likeCount: 2, commentCount: 1 });
    expect(await dataSource.transaction((manager) => posts.adjustCounters(manager, post.id, { likes: -1 }))).toEqual({
      likeCount: 1,
      commentCount: 1,
    });
    const after = await counts(post.id);
    expect(after.updated_at.getTime()).toBe(before.updated_at.getTime());
  });

  it('never goes below 0', async () => {
    const post = await newPost();
    expect(await dataSource.transaction((manager) => posts.adjustCounters(manager, post.id, { likes: -1, comments: -5 }))).toEqual({
      likeCount: 0,
      commentCount: 0,
    });
  });

  it('is rolled back with the caller’s transaction', async () => {
    const post = await newPost();
    await expect(
      dataSource.transaction(async (manager) => {
        await posts.adjustCounters(manager, post.id, { likes: 1 });
        throw new Error('the like row failed');
      }),
    ).rejects.toThrow('the like row failed');
    expect((await counts(post.id)).like_count).toBe(0);
  });

  it('loses no count under concurrent callers', async () => {
    const post = await newPost();
    await Promise.all(
      Array.from({ length: 20 }, () =>
        dataSource.transaction((manager) => posts.adjustCounters(manager, post.id, { likes: 1, comments: 1 })),
      ),
    );
    expect(await counts(post.id)).toMatchObject({ like_count: 20, comment_count: 20 });
  });

  it('404 for a post that does not exist', async () => {
    await expect(dataSource.transaction((manager) => posts.adjustCounters(manager, 2_000_000_000, { likes: 1 }))).rejects.toMatchObject({
      status: 404,
      message: 'Post with id 2000000000 not found',
    });
  });
});

/**
 * Views are counted in one place (PostViewsService.count): by PostsPublicService.bySlug for the
 * API and every rendered post page (which reads the post through GET /blog/posts/public/{slug}),
 * by the page-view recorder (PageViewRecorder.pageServed) for a page answered from the page cache. Each answered post page is one view.
 * The page handler stands in for Astro: it reads the post over loopback like the pages do.
 */
describe('Post views and page caching, end to end', () => {
  let t: TestApp;
  let server: Server;
  let admin: TestUser;
  let reader: TestUser;
  const renders: string[] = [];

  const handler: AstroHandler = async (req: Request, res: Response) => {
    renders.push(req.path);
    const slug = /^\/blog\/([^/]+)$/.exec(req.path)?.[1];
    const origin = `http://127.0.0.1:${req.socket.localPort}`;
    const headers = { cookie: req.headers.cookie ?? '' };
    let status = 200;
    let main = '';
    if (slug) {
      const answer = await fetch(`${origin}/api/v1/blog/posts/public/${slug}`, { headers });
      const body = (await answer.json()) as { data?: { title: string; likeCount: number } };
      status = answer.status;
      main = body.data ? `<h1>${body.data.title}</h1><p>likes ${body.data.likeCount}</p>` : '<h1>missing</h1>';
    } else {
      const answer = await fetch(`${origin}/api/v1/blog/posts/public?size=100`, { headers });
      const body = (await answer.json()) as { data: { content: { slug: string; likeCount: number }[] } };
      main = body.data.content.map((card) => `<a href="/blog/${card.slug}">${card.likeCount}</a>`).join('');
    }
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(`<!doctype html><html><body>${main}</body></html>`);
  };

  beforeAll(async () => {
    t = await createTestApp({ frontend: { handler, clientDir: mkdtempSync(join(tmpdir(), 'inkwell-views-')) } });
    server = t.app.getHttpServer() as Server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    admin = await createAdmin(t);
    reader = await createReader(t);
  });
  afterAll(() => t.close());

  async function publishedPost(): Promise<{ id: number; slug: string }> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Viewed ${token}`, content: 'x', slug: `viewed-${token}`, status: 'PUBLISHED' })
      .expect(201);
    return res.body.data;
  }

  const views = async (id: number) => {
    await t.app.get(PostViewsService).flush();
    const [row] = (await t.app.get(DataSource).query('SELECT view_count FROM posts WHERE id = $1', [id])) as { view_count: number }[];
    return Number(row.view_count);
  };
  const page = (path: string, headers: Record<string, string> = {}, method = 'GET') => rawRequest(server, path, headers, method);

  it('counts one view per answered post page: rendered, cached (fast path), 304, HEAD, signed in, and the API', async () => {
    const post = await publishedPost();
    const before = await views(post.id);
    const first = await page(`/blog/${post.slug}`); // rendered: the render's API read counts
    expect(first.status).toBe(200);
    await page(`/blog/${post.slug}`); // cached
    await page(`/blog/${post.slug}`, { 'if-none-match': first.headers.etag! }); // cached, 304
    await page(`/blog/${post.slug}`, {}, 'HEAD'); // cached
    await page(`/blog/${post.slug}`, { cookie: `inkwell_access=${reader.token}` }); // signed in: the same cached page
    await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200); // the API itself
    expect(renders.filter((path) => path === `/blog/${post.slug}`)).toHaveLength(1);
    expect(await views(post.id)).toBe(before + 6);
  });

  it('counts one view per request when concurrent requests share one render', async () => {
    const post = await publishedPost();
    const before = await views(post.id);
    const answers = await Promise.all(Array.from({ length: 8 }, () => page(`/blog/${post.slug}`)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(await views(post.id)).toBe(before + 8);
  });

  it('a 404 post page counts nothing', async () => {
    const post = await publishedPost();
    const before = await views(post.id);
    await page(`/blog/${post.slug}-missing`);
    await page(`/blog/${post.slug}-missing`);
    expect(await views(post.id)).toBe(before);
  });

  it("a like drops that post's page and the list pages (the lists show like counts), not other posts' pages; a ban drops neither", async () => {
    const liked = await publishedPost();
    const other = await publishedPost();
    for (const path of [`/blog/${liked.slug}`, `/blog/${other.slug}`, '/blog']) await page(path);
    const rendersOf = (path: string) => renders.filter((rendered) => rendered === path).length;
    const counts = { liked: rendersOf(`/blog/${liked.slug}`), other: rendersOf(`/blog/${other.slug}`), list: rendersOf('/blog') };

    const banned = await createReader(t);
    await t.http
      .post(api(`/admin/users/${banned.id}/ban`))
      .set(admin.auth)
      .send({ reason: 'spam' })
      .expect(200);
    for (const path of [`/blog/${liked.slug}`, `/blog/${other.slug}`, '/blog']) await page(path);
    expect([rendersOf(`/blog/${liked.slug}`), rendersOf(`/blog/${other.slug}`), rendersOf('/blog')]).toEqual([
      counts.liked,
      counts.other,
      counts.list,
    ]);

    await t.http
      .post(api(`/likes/post/${liked.id}`))
      .set(reader.auth)
      .expect(200);
    expect((await page(`/blog/${liked.slug}`)).body.toString()).toContain('likes 1');
    await page(`/blog/${other.slug}`);
    expect(rendersOf(`/blog/${liked.slug}`)).toBe(counts.liked + 1);
    expect(rendersOf(`/blog/${other.slug}`)).toBe(counts.other);
  });
});
