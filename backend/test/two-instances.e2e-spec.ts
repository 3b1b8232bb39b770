import type { NextFunction, Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { ContentChange, ContentEvents } from '../src/common/content-events';
import type { AstroHandler, ServerLocals } from '../src/frontend/frontend.module';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { rawRequest } from './helpers/raw-request';
import { redisServerForSuite, startRedisServer, type RedisTestServer } from './helpers/redis-server';
import { startS3Server, type S3TestServer } from './helpers/s3-server';
import { createAdmin, createAuthor, createReader, type TestUser } from './helpers/users';

/**
 * The proof: two instances of the app (two Nest applications, each with its own
 * caches, rate-limit fallback and Redis connections) on one PostgreSQL, one Redis (a real
 * redis-server) and one S3-compatible bucket (s3rver). A rate limit is counted across both; a post
 * approved or deleted through A changes / on A's and B's cached anonymous pages at once; a like on
 * A is counted on B; an avatar uploaded through A is served by B.
 */
const JWT_SECRET = 'two-instances-e2e-shared-secret-of-32-chars-or-more';
const LIMIT_TEXT = 'Too many attempts. Please wait before trying again.';

interface Instance {
  t: TestApp;
  server: Server;
  /** Pages the instance's page handler rendered (a page served from the cache renders nothing). */
  renders: string[];
}

/** A page handler in place of the Astro build: / lists the published posts (real public reads). */
function pagesFor(renders: string[]): AstroHandler {
  return async (req: Request, res: Response, _next: NextFunction, locals: ServerLocals) => {
    renders.push(req.path);
    const list = await locals.gateway.call({ method: 'GET', path: '/api/v1/blog/posts/public', params: { query: { page: 0, size: 50 } } });
    const cards = (list.body as { data?: { content: { slug: string }[] } }).data?.content;
    const items = cards ? cards.map((card) => `<li>${card.slug}</li>`).join('') : '<li>error</li>';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><html lang="en"><head><title>Inkwell</title></head><body><main><ul>${items}</ul></main></body></html>`);
  };
}

// Like redis.e2e-spec: needs Debian's redis-server, which .ci/run installs when it is missing.
const binary = redisServerForSuite('two-instances.e2e-spec');

(binary ? describe : describe.skip)('Two instances on one PostgreSQL, one Redis and one bucket', () => {
  let redis: RedisTestServer;
  let s3: S3TestServer;
  let clientDir: string;
  let a: Instance;
  let b: Instance;
  let admin: TestUser;
  let author: TestUser;
  let reader: TestUser;

  async function start(databaseUrl: string): Promise<Instance> {
    const renders: string[] = [];
    const t = await createTestApp({
      databaseUrl,
      throttle: true,
      env: { JWT_SECRET, REDIS_URL: redis.url, TRUST_PROXY: 'loopback', ...s3.env },
      frontend: { handler: pagesFor(renders), clientDir },
    });
    const server = t.app.getHttpServer() as Server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return { t, server, renders };
  }

  beforeAll(async () => {
    redis = await startRedisServer(binary);
    s3 = await startS3Server('inkwell-two-instances');
    clientDir = mkdtempSync(join(tmpdir(), 'inkwell-client-'));
    const databaseUrl = await createFreshDatabase('two_instances');
    a = await start(databaseUrl);
    b = await start(databaseUrl);
    admin = await createAdmin(a.t);
    author = await createAuthor(a.t);
    reader = await createReader(a.t);
  }, 120_000);
  afterAll(async () => {
    await a?.t.close();
    await b?.t.close();
    await s3?.close();
    await redis?.close();
    if (clientDir) rmSync(clientDir, { recursive: true, force: true });
  });

  const home = async (instance: Instance) => (await rawRequest(instance.server, '/')).body.toString();
  /** Reads / on an instance until `check` holds (a notice from the other instance arrives over pub/sub), at most ~3 s. */
  async function homeUntil(instance: Instance, check: (html: string) => boolean): Promise<string> {
    let html = await home(instance);
    for (let i = 0; i < 60 && !check(html); i++) {
      await new Promise((done) => setTimeout(done, 50));
      html = await home(instance);
    }
    return html;
  }

  it('counts a rate limit across both: 150 requests on A and 150 on B use up the 300 per minute of one address on both', async () => {
    const address = '10.99.1.1';
    const get = (instance: Instance) => instance.t.http.get(api('/blog/tags')).set('X-Forwarded-For', address);
    // In rounds of 25 concurrent requests on each instance (a loaded machine would make 300 sequential ones slow).
    for (let round = 0; round < 6; round++) {
      const statuses = await Promise.all(Array.from({ length: 50 }, (_, i) => get(i % 2 ? b : a).then((res) => res.status)));
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
    }
    // Counted per instance, each would allow 150 more.
    const onA = await get(a);
    const onB = await get(b);
    expect([onA.status, onA.body.message]).toEqual([429, LIMIT_TEXT]);
    expect([onB.status, onB.body.message]).toEqual([429, LIMIT_TEXT]);
    // Another address is not limited.
    expect((await a.t.http.get(api('/blog/tags')).set('X-Forwarded-For', '10.99.1.2')).status).toBe(200);
  }, 120_000);

  it("a post approved through A shows on / of both instances' cached pages, and deleted through A leaves both", async () => {
    const slug = `two-instances-${uid()}`;
    const created = await a.t.http
      .post(api('/blog/posts/author/create'))
      .set(author.auth)
      .send({ title: `Two instances ${slug}`, content: 'Shared caches', slug })
      .expect(201);
    const id = created.body.data.id as number;
    await a.t.http
      .post(api(`/blog/posts/author/${id}/submit-for-review`))
      .set(author.auth)
      .expect(200);

    // Both instances hold / in their page cache: a second read renders nothing.
    for (const instance of [a, b]) {
      expect(await home(instance)).not.toContain(slug);
      const rendered = instance.renders.length;
      expect(await home(instance)).not.toContain(slug);
      expect(instance.renders.length).toBe(rendered);
    }

    await a.t.http
      .put(api(`/blog/posts/admin/${id}/review`))
      .set(admin.auth)
      .send({ status: 'APPROVED' })
      .expect(200);
    expect(await home(a)).toContain(slug);
    expect(await homeUntil(b, (html) => html.includes(slug))).toContain(slug);

    // Cached again on both, then the post is deleted through A.
    for (const instance of [a, b]) {
      const rendered = instance.renders.length;
      expect(await home(instance)).toContain(slug);
      expect(instance.renders.length).toBe(rendered);
    }
    await a.t.http
      .delete(api(`/blog/posts/${id}`))
      .set(admin.auth)
      .expect(204);
    expect(await home(a)).not.toContain(slug);
    expect(await homeUntil(b, (html) => !html.includes(slug))).not.toContain(slug);
  });

  it('a like on A is counted on B', async () => {
    const slug = `liked-${uid()}`;
    const post = await a.t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Liked ${slug}`, content: 'Like me', slug, status: 'PUBLISHED' })
      .expect(201);
    const id = post.body.data.id as number;
    expect((await b.t.http.get(api(`/likes/post/${id}/count`)).expect(200)).body.data.likeCount).toBe(0);
    await a.t.http
      .post(api(`/likes/post/${id}`))
      .set(reader.auth)
      .expect(200);
    expect((await b.t.http.get(api(`/likes/post/${id}/count`)).expect(200)).body.data.likeCount).toBe(1);
    expect(
      (
        await b.t.http
          .get(api(`/likes/post/${id}/status`))
          .set(reader.auth)
          .expect(200)
      ).body.data,
    ).toMatchObject({ liked: true, likeCount: 1 });
  });

  it("a like and a comment through A show at once in B's held answers: A answers only after B dropped them", async () => {
    const slug = `read-own-${uid()}`;
    const id = (
      await a.t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Read own ${slug}`, content: 'Body', slug, status: 'PUBLISHED' })
        .expect(201)
    ).body.data.id as number;
    const dropsOnB: ContentChange[] = [];
    const stop = b.t.app.get(ContentEvents).onChange((change) => dropsOnB.push(change));
    const onB = async () =>
      (await b.t.http.get(api(`/blog/posts/public/${slug}`)).expect(200)).body.data as { likeCount: number; commentCount: number };
    const quickOnB = async () =>
      (await b.t.http.get(api('/dashboard/quick-stats')).expect(200)).body.data as { totalLikes: number; totalComments: number };
    const counterDrops = (counter: string) =>
      dropsOnB.filter((change) => change.kind === 'post-counters' && change.postId === id && change.counter === counter).length;
    try {
      // Several rounds: each read on B right after A's answer, with no waiting.
      for (let round = 1; round <= 5; round++) {
        const liker = await createReader(a.t);
        const [post, quick] = [await onB(), await quickOnB()]; // held by B (5 s micro-caches)
        await a.t.http
          .post(api(`/likes/post/${id}/toggle`))
          .set(liker.auth)
          .expect(200);
        expect(counterDrops('likes')).toBe(round);
        await a.t.http
          .post(api('/comments'))
          .set(liker.auth)
          .send({ postId: id, content: `Round ${round}` })
          .expect(201);
        expect(counterDrops('comments')).toBe(round);
        expect(await onB()).toMatchObject({ likeCount: post.likeCount + 1, commentCount: post.commentCount + 1 });
        expect(await quickOnB()).toMatchObject({ totalLikes: quick.totalLikes + 1, totalComments: quick.totalComments + 1 });
      }
    } finally {
      stop();
    }
  });

  it("a post published, edited, unpublished and deleted through A is found (or gone) in B's very next search", async () => {
    // Random letters: two words alike enough would meet in the typo fallback.
    const letters = () => Array.from(randomBytes(14), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
    const [before, after] = [letters(), letters()];
    const searchOnB = async (q: string) =>
      ((await b.t.http.get(api('/blog/search')).query({ q }).expect(200)).body.data as { content: { id: number }[] }).content.map(
        (hit) => hit.id,
      );
    const id = (
      await a.t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Searched ${before}`, content: 'Body', status: 'DRAFT' })
        .expect(201)
    ).body.data.id as number;
    expect(await searchOnB(before)).toEqual([]); // held by B (5 s)
    await a.t.http
      .put(api(`/blog/posts/${id}`))
      .set(admin.auth)
      .send({ title: `Searched ${before}`, content: 'Body', status: 'PUBLISHED' })
      .expect(200);
    expect(await searchOnB(before)).toEqual([id]);
    expect(await searchOnB(after)).toEqual([]);
    await a.t.http
      .put(api(`/blog/posts/${id}`))
      .set(admin.auth)
      .send({ title: `Searched ${after}`, content: 'Body', status: 'PUBLISHED' })
      .expect(200);
    expect(await searchOnB(before)).toEqual([]);
    expect(await searchOnB(after)).toEqual([id]);
    await a.t.http
      .put(api(`/blog/posts/${id}`))
      .set(admin.auth)
      .send({ title: `Searched ${after}`, content: 'Body', status: 'ARCHIVED' })
      .expect(200);
    expect(await searchOnB(after)).toEqual([]);
    await a.t.http
      .put(api(`/blog/posts/${id}`))
      .set(admin.auth)
      .send({ title: `Searched ${after}`, content: 'Body', status: 'PUBLISHED' })
      .expect(200);
    expect(await searchOnB(after)).toEqual([id]);
    await a.t.http
      .delete(api(`/blog/posts/${id}`))
      .set(admin.auth)
      .expect(204);
    expect(await searchOnB(after)).toEqual([]);
  });

  it('an avatar uploaded through A is served by B (one bucket)', async () => {
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#22aa66' } })
      .png()
      .toBuffer();
    const res = await a.t.http
      .post(api('/users/avatar'))
      .set(reader.auth)
      .attach('file', png, { filename: 'me.png', contentType: 'image/png' })
      .expect(200);
    const url: string = res.body.data.avatarUrl;
    const onA = await rawRequest(a.server, url);
    const onB = await rawRequest(b.server, url);
    expect(onB.status).toBe(200);
    expect(onB.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(onB.body.equals(onA.body)).toBe(true);
    expect((await sharp(onB.body).metadata()).width).toBe(512);
  });
});
