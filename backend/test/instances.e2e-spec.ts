import { DataSource } from 'typeorm';
import { SessionsService } from '../src/sessions/sessions.service';
import { ImagesService } from '../src/images/images.service';
import { ThumbnailSweeper } from '../src/images/thumbnail-sweeper';
import { PostViewsService } from '../src/post-views/post-views.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { createAdmin, createReader } from './helpers/users';

/**
 * Two instances of the app on one database, without Redis: what is kept in
 * PostgreSQL is already shared (the per-account sign-in limit, the refresh-token grace state),
 * view counts flushed by several instances add up exactly, and the thumbnail sweep runs on one
 * instance only (advisory lock). The database is this file's own, so that no other test file's
 * app holds the sweep's lock.
 */
const JWT_SECRET = 'instances-e2e-shared-secret-of-at-least-32-chars';
const LIMIT_TEXT = 'Too many attempts. Please wait before trying again.';

let lastAddress = 0;
/** A client address no earlier request used (so the per-address rate limit never decides). */
function nextAddress(): string {
  lastAddress += 1;
  return `10.77.${(lastAddress >> 8) & 255}.${lastAddress & 255}`;
}

describe('Several instances on one database', () => {
  // Two apps per file; the whole suite on a loaded 2-core machine needs more than the 30 s default.
  jest.setTimeout(120_000);
  let databaseUrl: string;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    databaseUrl = await createFreshDatabase('instances');
    a = await createTestApp({ databaseUrl, throttle: true, env: { JWT_SECRET, TRUST_PROXY: 'loopback' } });
    b = await createTestApp({ databaseUrl, throttle: true, env: { JWT_SECRET, TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('shares the per-account sign-in limit: 10 failures spread over two instances lock the account on both', async () => {
    const email = `spread-${uid()}@test.inkwell.test`;
    const signIn = (t: TestApp) =>
      t.http.post(api('/auth/login')).set('X-Forwarded-For', nextAddress()).send({ email, password: 'Wrong!Pass1' });
    for (let i = 0; i < 5; i++) {
      expect((await signIn(a)).status).toBe(401);
      expect((await signIn(b)).status).toBe(401);
    }
    // Counted per instance, each would have allowed 5 more.
    const onA = await signIn(a);
    const onB = await signIn(b);
    expect([onA.status, onA.body.message]).toEqual([429, LIMIT_TEXT]);
    expect([onB.status, onB.body.message]).toEqual([429, LIMIT_TEXT]);
  });

  it('shares the refresh grace state: a token rotated on A and presented on B within the grace gets the same successor', async () => {
    const reader = await createReader(a);
    const started = await a.app.get(SessionsService).start(reader.id, false, {});
    const [first, second] = await Promise.all([
      a.app.get(SessionsService).rotate(started.token, {}),
      b.app.get(SessionsService).rotate(started.token, {}),
    ]);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.issued.token).toBe(first.issued.token);
    // Later uses on either instance: still the same successor, never a second one.
    const third = await b.app.get(SessionsService).rotate(started.token, {});
    expect(third.ok && third.issued.token).toBe(first.issued.token);
    const rows = (await a.app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM refresh_sessions WHERE family_id = $1', [started.familyId])) as { n: number }[];
    expect(rows[0].n).toBe(2);
  });

  it('adds up view counts recorded and flushed by two instances at once, none lost or doubled', async () => {
    const admin = await createAdmin(a);
    const slug = `viewed-${uid()}`;
    const created = await a.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Viewed ${slug}`, content: 'Body', slug, status: 'PUBLISHED' })
      .expect(201);
    const id = created.body.data.id as number;
    const viewsA = a.app.get(PostViewsService);
    const viewsB = b.app.get(PostViewsService);
    // Views through the API on both instances, plus the page cache's by-slug path, flushed
    // concurrently and repeatedly while more views arrive.
    const reads = [];
    for (let i = 0; i < 20; i++)
      reads.push(a.http.get(api(`/blog/posts/public/${slug}`)).expect(200), b.http.get(api(`/blog/posts/public/${slug}`)).expect(200));
    await Promise.all(reads);
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 30; i++) viewsA.count(id);
      for (let i = 0; i < 20; i++) viewsB.count(slug);
      await Promise.all([viewsA.flush(), viewsB.flush(), viewsA.flush(), viewsB.flush()]);
    }
    await Promise.all([viewsA.flush(), viewsB.flush()]);
    const rows = (await a.app.get(DataSource).query('SELECT view_count FROM posts WHERE id = $1', [id])) as { view_count: number }[];
    expect(rows[0].view_count).toBe(40 + 10 * 30 + 10 * 20);
  });

  it('runs the thumbnail sweep on one instance only; the other takes over when it stops', async () => {
    const sweepers = [a, b].map((t) => t.app.get(ThumbnailSweeper));
    // Both asked at start-up; exactly one holds the lock.
    await Promise.all(sweepers.map((s) => s.trigger()));
    expect(sweepers.filter((s) => s.lock?.held)).toHaveLength(1);
    const locks = (await a.app.get(DataSource).query(
      `SELECT count(*)::int AS n FROM pg_locks
       WHERE locktype = 'advisory' AND classid = $1 AND objid = 1 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [0x696e6b77],
    )) as { n: number }[];
    expect(locks[0].n).toBe(1);

    const sweeps = [a, b].map((t) => jest.spyOn(t.app.get(ImagesService), 'sweepOrphans'));
    await Promise.all(sweepers.map((s) => s.trigger()));
    await Promise.all(sweepers.map((s) => s.trigger()));
    const holder = sweepers[0].lock?.held ? 0 : 1;
    const other = 1 - holder;
    expect(sweeps[holder]).toHaveBeenCalledTimes(2);
    expect(sweeps[other]).not.toHaveBeenCalled();

    // The holder stops (its lock connection ends): the other instance's next run takes over.
    await sweepers[holder].lock?.release();
    await sweepers[other].trigger();
    expect(sweepers[other].lock?.held).toBe(true);
    expect(sweeps[other]).toHaveBeenCalledTimes(1);
    await sweepers[holder].trigger();
    expect(sweepers[holder].lock?.held).toBe(false);
    expect(sweeps[holder]).toHaveBeenCalledTimes(2);
  });
});
