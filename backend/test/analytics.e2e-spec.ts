import type { Request, Response } from 'express';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ANSWER_TTL_MS } from '../src/analytics/analytics-query.service';
import { AnalyticsRollup } from '../src/analytics/analytics-rollup.service';
import { PageViewRecorder } from '../src/analytics/page-view-recorder.service';
import { sourceOf } from '../src/analytics/view-classes';
import { CLOCK, ShiftableClock } from '../src/common/clock';
import type { AstroHandler } from '../src/frontend/frontend.module';
import { PostViewsService } from '../src/post-views/post-views.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { rawRequest } from './helpers/raw-request';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DAY_MS = 86_400_000;

/** Stands in for Astro: a post page reads the post over loopback like the pages do (404 for an unknown one); other pages are 200. */
const renders: string[] = [];
const handler: AstroHandler = async (req: Request, res: Response) => {
  renders.push(req.originalUrl);
  const slug = /^\/blog\/([^/]+)$/.exec(req.path)?.[1];
  let status = 200;
  if (slug && slug !== 'tag') {
    const answer = await fetch(`http://127.0.0.1:${req.socket.localPort}/api/v1/blog/posts/public/${slug}`);
    status = answer.status;
    await answer.arrayBuffer();
  }
  res.writeHead(status, { 'content-type': 'text/html' });
  res.end(`<!doctype html><html><body>${req.path}</body></html>`);
};

interface ViewRow {
  kind: string;
  post_id: number | null;
  visitor: string | null;
  source: string;
  source_host: string;
  device: string;
}

/**
 * Cookie-free analytics, end to end (docs/analytics.md): which answered pages count, the visitor
 * hash and its daily salt, sources and devices, rollups against raw rows, retention, the API's
 * rules, ANALYTICS=off, and what a kill -9 loses.
 */
describe('Analytics: counting on the server', () => {
  let t: TestApp;
  let server: Server;
  let admin: TestUser;
  let author: TestUser;
  let reader: TestUser;
  let db: DataSource;
  let clock: ShiftableClock;

  beforeAll(async () => {
    t = await createTestApp({ frontend: { handler, clientDir: mkdtempSync(join(tmpdir(), 'inkwell-analytics-')) } });
    server = t.app.getHttpServer() as Server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    db = t.app.get(DataSource);
    const appClock = t.app.get(CLOCK);
    if (!(appClock instanceof ShiftableClock)) throw new Error('the app clock is not the shiftable system clock');
    clock = appClock;
    [admin, author, reader] = await Promise.all([createAdmin(t), createAuthor(t), createReader(t)]);
  });
  afterAll(() => t.close());
  afterEach(() => (clock.offsetMs = 0));

  async function publishedPost(by: TestUser = author): Promise<{ id: number; slug: string }> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Read ${token}`, content: 'x', slug: `read-${token}`, status: 'PUBLISHED' })
      .expect(201);
    if (by.id !== admin.id) await db.query('UPDATE posts SET author_id = $1 WHERE id = $2', [by.id, res.body.data.id]);
    return res.body.data;
  }

  const page = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    rawRequest(server, path, { 'user-agent': BROWSER, ...headers }, method);
  const flush = () => t.app.get(PageViewRecorder).flush();
  const viewsOfPost = async (id: number): Promise<ViewRow[]> => {
    await flush();
    return (await db.query(
      `SELECT page_kind AS kind, post_id, visitor::text AS visitor, source, source_host, device FROM analytics_views WHERE post_id = $1 ORDER BY ts`,
      [id],
    )) as ViewRow[];
  };
  const viewCount = async (id: number) => {
    await t.app.get(PostViewsService).flush();
    return Number(((await db.query('SELECT view_count FROM posts WHERE id = $1', [id])) as { view_count: number }[])[0].view_count);
  };

  it('counts GETs of public pages answered 200 or 304, rendered or cached; not HEAD, bots, prefetches, 404s, the author or admins', async () => {
    const post = await publishedPost();
    const path = `/blog/${post.slug}`;
    const first = await page(path); // rendered
    expect(first.status).toBe(200);
    await page(path); // cached (fast path)
    await page(path, { 'if-none-match': first.headers.etag! }); // 304 of the cached page
    await page(path, { cookie: `inkwell_access=${reader.token}` }); // a signed-in reader: counted
    await page(path, {}, 'HEAD');
    await page(path, { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
    await page(path, { 'user-agent': '' });
    await page(path, { 'sec-purpose': 'prefetch' });
    await page(path, { 'sec-purpose': 'prefetch;prerender' });
    await page(path, { purpose: 'prefetch' });
    await page(path, { cookie: `inkwell_access=${author.token}` }); // the post's author
    await page(path, { cookie: `inkwell_access=${admin.token}` }); // an administrator
    await page(`${path}-missing`); // 404
    expect(renders.filter((rendered) => rendered === path)).toHaveLength(1);
    const rows = await viewsOfPost(post.id);
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.kind === 'post' && row.device === 'desktop' && row.source === 'direct')).toBe(true);
    // The post's view count keeps its own rules: every answered GET or HEAD of the page (12 here, the 404 aside).
    expect(await viewCount(post.id)).toBe(12);
  });

  it('keeps the views for the next flush when the database fails the salt or the INSERT', async () => {
    const post = await publishedPost();
    const recorder = t.app.get(PageViewRecorder);
    await flush();
    // A day whose salt is not held yet: the flush must read it from the database first.
    clock.offsetMs = 40 * DAY_MS;
    // The database refuses the statements that name `refused` (once each time it is set).
    let refused: string | undefined = 'analytics_salts';
    const query = db.query.bind(db);
    const away = jest.spyOn(db, 'query').mockImplementation((sql: string, ...rest: unknown[]) => {
      if (refused && sql.includes(refused)) {
        refused = undefined;
        return Promise.reject(new Error('database away'));
      }
      return (query as (...args: unknown[]) => Promise<unknown>)(sql, ...rest);
    });
    await page(`/blog/${post.slug}`);
    await page(`/blog/${post.slug}`, { 'user-agent': PHONE });
    await flush();
    expect(refused).toBeUndefined();
    expect(recorder.pendingCount).toBe(2);
    refused = 'INSERT INTO analytics_views';
    await page(`/blog/${post.slug}`);
    await flush(); // the salt is read, the INSERT fails: the classified views wait
    expect(refused).toBeUndefined();
    expect(recorder.pendingCount).toBe(3);
    away.mockRestore();
    await flush();
    expect(recorder.pendingCount).toBe(0);
    const rows = (await db.query(`SELECT device FROM analytics_views WHERE post_id = $1 ORDER BY device`, [post.id])) as {
      device: string;
    }[];
    expect(rows.map((row) => row.device)).toEqual(['desktop', 'desktop', 'mobile']);
  });

  it("an author's view of someone else's post counts; a forged session cookie is an anonymous reader", async () => {
    const other = await createAuthor(t);
    const post = await publishedPost();
    await page(`/blog/${post.slug}`, { cookie: `inkwell_access=${other.token}` });
    await page(`/blog/${post.slug}`, { cookie: `inkwell_access=${admin.token.slice(0, -3)}abc` });
    expect(await viewsOfPost(post.id)).toHaveLength(2);
  });

  it('counts the public pages by kind (home, list, tag, authors, author, search), not feeds or sitemaps', async () => {
    const marker = `kinds-${uid()}.example`;
    const referer = { referer: `https://${marker}/x` };
    for (const path of ['/', '/blog', '/tag/web', '/authors', `/authors/${author.slug}`, '/search?q=x', '/rss.xml', '/sitemap.xml'])
      await page(path, referer);
    await flush();
    const rows = (await db.query(`SELECT page_kind FROM analytics_views WHERE source_host = $1 ORDER BY page_kind`, [marker])) as {
      page_kind: string;
    }[];
    expect(rows.map((row) => row.page_kind)).toEqual(['author', 'authors', 'home', 'list', 'search', 'tag']);
  });

  it('one visitor a day: the same address and browser twice is one hash, another browser another; the next day the salt differs', async () => {
    const post = await publishedPost();
    const path = `/blog/${post.slug}`;
    await page(path);
    await page(path);
    await page(path, { 'user-agent': PHONE });
    clock.offsetMs = DAY_MS;
    await page(path);
    const rows = await viewsOfPost(post.id);
    expect(rows.map((row) => row.device)).toEqual(['desktop', 'desktop', 'mobile', 'desktop']);
    expect(rows[0].visitor).toBe(rows[1].visitor);
    expect(rows[2].visitor).not.toBe(rows[0].visitor);
    expect(rows[3].visitor).not.toBe(rows[0].visitor);
    const days = (await db.query(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM analytics_salts ORDER BY day`)) as { day: string }[];
    expect(days.map((row) => row.day)).toContain(new Date(Date.now() + DAY_MS).toISOString().slice(0, 10));
    // Nothing in a row names the reader: no address, no user agent, no account.
    const columns = (await db.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'analytics_views' ORDER BY ordinal_position`,
    )) as { column_name: string }[];
    expect(columns.map((row) => row.column_name)).toEqual([
      'ts',
      'post_id',
      'author_id',
      'page_kind',
      'visitor',
      'source',
      'source_host',
      'device',
    ]);
  });

  it('Sec-GPC: 1 and DNT: 1 are honoured: the view counts, with no visitor hash', async () => {
    const post = await publishedPost();
    await page(`/blog/${post.slug}`, { 'sec-gpc': '1' });
    await page(`/blog/${post.slug}`, { dnt: '1' });
    await page(`/blog/${post.slug}`);
    const rows = await viewsOfPost(post.id);
    expect(rows.map((row) => row.visitor === null)).toEqual([true, true, false]);
  });

  it('groups sources: direct, search, social, fediverse (instance or ref), newsletter (ref), internal, other sites', async () => {
    const post = await publishedPost();
    const path = `/blog/${post.slug}`;
    await page(path);
    await page(path, { referer: 'https://www.google.com/' });
    await page(path, { referer: 'https://duckduckgo.com/' });
    await page(path, { referer: 'https://t.co/abc' });
    await page(path, { referer: 'https://mastodon.social/' });
    await page(path, { referer: 'https://example.net/@alice/111222333' });
    await page(`${path}?ref=fediverse`, { referer: 'https://my.instance.example/' });
    await page(`${path}?ref=newsletter&utm_medium=email`);
    await page(path, { referer: 'http://localhost:3000/blog' });
    await page(path, { referer: 'https://friend.example.org/links' });
    const rows = await viewsOfPost(post.id);
    expect(rows.map((row) => [row.source, row.source_host])).toEqual([
      ['direct', ''],
      ['search', 'google.com'],
      ['search', 'duckduckgo.com'],
      ['social', 't.co'],
      ['fediverse', 'mastodon.social'],
      ['fediverse', 'example.net'],
      ['fediverse', 'my.instance.example'],
      ['newsletter', ''],
      ['internal', ''],
      ['other', 'friend.example.org'],
    ]);
    // ?ref= and utm_* never change the page: the newsletter's links are cache hits.
    expect(renders.filter((rendered) => rendered.startsWith(path))).toHaveLength(1);
    expect(sourceOf('/x', 'https://fosstodon.org/', 'localhost').group).toBe('fediverse');
    expect(sourceOf('/x', 'https://www.bing.com/search?q=1', 'localhost')).toEqual({ group: 'search', host: 'bing.com' });
    expect(sourceOf('/x', 'not a url', 'localhost').group).toBe('direct');
  });

  it("the API: an author reads their own figures and posts (403 for another's, 404 for none); the site and per-author figures are the admin's", async () => {
    const post = await publishedPost();
    await page(`/blog/${post.slug}`);
    await flush();
    const own = await t.http
      .get(api(`/analytics/posts/${post.id}`))
      .set(author.auth)
      .expect(200);
    expect(own.body.data.totals.views).toBeGreaterThanOrEqual(1);
    expect(own.body.data.series).toHaveLength(30);
    const other = await createAuthor(t);
    const refused = await t.http
      .get(api(`/analytics/posts/${post.id}`))
      .set(other.auth)
      .expect(403);
    expect(refused.body.message).toBe('You can only see the statistics of your own posts.');
    await t.http.get(api('/analytics/posts/999999999')).set(author.auth).expect(404);
    await t.http
      .get(api(`/analytics/posts/${post.id}`))
      .set(admin.auth)
      .expect(200);
    await t.http.get(api('/analytics/me')).set(reader.auth).expect(403);
    await t.http.get(api('/analytics/me')).expect(401);
    const bad = await t.http.get(api('/analytics/me?days=0')).set(author.auth).expect(400);
    expect(JSON.stringify(bad.body)).toContain('days must be a whole number from 1 to 365');
    await t.http.get(api('/admin/analytics')).set(author.auth).expect(403);
    const site = await t.http.get(api('/admin/analytics?days=7')).set(admin.auth).expect(200);
    expect(site.body.data.authors.map((row: { authorId: number }) => row.authorId)).toContain(author.id);
    const byAuthor = await t.http
      .get(api(`/admin/analytics/authors/${author.id}?days=7`))
      .set(admin.auth)
      .expect(200);
    expect(byAuthor.body.data.authorName).toBe(author.fullName);
    await t.http.get(api('/admin/analytics/authors/999999999')).set(admin.auth).expect(404);

    // API tokens: `read` is enough for one's own figures; the site's need `admin`.
    const token = async (owner: TestUser, scopes: string[]) => {
      const res = await t.http
        .post(api('/account/tokens'))
        .set(owner.auth)
        .send({ name: `Stats ${uid()}`, scopes, expiresInDays: 30 })
        .expect(201);
      return { Authorization: `Bearer ${res.body.data.token as string}` };
    };
    await t.http
      .get(api('/analytics/me'))
      .set(await token(author, ['read']))
      .expect(200);
    await t.http
      .get(api(`/analytics/posts/${post.id}`))
      .set(await token(author, ['read']))
      .expect(200);
    await t.http
      .get(api('/admin/analytics'))
      .set(await token(admin, ['read']))
      .expect(403);
    await t.http
      .get(api('/admin/analytics'))
      .set(await token(admin, ['read', 'admin']))
      .expect(200);
  });
  it('a Stats page rendered for a session is answered again to that session alone until its 30-s window ends', async () => {
    // Not astride a window's end (the hold lasts until it).
    const left = ANSWER_TTL_MS - (Date.now() % ANSWER_TTL_MS);
    if (left < 3_000) await new Promise((done) => setTimeout(done, left + 50));
    const path = `/author/stats?days=7&n=${uid()}`;
    const mine = { cookie: `inkwell_access=${author.token}`, 'accept-encoding': 'gzip' };
    const first = await page(path, mine);
    const again = await page(path, mine);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expect(renders.filter((rendered) => rendered === path)).toHaveLength(1);
    await page(path, { ...mine, 'accept-encoding': 'br' }); // another coding
    await page(path, { cookie: `inkwell_access=${reader.token}`, 'accept-encoding': 'gzip' }); // another session
    await page(path, { 'accept-encoding': 'gzip' }); // no session
    expect(renders.filter((rendered) => rendered === path)).toHaveLength(4);
  });

  it('rollups equal the raw counts; retention deletes raw rows after ANALYTICS_RAW_DAYS and keeps the rollups; the API reads both', async () => {
    const posts = [await publishedPost(), await publishedPost()];
    const start = Date.parse(new Date().toISOString().slice(0, 10)) - 5 * DAY_MS;
    // Five past days of views on both posts, written by the recorder with the clock moved back.
    const sources: Record<string, string>[] = [
      {},
      { referer: 'https://www.google.com/' },
      { referer: 'https://mastodon.social/' },
      { 'user-agent': PHONE },
    ];
    for (let day = 0; day < 5; day++) {
      for (let k = 0; k <= day; k++) {
        clock.offsetMs = start + day * DAY_MS + k * 3_600_000 + 60_000 - Date.now();
        for (const post of posts) await page(`/blog/${post.slug}?k=${k}`, sources[(day + k) % sources.length]);
      }
    }
    clock.offsetMs = 0;
    await flush();
    const ids = posts.map((post) => post.id);
    const raw = (await db.query(
      `SELECT post_id, to_char((ts AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*)::int AS views, count(DISTINCT visitor)::int AS visitors
       FROM analytics_views WHERE post_id = ANY($1) AND ts < $2 GROUP BY 1, 2 ORDER BY 1, 2`,
      [ids, new Date(start + 5 * DAY_MS)],
    )) as { post_id: number; day: string; views: number; visitors: number }[];
    expect(raw.reduce((sum, row) => sum + row.views, 0)).toBe(30);

    const rollup = t.app.get(AnalyticsRollup);
    await AnalyticsRollup.rewind(db, new Date(start));
    await rollup.rollUp(new Date());
    const daily = (await db.query(
      `SELECT post_id, to_char(day, 'YYYY-MM-DD') AS day, views, visitors FROM analytics_daily WHERE post_id = ANY($1) ORDER BY 1, 2`,
      [ids],
    )) as typeof raw;
    expect(daily).toEqual(raw);
    const hourly = (await db.query(`SELECT sum(views)::int AS views FROM analytics_hourly WHERE post_id = ANY($1) AND hour < $2`, [
      ids,
      new Date(start + 5 * DAY_MS),
    ])) as { views: number }[];
    expect(hourly[0].views).toBe(30);
    const authorDays = (await db.query(
      `SELECT sum(views)::int AS views FROM analytics_daily_sources WHERE scope = $1 AND kind = 'source' AND day < $2`,
      [author.id, new Date(start + 5 * DAY_MS)],
    )) as { views: number }[];
    expect(authorDays[0].views).toBeGreaterThanOrEqual(30);

    const before = await t.http
      .get(api(`/analytics/posts/${posts[0].id}?days=7`))
      .set(author.auth)
      .expect(200);
    expect(before.body.data.totals.views).toBe(15);
    expect(before.body.data.series).toHaveLength(7);
    expect(before.body.data.sourceGroups.map((row: { source: string }) => row.source).sort()).toEqual(['direct', 'fediverse', 'search']);
    expect(before.body.data.devices).toEqual(expect.arrayContaining([expect.objectContaining({ device: 'mobile' })]));

    // Past the raw days: the rows go, the rollups and the figures stay.
    const later = new Date(start + 5 * DAY_MS + 31 * DAY_MS);
    clock.offsetMs = later.getTime() - Date.now();
    const result = await rollup.rollUp(later);
    expect(result.deletedRaw).toBeGreaterThanOrEqual(30);
    expect(
      ((await db.query(`SELECT count(*)::int AS n FROM analytics_views WHERE post_id = ANY($1)`, [ids])) as { n: number }[])[0].n,
    ).toBe(0);
    const after = await t.http
      .get(api(`/analytics/posts/${posts[0].id}?days=90`))
      .set(author.auth)
      .expect(200);
    expect(after.body.data.totals).toEqual(before.body.data.totals);
    const mine = await t.http.get(api('/analytics/me?days=90')).set(author.auth).expect(200);
    expect(mine.body.data.topPosts.map((row: { postId: number }) => row.postId)).toEqual(expect.arrayContaining(ids));
    expect((await db.query(`SELECT count(*)::int AS n FROM analytics_salts WHERE day < $1`, [later.toISOString().slice(0, 10)]))[0].n).toBe(
      0,
    );
    // Back to the present for the suites that follow (the watermark moved 36 days ahead).
    await AnalyticsRollup.rewind(db, new Date());
  });
});

describe('Analytics: ANALYTICS=off', () => {
  let t: TestApp;
  let server: Server;
  beforeAll(async () => {
    t = await createTestApp({
      env: { ANALYTICS: 'off' },
      frontend: { handler, clientDir: mkdtempSync(join(tmpdir(), 'inkwell-analytics-off-')) },
    });
    server = t.app.getHttpServer() as Server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  });
  afterAll(() => t.close());

  it('counts nothing, while the post view count goes on', async () => {
    const admin = await createAdmin(t);
    const token = uid();
    const post = (
      await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Off ${token}`, content: 'x', slug: `off-${token}`, status: 'PUBLISHED' })
        .expect(201)
    ).body.data as { id: number; slug: string };
    for (let i = 0; i < 3; i++) await rawRequest(server, `/blog/${post.slug}`, { 'user-agent': BROWSER });
    const recorder = t.app.get(PageViewRecorder);
    expect(recorder.pendingCount).toBe(0);
    await recorder.flush();
    await t.app.get(PostViewsService).flush();
    const db = t.app.get(DataSource);
    expect((await db.query(`SELECT count(*)::int AS n FROM analytics_views WHERE post_id = $1`, [post.id]))[0].n).toBe(0);
    expect((await db.query(`SELECT view_count FROM posts WHERE id = $1`, [post.id]))[0].view_count).toBe(3);
  });
});

/**
 * A kill -9 loses at most the last second of views: the server (its own process) answers views;
 * every view answered more than a second (and a flush's time) before the kill is in the table.
 */
describe('Analytics: kill -9', () => {
  let child: ChildProcess;
  let dataDir: string;
  let db: TestApp;

  beforeAll(async () => {
    db = await createTestApp();
    dataDir = mkdtempSync(join(tmpdir(), 'inkwell-kill-'));
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    await db.close();
  });

  it('views answered at least 1 s before the kill are all written; later ones at most lost', async () => {
    child = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, 'helpers', 'serve-pages.ts'), dataDir], {
      env: { ...process.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const port = await new Promise<number>((done, fail) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /ready (\d+)/.exec(output);
        if (ready) done(Number(ready[1]));
        if (output.includes('failed')) fail(new Error(output));
      });
      child.once('exit', () => fail(new Error(`the server exited: ${output}`)));
    });
    const marker = `kill-${uid()}.example`;
    const view = () =>
      new Promise<void>((done, fail) => {
        get({ host: '127.0.0.1', port, path: '/', headers: { 'user-agent': BROWSER, referer: `https://${marker}/` } }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`status ${res.statusCode}`))));
        }).once('error', fail);
      });
    // 300 views, 10 at a time, all answered; then a second and a half; then views until the kill.
    for (let i = 0; i < 30; i++) await Promise.all(Array.from({ length: 10 }, view));
    await new Promise((done) => setTimeout(done, 1_500));
    let late = 0;
    const stop = Date.now() + 300;
    while (Date.now() < stop) {
      await view();
      late++;
    }
    child.kill('SIGKILL');
    await new Promise((done) => child.once('exit', done));
    const [{ n }] = (await db.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM analytics_views WHERE source_host = $1`, [marker])) as { n: number }[];
    expect(late).toBeGreaterThan(0);
    expect(n).toBeGreaterThanOrEqual(300);
    expect(n).toBeLessThanOrEqual(300 + late);
  }, 60_000);
});
