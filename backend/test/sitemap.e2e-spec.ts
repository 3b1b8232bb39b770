import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { SITEMAP_FILE_SIZE } from '../../isomorphic/sitemap';
import { PROJECT_ROOT } from '../src/config/paths';
import { createDataSource } from '../src/database/data-source';
import { freeLoopbackPort } from '../src/database/embedded-postgres';
import { isAlive, sleep } from '../src/database/processes';
import { createFreshDatabase } from './helpers/fresh-database';

/**
 * The sitemap at a real publication's size, served by the built server as in
 * production (`npm start`: scripts/start.mjs builds what is stale first; CI builds before the
 * tests, so it starts at once there), on a database of its own seeded past one file's limit:
 * robots.txt names the index, the index lists every file with its lastmod, each file is a
 * well-formed sitemaps.org document of at most SITEMAP_FILE_SIZE addresses with their lastmod,
 * unknown files are 404, and a publication reaches its file and the index at once (the page cache
 * drops the cached sitemap). The XML is checked against the exact grammar the protocol allows for
 * these elements, line by line, so no XML library is needed.
 */
const START_TIMEOUT_MS = 300_000;
/** One file's limit and one more: two post files, the first full. */
const SEEDED_POSTS = SITEMAP_FILE_SIZE + 1;
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const ADMIN_EMAIL = 'sitemap-admin@test.inkwell.test';
const ADMIN_PASSWORD = 'sitemap-admin-password';
/** W3C datetime as the files write it (ISO 8601, UTC, milliseconds). */
const W3C = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Element text as XML allows it: no markup, entities only the five predefined ones. */
const TEXT = String.raw`(?:[^<>&]|&(?:amp|lt|gt|quot|apos);)+`;

interface Located {
  loc: string;
  lastmod: string;
}

/**
 * The <url> (or <sitemap>) entries of a sitemap document, after checking that the whole document
 * is exactly: the XML declaration, the root in the sitemaps.org namespace, one entry per line with
 * <loc> then <lastmod>, the closing root. Throws on anything else.
 */
function entriesOf(xml: string, root: 'urlset' | 'sitemapindex'): Located[] {
  const item = root === 'urlset' ? 'url' : 'sitemap';
  const lines = xml.split('\n');
  expect(lines[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>');
  expect(lines[1]).toBe(`<${root} xmlns="${NAMESPACE}">`);
  expect(lines.slice(-2)).toEqual([`</${root}>`, '']);
  const entry = new RegExp(`^  <${item}><loc>(${TEXT})</loc><lastmod>(${TEXT})</lastmod></${item}>$`);
  return lines.slice(2, -2).map((line) => {
    const match = entry.exec(line);
    if (!match) throw new Error(`not a <${item}> with <loc> and <lastmod>: ${line}`);
    const lastmod = match[2];
    expect(lastmod).toMatch(W3C);
    return { loc: match[1].replace(/&amp;/g, '&'), lastmod };
  });
}

describe("Sitemap index and files at a real publication's size (the built server)", () => {
  let tempDir: string;
  let baseUrl: string;
  let db: DataSource;
  let server: ChildProcess | undefined;
  let exited = false;
  let output = '';
  let authorSlug: string;
  let tagSlug: string;

  const get = (path: string) => fetch(`${baseUrl}${path}`, { redirect: 'manual' });
  const xmlOf = async (path: string): Promise<string> => {
    const res = await get(path);
    expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 200, 'application/xml; charset=utf-8']);
    return res.text();
  };
  const indexFiles = async () => entriesOf(await xmlOf('/sitemap.xml'), 'sitemapindex');
  const pathOf = (loc: string) => new URL(loc).pathname;
  /** The published, listed posts as the database has them (the expected content of the post files). */
  const listedPosts = async (): Promise<{ id: number; slug: string; updated_at: Date }[]> =>
    db.query(`SELECT id, slug, updated_at FROM posts WHERE status = 'PUBLISHED' AND NOT noindex AND canonical_url IS NULL ORDER BY id`);

  beforeAll(async () => {
    const databaseUrl = await createFreshDatabase('inkwell_sitemap');
    db = createDataSource(databaseUrl);
    await db.initialize();
    // An author with a tag and SEEDED_POSTS published posts, in one statement each.
    const [author] = await db.query(
      `INSERT INTO users (full_name, email, password_hash, status, is_verified, email_verified_at, updated_at)
       VALUES ('Sitemap Author', 'sitemap-author@test.inkwell.test', '!', 'ACTIVE', true, now(), timestamptz '2026-01-01T00:00:00Z') RETURNING id, slug`,
    );
    authorSlug = author.slug;
    await db.query(`INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = 'AUTHOR'`, [author.id]);
    // Dated before every post: a tag's and an author's lastmod is then their newest post's.
    const [tag] = await db.query(
      `INSERT INTO tags (name, slug, updated_at) VALUES ('Sitemap tag', 'sitemap-tag', timestamptz '2026-01-01T00:00:00Z') RETURNING id, slug`,
    );
    tagSlug = tag.slug;
    await db.query(
      `INSERT INTO posts (title, slug, content, content_html, status, author_id, published_at, created_at, updated_at)
       SELECT 'Seeded post ' || n, 'seeded-post-' || n, 'Body ' || n, '<p>Body ' || n || '</p>', 'PUBLISHED', $1,
              timestamptz '2026-01-01T00:00:00Z' + n * interval '1 minute', timestamptz '2026-01-01T00:00:00Z' + n * interval '1 minute',
              timestamptz '2026-01-01T00:00:00Z' + n * interval '1 minute'
         FROM generate_series(1, $2) AS n`,
      [author.id, SEEDED_POSTS],
    );
    await db.query(`INSERT INTO post_tags (post_id, tag_id) SELECT id, $1 FROM posts WHERE id % 1000 = 0`, [tag.id]);

    tempDir = mkdtempSync(join(tmpdir(), 'inkwell-sitemap-'));
    chmodSync(tempDir, 0o755);
    const port = await freeLoopbackPort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: join(tempDir, 'data'),
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: baseUrl,
      THROTTLE_DISABLED: '1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
    };
    for (const name of ['REDIS_URL', 'SMTP_URL', 'STORAGE', 'PAGE_CACHE', 'JWT_SECRET', 'TEST_DATABASE_URL']) delete env[name];
    server = spawn(process.execPath, ['scripts/start.mjs'], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    server.on('exit', () => (exited = true));
    const started = Date.now();
    for (;;) {
      if (exited) throw new Error(`the server exited while starting:\n${output.slice(-4000)}`);
      if ((await fetch(`${baseUrl}/api/v1/health`).catch(() => undefined))?.status === 200) break;
      if (Date.now() - started > START_TIMEOUT_MS) throw new Error(`no health within ${START_TIMEOUT_MS} ms:\n${output.slice(-4000)}`);
      await sleep(300);
    }
  }, START_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    if (server?.pid && !exited) {
      server.kill('SIGTERM');
      const deadline = Date.now() + 30_000;
      while (!exited && Date.now() < deadline) await sleep(100);
      if (!exited && isAlive(server.pid)) server.kill('SIGKILL');
    }
    await db?.destroy();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }, 60_000);

  it('robots.txt names the index; the index lists every file once, with its lastmod; each file holds at most 10,000 addresses, each with its lastmod', async () => {
    const robots = await (await get('/robots.txt')).text();
    expect(robots).toContain(`\nSitemap: ${baseUrl}/sitemap.xml\n`);

    const files = await indexFiles();
    const posts = await listedPosts();
    expect(posts).toHaveLength(SEEDED_POSTS);
    // The fresh database numbers the seeded posts 1…10,001: ids 1–10,000 in file 1, 10,001 in file 2.
    expect(files.map((file) => pathOf(file.loc))).toEqual([
      '/sitemap-pages.xml',
      '/sitemap-posts-1.xml',
      '/sitemap-posts-2.xml',
      '/sitemap-tags-1.xml',
      '/sitemap-authors-1.xml',
    ]);
    for (const file of files) expect(file.loc.startsWith(`${baseUrl}/sitemap-`)).toBe(true);
    const newest = posts.at(-1)!.updated_at.toISOString();
    expect(files.map((file) => file.lastmod)).toEqual([
      newest,
      posts[SITEMAP_FILE_SIZE - 1].updated_at.toISOString(),
      newest,
      posts[10_000 - 1].updated_at.toISOString(),
      newest,
    ]);

    const listed: Located[] = [];
    for (const file of files) {
      const entries = entriesOf(await xmlOf(pathOf(file.loc)), 'urlset');
      expect(entries.length).toBeGreaterThan(0);
      expect(entries.length).toBeLessThanOrEqual(SITEMAP_FILE_SIZE);
      // The index's lastmod is the newest of the file's.
      expect(
        entries
          .map((entry) => entry.lastmod)
          .sort()
          .at(-1),
      ).toBe(file.lastmod);
      listed.push(...entries);
    }
    const postLocs = listed.filter((entry) => pathOf(entry.loc).startsWith('/blog/') && !pathOf(entry.loc).startsWith('/blog/tag/'));
    expect(postLocs).toHaveLength(SEEDED_POSTS);
    expect(postLocs.map((entry) => entry.loc)).toEqual(posts.map((post) => `${baseUrl}/blog/${post.slug}`));
    expect(postLocs.map((entry) => entry.lastmod)).toEqual(posts.map((post) => post.updated_at.toISOString()));
    expect(listed.filter((entry) => !postLocs.includes(entry)).map((entry) => pathOf(entry.loc))).toEqual([
      '/',
      '/blog',
      '/authors',
      `/blog/tag/${tagSlug}`,
      `/authors/${authorSlug}`,
    ]);
    expect(new Set(listed.map((entry) => entry.loc)).size).toBe(listed.length);
  });

  it('unknown files are 404: numbers past the index, a kind it has not, malformed names; the API answers 404 and 400 in the envelope', async () => {
    for (const path of [
      '/sitemap-posts-3.xml',
      '/sitemap-posts-0.xml',
      '/sitemap-tags-2.xml',
      '/sitemap-authors-999999999.xml',
      '/sitemap-users-1.xml',
      '/sitemap-posts.xml',
      '/sitemap-pages-1.xml',
      '/sitemap-posts-01.xml',
    ]) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
    const missing = await get('/api/v1/blog/posts/public/sitemap/posts/3');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ success: false, status: 404, message: 'Sitemap file "posts-3" not found' });
    const kind = await get('/api/v1/blog/posts/public/sitemap/users/1');
    expect(await kind.json()).toMatchObject({ success: false, status: 404, message: 'Sitemap file "users-1" not found' });
    const malformed = await get('/api/v1/blog/posts/public/sitemap/posts/0');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      success: false,
      status: 400,
      message: 'A sitemap file number must be a whole number of at least 1',
    });
    // The paged API answers one file's rows, never the whole table.
    const first = (await (await get('/api/v1/blog/posts/public/sitemap/posts/1')).json()) as { data: { entries: unknown[] } };
    expect(first.data.entries).toHaveLength(SITEMAP_FILE_SIZE);
  });

  it('the files are served from the page cache, and a publication drops them: its file and the index show it at once', async () => {
    const lastFile = await xmlOf('/sitemap-posts-2.xml');
    const index = await xmlOf('/sitemap.xml');
    // A post written behind the app's back (no event): the cached file and index do not show it yet.
    const [quiet] = (await db.query(
      `INSERT INTO posts (title, slug, content, content_html, status, author_id, published_at)
       SELECT 'Quiet post', 'quiet-post', 'Body', '<p>Body</p>', 'PUBLISHED', id, now() FROM users WHERE slug = $1 RETURNING id, slug`,
      [authorSlug],
    )) as { id: number; slug: string }[];
    expect(await xmlOf('/sitemap-posts-2.xml')).toBe(lastFile);
    expect(await xmlOf('/sitemap.xml')).toBe(index);

    const login = await fetch(`${baseUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
    const created = await fetch(`${baseUrl}/api/v1/blog/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ title: 'Fresh from the press', content: 'Body', status: 'PUBLISHED' }),
    });
    expect(created.status).toBe(201);
    const post = ((await created.json()) as { data: { id: number; slug: string; updatedAt: string } }).data;
    const lastmod = new Date(post.updatedAt).toISOString();
    expect(Math.floor((post.id - 1) / SITEMAP_FILE_SIZE) + 1).toBe(2);

    const entries = entriesOf(await xmlOf('/sitemap-posts-2.xml'), 'urlset');
    expect(entries.map((entry) => pathOf(entry.loc))).toEqual(['/blog/seeded-post-10001', `/blog/${quiet.slug}`, `/blog/${post.slug}`]);
    expect(entries.at(-1)?.lastmod).toBe(lastmod);
    const files = await indexFiles();
    expect(files.find((file) => pathOf(file.loc) === '/sitemap-posts-2.xml')?.lastmod).toBe(lastmod);
    expect(files.find((file) => pathOf(file.loc) === '/sitemap-pages.xml')?.lastmod).toBe(lastmod);
    // The administrator who published it has an author page now.
    const authors = entriesOf(await xmlOf('/sitemap-authors-1.xml'), 'urlset').map((entry) => pathOf(entry.loc));
    expect(authors).toHaveLength(2);
  });
});
