import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from './helpers/app';
import { api, tooMany, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { redisServerForSuite, RedisTestServer, startRedisServer } from './helpers/redis-server';
import { createAdmin, createReader, TestUser } from './helpers/users';

/**
 * The per-user comment limit (COMMENT_LIMIT_PER_MINUTE / COMMENT_LIMIT_PER_DAY): past it a user's
 * comments are 429 with the spec's text and Retry-After, from any address, and nothing is written.
 */
const LIMIT_TEXT = 'Too many attempts. Please wait before trying again.';

async function publishedPost(t: TestApp, admin: TestUser): Promise<number> {
  const res = await t.http
    .post(api('/blog/posts'))
    .set(admin.auth)
    .send({ title: `Limited ${uid()}`, content: 'Body', status: 'PUBLISHED' })
    .expect(201);
  return res.body.data.id as number;
}

const commentsBy = async (t: TestApp, user: TestUser) =>
  Number(((await t.app.get(DataSource).query('SELECT count(*) AS n FROM comments WHERE user_id = $1', [user.id])) as { n: string }[])[0].n);

describe('Per-user comment limit', () => {
  let t: TestApp;
  let admin: TestUser;
  let postId: number;
  beforeAll(async () => {
    t = await createTestApp({ throttle: true, env: { COMMENT_LIMIT_PER_MINUTE: '3', COMMENT_LIMIT_PER_DAY: '1000' } });
    admin = await createAdmin(t);
    postId = await publishedPost(t, admin);
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the minute limit, counting both comment routes, and writes nothing', async () => {
    const spammer = await createReader(t);
    await t.http.post(api('/comments')).set(spammer.auth).send({ postId, content: 'one' }).expect(201);
    await t.http
      .post(api(`/blog/posts/${postId}/comments`))
      .set(spammer.auth)
      .send({ content: 'two' })
      .expect(201);
    await t.http.post(api('/comments')).set(spammer.auth).send({ postId, content: 'three' }).expect(201);
    for (const send of [
      () => t.http.post(api('/comments')).set(spammer.auth).send({ postId, content: 'four' }),
      () =>
        t.http
          .post(api(`/blog/posts/${postId}/comments`))
          .set(spammer.auth)
          .send({ content: 'five' }),
    ]) {
      const res = await send();
      expect(res.status).toBe(429);
      expect(res.body).toEqual(tooMany(LIMIT_TEXT, res.headers['retry-after']));
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    expect(await commentsBy(t, spammer)).toBe(3);
  });

  it('counts per user, not per address: another user on the same address still comments', async () => {
    const first = await createReader(t);
    const second = await createReader(t);
    for (let i = 0; i < 3; i++)
      await t.http
        .post(api('/comments'))
        .set(first.auth)
        .send({ postId, content: `mine ${i}` })
        .expect(201);
    await t.http.post(api('/comments')).set(first.auth).send({ postId, content: 'too many' }).expect(429);
    await t.http.post(api('/comments')).set(second.auth).send({ postId, content: 'my first' }).expect(201);
  });

  it('leaves reading, editing and deleting comments alone', async () => {
    const user = await createReader(t);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await t.http
            .post(api('/comments'))
            .set(user.auth)
            .send({ postId, content: `c ${i}` })
            .expect(201)
        ).body.data.id,
      );
    await t.http.post(api('/comments')).set(user.auth).send({ postId, content: 'over' }).expect(429);
    await t.http
      .put(api(`/comments/${ids[0]}`))
      .set(user.auth)
      .send({ content: 'edited' })
      .expect(200);
    await t.http
      .delete(api(`/comments/${ids[1]}`))
      .set(user.auth)
      .expect(204);
    await t.http.get(api(`/comments/post/${postId}`)).expect(200);
  });
});

describe('Per-user comment limit: the day', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ throttle: true, env: { COMMENT_LIMIT_PER_MINUTE: '100', COMMENT_LIMIT_PER_DAY: '4' } });
  });
  afterAll(() => t.close());

  it('answers 429 past the day limit, with Retry-After up to a day', async () => {
    const postId = await publishedPost(t, await createAdmin(t));
    const user = await createReader(t);
    for (let i = 0; i < 4; i++)
      await t.http
        .post(api('/comments'))
        .set(user.auth)
        .send({ postId, content: `day ${i}` })
        .expect(201);
    const res = await t.http.post(api('/comments')).set(user.auth).send({ postId, content: 'day 5' }).expect(429);
    expect(res.body).toEqual(tooMany(LIMIT_TEXT, res.headers['retry-after']));
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(60);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(24 * 60 * 60);
    expect(await commentsBy(t, user)).toBe(4);
  });
});

const binary = redisServerForSuite('comment-limit.e2e-spec', 'the two-instance case is skipped');
(binary ? describe : describe.skip)('Per-user comment limit across instances (REDIS_URL)', () => {
  jest.setTimeout(120_000);
  let redis: RedisTestServer;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await startRedisServer(binary);
    const databaseUrl = await createFreshDatabase('comment-limit');
    const env = { JWT_SECRET: 'comment-limit-shared-secret-of-32-characters-or-more', REDIS_URL: redis.url, COMMENT_LIMIT_PER_MINUTE: '4' };
    a = await createTestApp({ databaseUrl, throttle: true, env });
    b = await createTestApp({ databaseUrl, throttle: true, env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.close();
  });

  it('counts one user once across both instances', async () => {
    const postId = await publishedPost(a, await createAdmin(a));
    const user = await createReader(a);
    // Wait for both instances' Redis connections: the first hits go to the shared counter only once it is ready.
    for (const t of [a, b]) {
      while ((await t.http.get(api('/health'))).body.data.redis !== 'up') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (let i = 0; i < 2; i++) {
      await a.http
        .post(api('/comments'))
        .set(user.auth)
        .send({ postId, content: `a ${i}` })
        .expect(201);
      await b.http
        .post(api('/comments'))
        .set(user.auth)
        .send({ postId, content: `b ${i}` })
        .expect(201);
    }
    // Counted per instance, each would allow 2 more.
    await a.http.post(api('/comments')).set(user.auth).send({ postId, content: 'a over' }).expect(429);
    await b.http.post(api('/comments')).set(user.auth).send({ postId, content: 'b over' }).expect(429);
  });
});
