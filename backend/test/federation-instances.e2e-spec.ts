import passport from 'passport';
import { DataSource } from 'typeorm';
import { JwtStrategy } from '../src/auth/guards/jwt.strategy';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { FEDIFY_RUNS } from './helpers/fediverse-peer';
import { createFreshDatabase } from './helpers/fresh-database';
import { createAdmin, createAuthor, TestUser } from './helpers/users';
import { freePort } from './helpers/free-port';

jest.setTimeout(90_000);

const AP = 'application/activity+json';

/** Polls `read` every 100 ms until `test` holds (at most 20 s). */
async function until<T>(read: () => Promise<T>, test: (value: T) => boolean): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (test(value)) return value;
    if (Date.now() - started > 20_000) throw new Error(`not reached: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Instance {
  t: TestApp;
  db: DataSource;
  base: string;
  host: string;
  author: TestUser;
}

/** One Inkwell: its own database and PUBLIC_URL, listening over HTTP on loopback. */
async function startInstance(name: string): Promise<Instance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    databaseUrl: await createFreshDatabase(`inkwell_federation_${name}`),
    env: { PUBLIC_URL: base, FEDERATION_ALLOW_PRIVATE: '1', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '1' },
  });
  await t.app.listen(port, '127.0.0.1');
  return { t, db: t.app.get(DataSource), base, host: `127.0.0.1:${port}`, author: await createAdmin(t) };
}

/**
 * Two Inkwell instances following each other (docs/federation.md#following): two apps, two
 * databases, two PUBLIC_URLs on loopback, talking ActivityPub over real HTTP as they do with
 * Mastodon. B's author follows A's author (by the author page's address), A's author follows B's
 * (by the actor WebFinger gives): each Follow is signed by its sender and verified by the other
 * instance, each Accept too; then a post published on either arrives, signed, at the other's
 * shared inbox; an unfollow (Undo) removes the follower. Fedify needs Node >= 22: skipped on 20.
 */
(FEDIFY_RUNS ? describe : describe.skip)('Two Inkwell instances following each other (Node >= 22: Fedify)', () => {
  let a: Instance;
  let b: Instance;
  let bFollowsA: number;

  beforeAll(async () => {
    [a, b] = await Promise.all([startInstance('a'), startInstance('b')]);
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  /**
   * Passport keeps one 'jwt' strategy per process (the last app started registered its own): the
   * instance about to be called gets its own back first. Two real servers would each have theirs.
   */
  const as = (i: Instance) => {
    passport.use(i.t.app.get(JwtStrategy, { strict: false }));
    return i.t.http;
  };
  const me = (i: Instance) => as(i).get(api('/federation/me')).set(i.author.auth).expect(200);
  const following = (i: Instance) => as(i).get(api('/federation/me/following')).set(i.author.auth).expect(200);

  it("B's author follows A's author: the Follow is verified and accepted by A, the Accept verified by B", async () => {
    const res = await as(b)
      .post(api('/federation/me/following'))
      .set(b.author.auth)
      .send({ account: `${a.base}/authors/${a.author.slug}` })
      .expect(201);
    expect(res.body.message).toBe('Follow sent: it is pending until the other server accepts it.');
    expect(res.body.data).toMatchObject({ handle: `@${a.author.slug}@${a.host}`, name: a.author.fullName, host: a.host });
    expect(['PENDING', 'ACCEPTED']).toContain(res.body.data.state);
    bFollowsA = res.body.data.id;

    // A has B's author as a follower (it fetched B's actor and verified the Follow's signature with its key) ...
    const onA = await until(
      () => me(a),
      (r) => r.body.data.followerCount === 1,
    );
    expect(onA.body.data.followers[0]).toMatchObject({
      uri: `${b.base}/ap/actors/${b.author.id}`,
      handle: `@${b.author.slug}@${b.host}`,
      name: b.author.fullName,
      host: b.host,
    });
    // ... and B received A's Accept (signed by A's author, verified by B).
    await until(
      () => following(b),
      (r) => r.body.data[0]?.state === 'ACCEPTED',
    );
    // Following again changes nothing and sends nothing more.
    await as(b)
      .post(api('/federation/me/following'))
      .set(b.author.auth)
      .send({ account: `${a.base}/ap/actors/${a.author.id}` })
      .expect(201);
    const follows = (await b.db.query(`SELECT count(*)::int AS n FROM federation_activities WHERE type = 'Follow'`)) as { n: number }[];
    expect(follows[0].n).toBe(1);
  });

  it("A's author follows B's author back, found by WebFinger: both follow each other; the actors' following collections say so", async () => {
    const webfinger = await b.t.http.get(`/.well-known/webfinger?resource=acct:${b.author.slug}@${b.host}`).expect(200);
    const self = webfinger.body.links.find((link: { rel: string; type?: string }) => link.rel === 'self' && link.type === AP);
    await as(a).post(api('/federation/me/following')).set(a.author.auth).send({ account: self.href }).expect(201);
    await until(
      () => following(a),
      (r) => r.body.data[0]?.state === 'ACCEPTED',
    );
    const onB = await me(b);
    expect(onB.body.data.followerCount).toBe(1);
    expect(onB.body.data.followers[0].handle).toBe(`@${a.author.slug}@${a.host}`);

    const actorOfA = await a.t.http.get(`/ap/actors/${a.author.id}`).set('Accept', AP).expect(200);
    expect(actorOfA.body.following).toBe(`${a.base}/ap/actors/${a.author.id}/following`);
    const followingOfA = await a.t.http.get(`/ap/actors/${a.author.id}/following`).set('Accept', AP).expect(200);
    expect(followingOfA.body.totalItems).toBe(1);
    // A local account is not followed through the fediverse.
    await as(a)
      .post(api('/federation/me/following'))
      .set(a.author.auth)
      .send({ account: `${a.base}/ap/actors/${a.author.id}` })
      .expect(400)
      .then((r) => expect(r.body.message).toBe('That account is on this site.'));
    await as(a)
      .post(api('/federation/me/following'))
      .set(a.author.auth)
      .send({ account: `${b.base}/authors/nobody-${uid()}` })
      .expect(404)
      .then((r) => expect(r.body.message).toBe('No fediverse account was found at that address.'));
  });

  it("an author whose slug is the publication's handle (`blog`) is @blog_{id}: WebFinger's acct:blog stays the publication's", async () => {
    const shadowed = await createAuthor(a.t);
    await a.db.query(`UPDATE users SET slug = 'blog' WHERE id = $1`, [shadowed.id]);
    const finger = (resource: string) => a.t.http.get(`/.well-known/webfinger?resource=acct:${resource}@${a.host}`);
    const selfOf = (res: { body: { links: { rel: string; type?: string; href: string }[] } }) =>
      res.body.links.find((link) => link.rel === 'self' && link.type === AP)?.href;
    expect(selfOf(await finger('blog').expect(200))).toBe(`${a.base}/ap/actors/site`);
    expect(selfOf(await finger(`blog_${shadowed.id}`).expect(200))).toBe(`${a.base}/ap/actors/${shadowed.id}`);
    await finger(`blog_${a.author.id}`).expect(404); // only the shadowed author answers to blog_{id}
    const actor = await a.t.http.get('/authors/blog').set('Accept', AP).expect(200);
    expect(actor.body).toMatchObject({ id: `${a.base}/ap/actors/${shadowed.id}`, preferredUsername: `blog_${shadowed.id}` });
    const mine = await as(a).get(api('/federation/me')).set(shadowed.auth).expect(200);
    expect(mine.body.data.handle).toBe(`@blog_${shadowed.id}@${a.host}`);
    // Another server knows the author by that name.
    const followed = await as(b)
      .post(api('/federation/me/following'))
      .set(b.author.auth)
      .send({ account: `${a.base}/authors/blog` })
      .expect(201);
    expect(followed.body.data.handle).toBe(`@blog_${shadowed.id}@${a.host}`);
    await as(b)
      .delete(api(`/federation/me/following/${followed.body.data.id}`))
      .set(b.author.auth)
      .expect(204);
  });

  it("a post published on either instance reaches the other's shared inbox, signed and accepted", async () => {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      await as(from)
        .post(api('/blog/posts'))
        .set(from.author.auth)
        .send({ title: `Between instances ${uid()}`, content: 'Hello from the other Inkwell', status: 'PUBLISHED' })
        .expect(201);
      const rows = await until(
        async () =>
          (await from.db.query(
            `SELECT d.inbox, d.status, d.last_error FROM federation_deliveries d JOIN federation_activities a ON a.id = d.activity_id
              WHERE a.type = 'Create'`,
          )) as { inbox: string; status: string; last_error: string | null }[],
        (r) => r.length === 1 && r[0].status !== 'PENDING' && r[0].status !== 'SENDING',
      );
      // DELIVERED: the other instance answered 2xx, which Fedify does only for a verified signature (401 otherwise).
      expect(rows).toEqual([{ inbox: `${to.base}/ap/inbox`, status: 'DELIVERED', last_error: null }]);
    }
  });

  it("B's author unfollows: A gets the Undo (verified) and no longer has B's author as a follower", async () => {
    await as(b)
      .delete(api(`/federation/me/following/${bFollowsA}`))
      .set(b.author.auth)
      .expect(204);
    expect((await following(b)).body.data).toEqual([]);
    await until(
      () => me(a),
      (r) => r.body.data.followerCount === 0,
    );
    await as(b)
      .delete(api(`/federation/me/following/${bFollowsA}`))
      .set(b.author.auth)
      .expect(404)
      .then((r) => expect(r.body.message).toBe('You do not follow this account.'));
  });
});
