import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentChange, ContentEvents } from '../src/common/content-events';
import type { AstroHandler } from '../src/frontend/frontend.module';
import { PageCacheService } from '../src/frontend/page-cache.service';
import { RedisService } from '../src/redis/redis.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, ok, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { freePort } from './helpers/free-port';
import { redisServerForSuite, RedisTestServer, startRedisServer } from './helpers/redis-server';
import { createAdmin, TestUser } from './helpers/users';

/**
 * REDIS_URL against a real redis-server on a free port: two app instances in this
 * process on one database and one Redis. Rate-limit counters are shared, a content change on one
 * instance drops the other's caches over pub/sub (each instance drops once), and while Redis is
 * away both keep answering (health 'degraded', limits in process, caches cleared every second)
 * until ioredis reconnects by itself. Skipped when redis-server is not installed here; under CI
 * a missing redis-server fails the suite (.ci/run installs Debian's redis-server).
 */
const binary = redisServerForSuite('redis.e2e-spec');
const describeWithRedis = binary ? describe : describe.skip;

const JWT_SECRET = 'redis-e2e-shared-secret-of-at-least-32-characters';
const LIMIT_TEXT = 'Too many attempts. Please wait before trying again.';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, at most `limitMs` (the test then fails on its own assertion). */
async function until(check: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check()) && Date.now() < end) await sleep(10);
}

describeWithRedis('REDIS_URL: two instances, one Redis', () => {
  // Two apps per file; the whole suite on a loaded 2-core machine needs more than the 30 s default.
  jest.setTimeout(120_000);
  let redis: RedisTestServer;
  let a: TestApp;
  let b: TestApp;
  let admin: TestUser;
  let databaseUrl: string;
  const seenA: { at: number; change: ContentChange }[] = [];
  const seenB: { at: number; change: ContentChange }[] = [];
  const latencies: number[] = [];
  let clientDir: string;
  /** Pages each instance rendered (a page answered from its page cache renders nothing). */
  const renders = { a: 0, b: 0 };
  const pages =
    (name: 'a' | 'b'): AstroHandler =>
    async (_req, res) => {
      renders[name] += 1;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html lang="en"><head><title>Inkwell</title></head><body><main>render ${renders[name]}</main></body></html>`);
    };

  const redisUp = (t: TestApp) => t.app.get(RedisService).state === 'up';
  const postChanges = (seen: typeof seenA, id: number, since: number) =>
    seen.filter((s) => s.at >= since && s.change.kind === 'post' && s.change.postId === id);

  beforeAll(async () => {
    redis = await startRedisServer(binary);
    databaseUrl = await createFreshDatabase('redis');
    const env = { JWT_SECRET, REDIS_URL: redis.url, TRUST_PROXY: 'loopback' };
    clientDir = mkdtempSync(join(tmpdir(), 'inkwell-redis-client-'));
    a = await createTestApp({ databaseUrl, throttle: true, env, frontend: { handler: pages('a'), clientDir } });
    b = await createTestApp({ databaseUrl, throttle: true, env, frontend: { handler: pages('b'), clientDir } });
    await until(() => redisUp(a) && redisUp(b));
    a.app.get(ContentEvents).onChange((change) => seenA.push({ at: Date.now(), change }));
    b.app.get(ContentEvents).onChange((change) => seenB.push({ at: Date.now(), change }));
    admin = await createAdmin(a);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.close();
    if (clientDir) rmSync(clientDir, { recursive: true, force: true });
    if (latencies.length)
      console.log(`redis.e2e-spec: invalidation A → B over pub/sub (A's drop to B's): ${latencies.map((ms) => `${ms} ms`).join(', ')}`);
  });

  async function publishedPost(): Promise<{ id: number; slug: string }> {
    const slug = `shared-${uid()}`;
    const res = await a.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Before ${slug}`, content: 'Body', slug, status: 'PUBLISHED' })
      .expect(201);
    return { id: res.body.data.id as number, slug };
  }
  const rename = (id: number, title: string) =>
    a.http
      .put(api(`/blog/posts/${id}`))
      .set(admin.auth)
      .send({ title })
      .expect(200);
  const titleOn = async (t: TestApp, slug: string) =>
    (await t.http.get(api(`/blog/posts/public/${slug}`)).expect(200)).body.data.title as string;

  it('reports Redis in /health while it is up', async () => {
    const res = await a.http.get(api('/health')).expect(200);
    expect(res.body).toEqual(ok({ status: 'ok', database: 'up', migrations: 'applied', redis: 'up' }));
  });

  it('counts one rate limit across both instances (sign-in: 10 a minute per address)', async () => {
    const address = '10.99.0.1';
    // Another e-mail each time: the per-account limit never decides, only the per-address one.
    const signIn = (t: TestApp) =>
      t.http
        .post(api('/auth/login'))
        .set('X-Forwarded-For', address)
        .send({ email: `nobody-${uid()}@test.inkwell.test`, password: 'Wrong!Pass1' });
    for (let i = 0; i < 5; i++) {
      expect((await signIn(a)).status).toBe(401);
      expect((await signIn(b)).status).toBe(401);
    }
    // Counted per instance, A would allow 5 more.
    const limited = await signIn(a);
    expect([limited.status, limited.body.message]).toEqual([429, LIMIT_TEXT]);
    expect((await signIn(b)).status).toBe(429);
    // Another address is not affected.
    expect(
      (
        await b.http
          .post(api('/auth/login'))
          .set('X-Forwarded-For', '10.99.0.2')
          .send({ email: `x-${uid()}@test.inkwell.test`, password: 'Wrong!Pass1' })
      ).status,
    ).toBe(401);
  });

  it("shares the resend cool-down of unknown addresses, like a pending account's (no enumeration across instances)", async () => {
    const email = `phantom-${uid()}@test.inkwell.test`;
    const resend = (t: TestApp, address: string) =>
      t.http.post(api('/auth/resend-verification')).set('X-Forwarded-For', address).send({ email });
    expect((await resend(a, '10.99.3.1')).status).toBe(200);
    const again = await resend(b, '10.99.3.2');
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^Please wait (60|59|58) seconds before requesting a new code\.$/);
  });

  it("drops B's cached answers when A changes content; each instance drops once", async () => {
    const post = await publishedPost();
    // B keeps the public answer for 5 s (micro-cache) and its anonymous home page until a notice.
    expect(await titleOn(b, post.slug)).toBe(`Before ${post.slug}`);
    await b.http.get('/').expect(200);
    const rendered = renders.b;
    await b.http.get('/').expect(200);
    expect(renders.b).toBe(rendered);
    expect(b.app.get(PageCacheService).cache.size).toBeGreaterThan(0);
    const since = Date.now();
    await rename(post.id, `After ${post.slug}`);
    await until(() => postChanges(seenB, post.id, since).length > 0);
    // From A's own drop (just before it publishes) to B's.
    latencies.push(postChanges(seenB, post.id, since)[0].at - postChanges(seenA, post.id, since)[0].at);
    expect(b.app.get(PageCacheService).cache.size).toBe(0);
    expect(await titleOn(b, post.slug)).toBe(`After ${post.slug}`);
    await b.http.get('/').expect(200);
    expect(renders.b).toBe(rendered + 1);
    // A delivered its own change locally and ignored its echo; B got it once.
    await sleep(200);
    expect(postChanges(seenA, post.id, since)).toHaveLength(1);
    expect(postChanges(seenB, post.id, since)).toHaveLength(1);
  });

  it('keeps serving while Redis is away (health degraded, no 500), and reconnects by itself', async () => {
    const post = await publishedPost();
    expect(await titleOn(b, post.slug)).toBe(`Before ${post.slug}`);

    await redis.kill();
    await until(() => !redisUp(a) && !redisUp(b));
    const health = await a.http.get(api('/health')).expect(200);
    expect(health.body).toEqual(ok({ status: 'degraded', database: 'up', migrations: 'applied', redis: 'down' }));
    // Reads, rate-limited routes and writes keep working; limits are counted in process.
    await a.http.get(api('/blog/posts/public')).expect(200);
    await b.http.get(api('/blog/posts/public')).expect(200);
    const signIn = await b.http
      .post(api('/auth/login'))
      .set('X-Forwarded-For', '10.99.1.1')
      .send({ email: `down-${uid()}@test.inkwell.test`, password: 'Wrong!Pass1' });
    expect(signIn.status).toBe(401);
    const renamedAt = Date.now();
    await rename(post.id, `Offline ${post.slug}`);
    // The notice cannot reach B, but B clears its caches every second while Redis is away.
    await until(() => seenB.some((s) => s.at > renamedAt && s.change.kind === 'resync'));
    expect(postChanges(seenB, post.id, renamedAt)).toHaveLength(0);
    expect(await titleOn(b, post.slug)).toBe(`Offline ${post.slug}`);

    await redis.restart();
    await until(() => redisUp(a) && redisUp(b));
    expect((await b.http.get(api('/health')).expect(200)).body).toEqual(
      ok({ status: 'ok', database: 'up', migrations: 'applied', redis: 'up' }),
    );
    // Back on pub/sub: the outage clearing stopped, and notices flow again.
    await sleep(1_500);
    const resyncsAfter = Date.now();
    await sleep(1_500);
    expect(seenB.filter((s) => s.at > resyncsAfter && s.change.kind === 'resync')).toHaveLength(0);
    const since = Date.now();
    await rename(post.id, `Online ${post.slug}`);
    await until(() => postChanges(seenB, post.id, since).length > 0);
    expect(postChanges(seenB, post.id, since)).toHaveLength(1);
    latencies.push(postChanges(seenB, post.id, since)[0].at - postChanges(seenA, post.id, since)[0].at);
    expect(await titleOn(b, post.slug)).toBe(`Online ${post.slug}`);
  });

  // Last: Passport keeps one 'jwt' strategy per process, the last app's; after C closes, A and B
  // would check tokens with C's closed database connection.
  it('starts, serves and stops while Redis cannot be reached at all', async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const c = await createTestApp({ databaseUrl, throttle: true, env: { JWT_SECRET, REDIS_URL: nowhere } });
    try {
      const health = await c.http.get(api('/health')).expect(200);
      expect(health.body).toEqual(ok({ status: 'degraded', database: 'up', migrations: 'applied', redis: 'down' }));
      await c.http.get(api('/blog/posts/public')).expect(200);
      const signIn = await c.http
        .post(api('/auth/login'))
        .set('X-Forwarded-For', '10.99.2.1')
        .send({ email: `never-${uid()}@test.inkwell.test`, password: 'Wrong!Pass1' });
      expect(signIn.status).toBe(401);
    } finally {
      await c.close();
    }
  });
});
