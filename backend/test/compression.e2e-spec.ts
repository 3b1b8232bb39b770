import type { NextFunction, Request, Response } from 'express';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { PROJECT_ROOT } from '../src/config/paths';
import type { AstroHandler, ServerLocals } from '../src/frontend/frontend.module';
import { PostViewsService } from '../src/post-views/post-views.service';
import { createTestApp, type TestApp } from './helpers/app';
import { rawRequest, type RawResponse } from './helpers/raw-request';
import { createAdmin, createReader, type TestUser } from './helpers/users';

const API = '/api/v1';

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A page handler in place of the Astro build (which jest cannot load), answering as Astro's node
 * adapter does (writeHead, then the HTML in chunks) from the real public reads the pages use:
 * /blog lists the published posts, /blog/{slug} shows one (404 when unknown).
 */
const pages: AstroHandler = async (req: Request, res: Response, _next: NextFunction, locals: ServerLocals) => {
  let status = 200;
  let main: string;
  const slug = /^\/blog\/([^/]+)$/.exec(req.path)?.[1];
  if (slug) {
    const post = await locals.gateway.call({ method: 'GET', path: '/api/v1/blog/posts/public/{slug}', params: { path: { slug } } });
    const body = post.body as { data: { title: string; summary: string | null; contentHtml: string }; message: string };
    if (post.status === 200)
      main = `<article><h1>${escape(body.data.title)}</h1><p>${escape(body.data.summary ?? '')}</p>${body.data.contentHtml}</article>`;
    else {
      status = post.status;
      main = `<h1>${escape(body.message)}</h1>`;
    }
  } else {
    const list = await locals.gateway.call({ method: 'GET', path: '/api/v1/blog/posts/public', params: { query: { page: 0, size: 12 } } });
    const cards = (list.body as { data?: { content: { slug: string; title: string; summary: string | null }[] } }).data?.content;
    main = cards
      ? cards
          .map(
            (card) =>
              `<article><h2><a href="/blog/${card.slug}">${escape(card.title)}</a></h2><p>${escape(card.summary ?? '')}</p></article>`,
          )
          .join('')
      : '<p>error</p>';
  }
  const html = `<!doctype html><html lang="en"><head><title>Inkwell</title><script type="module" src="/_astro/client.Test123.js"></script></head><body><main>${main}</main></body></html>`;
  res.writeHead(status, { 'content-type': 'text/html' });
  res.write(html.slice(0, 100));
  res.end(html.slice(100));
};

/** A client build folder with a module script, compressed by the real post-build step. */
function clientBuild(): { dir: string; script: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'inkwell-client-'));
  mkdirSync(join(dir, '_astro'));
  const script = Buffer.from(Array.from({ length: 400 }, (_, i) => `export const label${i} = 'Island label number ${i}';`).join('\n'));
  writeFileSync(join(dir, '_astro', 'client.Test123.js'), script);
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'precompress-assets.mjs'), dir], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`precompress-assets failed: ${run.stderr}`);
  return { dir, script };
}

describe('Compressed, CDN-friendly delivery', () => {
  let t: TestApp;
  let server: Server;
  let client: { dir: string; script: Buffer };
  let admin: TestUser;
  let reader: TestUser;
  const slugs: string[] = [];
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> =>
    rawRequest(server, path, headers, method);

  beforeAll(async () => {
    client = clientBuild();
    t = await createTestApp({ frontend: { handler: pages, clientDir: client.dir } });
    server = t.app.getHttpServer() as Server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    admin = await createAdmin(t);
    reader = await createReader(t);
    const token = Date.now().toString(36);
    for (let i = 0; i < 6; i++) {
      const res = await t.http
        .post(`${API}/blog/posts`)
        .set(admin.auth)
        .send({
          title: `Compression post ${i} ${token}`,
          slug: `compression-post-${i}-${token}`,
          summary: `Summary ${i}: ${'a sentence about delivering pages quickly and in few bytes. '.repeat(8)}`,
          content: `# Post ${i}\n\n${'A paragraph of the post body, written to be read and compressed. '.repeat(60)}`,
          status: 'PUBLISHED',
        })
        .expect(201);
      slugs.push(res.body.data.slug as string);
    }
  });
  afterAll(async () => {
    await t.close();
    rmSync(client.dir, { recursive: true, force: true });
  });

  describe('cached anonymous pages', () => {
    it('sends br for "br, gzip", gzip for gzip only and identity otherwise; every body is the same page, with Vary and its own ETag', async () => {
      const first = await get('/blog', { 'accept-encoding': 'br, gzip' });
      const br = await get('/blog', { 'accept-encoding': 'br, gzip' });
      const gzip = await get('/blog', { 'accept-encoding': 'gzip' });
      const identity = await get('/blog');
      const other = await get('/blog', { 'accept-encoding': 'deflate' });

      expect(br.headers['content-encoding']).toBe('br');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(other.headers['content-encoding']).toBeUndefined();
      const html = identity.body;
      expect(html.toString()).toContain(`Compression post 5`);
      expect(brotliDecompressSync(br.body).equals(html)).toBe(true);
      expect(brotliDecompressSync(first.body).equals(html)).toBe(true);
      expect(gunzipSync(gzip.body).equals(html)).toBe(true);
      expect(other.body.equals(html)).toBe(true);
      expect(br.body.length).toBeLessThan(html.length / 3);

      for (const response of [first, br, gzip, identity, other]) {
        expect(response.status).toBe(200);
        expect(response.headers['vary']).toBe('Accept, Accept-Encoding');
        expect(response.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
        expect(response.headers['content-length']).toBe(String(response.body.length));
      }
      const etag = identity.headers.etag!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(br.headers.etag).toBe(`${etag.slice(0, -1)}-br"`);
      expect(gzip.headers.etag).toBe(`${etag.slice(0, -1)}-gz"`);
    });

    it('answers 304 to the ETag of the coding it sends, HEAD with that coding’s length', async () => {
      const br = await get('/blog', { 'accept-encoding': 'br, gzip' });
      const notModified = await get('/blog', { 'accept-encoding': 'br, gzip', 'if-none-match': br.headers.etag! });
      expect(notModified.status).toBe(304);
      expect(notModified.body.length).toBe(0);
      expect(notModified.headers.etag).toBe(br.headers.etag);
      expect(notModified.headers['vary']).toBe('Accept, Accept-Encoding');
      const gzipWithBrEtag = await get('/blog', { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! });
      expect(gzipWithBrEtag.status).toBe(200);
      const head = await get('/blog', { 'accept-encoding': 'br, gzip' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-length']).toBe(String(br.body.length));
      expect(head.headers['content-encoding']).toBe('br');
    });

    it('still counts a view for each compressed post page served from the cache, 304s included', async () => {
      const slug = slugs[2];
      const db = t.app.get(DataSource);
      const views = async () => {
        await t.app.get(PostViewsService).flush();
        const [row] = (await db.query('SELECT view_count FROM posts WHERE slug = $1', [slug])) as { view_count: number }[];
        return Number(row.view_count);
      };
      const before = await views();
      const page = await get(`/blog/${slug}`, { 'accept-encoding': 'br, gzip' });
      expect(brotliDecompressSync(page.body).toString()).toContain(`Compression post 2`);
      await get(`/blog/${slug}`, { 'accept-encoding': 'br, gzip' });
      await get(`/blog/${slug}`, { 'accept-encoding': 'gzip' });
      await get(`/blog/${slug}`, { 'accept-encoding': 'br, gzip', 'if-none-match': page.headers.etag! });
      // The first request rendered the page (which reads the post and counts it); three more came from the cache.
      expect(await views()).toBe(before + 4);
    });

    it('serves a signed-in visitor the same cached public page', async () => {
      const anonymous = await get('/blog', { 'accept-encoding': 'br, gzip' });
      const res = await get('/blog', { 'accept-encoding': 'br, gzip', cookie: `inkwell_access=${reader.token}` });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(res.headers['vary']).toBe('Accept, Accept-Encoding');
      expect(res.headers.etag).toBe(anonymous.headers.etag);
      expect(res.body.equals(anonymous.body)).toBe(true);
    });

    it('marks signed-in personal pages private, no-store with Vary: Cookie, compressed on the fly', async () => {
      const res = await get('/dashboard', { 'accept-encoding': 'br, gzip', cookie: `inkwell_access=${reader.token}` });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['vary']).toContain('Cookie');
      expect(res.headers['vary']).toContain('Accept-Encoding');
      expect(res.headers.etag).toBeUndefined();
    });
  });

  describe('static assets', () => {
    it('are sent from the .br and .gz files of the build, with immutable caching and per-coding ETags', async () => {
      const path = '/_astro/client.Test123.js';
      const br = await get(path, { 'accept-encoding': 'br, gzip' });
      const gzip = await get(path, { 'accept-encoding': 'gzip' });
      const identity = await get(path);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.body.equals(readFileSync(join(client.dir, '_astro', 'client.Test123.js.br')))).toBe(true);
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.body.equals(readFileSync(join(client.dir, '_astro', 'client.Test123.js.gz')))).toBe(true);
      expect(identity.body.equals(client.script)).toBe(true);
      for (const response of [br, gzip, identity]) {
        expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(response.headers['vary']).toBe('Accept-Encoding');
        expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      }
      const notModified = await get(path, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
      expect(notModified.status).toBe(304);
    });
  });

  describe('API', () => {
    it('compresses JSON above 1 KB on the fly and leaves small JSON alone; anonymous reads are no-cache', async () => {
      const list = await get(`${API}/blog/posts/public?size=12`, { 'accept-encoding': 'br, gzip' });
      expect(list.status).toBe(200);
      expect(list.headers['content-encoding']).toBe('br');
      const json = JSON.parse(brotliDecompressSync(list.body).toString()) as { data: { content: unknown[] } };
      expect(json.data.content.length).toBeGreaterThanOrEqual(6);
      expect(list.headers['vary']).toContain('Accept-Encoding');
      expect(list.headers['cache-control']).toBe('no-cache');
      const gzip = await get(`${API}/blog/posts/public?size=12`, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(json);
      const plain = await get(`${API}/blog/posts/public?size=12`);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(plain.body.toString())).toEqual(json);
      expect(plain.headers['vary']).toBe('Authorization, Cookie, Accept-Encoding');

      const health = await get(`${API}/health`, { 'accept-encoding': 'br, gzip' });
      expect(health.status).toBe(200);
      expect(health.body.length).toBeLessThan(1024);
      expect(health.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(health.body.toString())).toMatchObject({ success: true });
    });

    it('answers personal requests (a bearer token, a session cookie, writes) private, no-store, varying by Authorization and Cookie', async () => {
      const profile = await get(`${API}/users/profile`, { authorization: `Bearer ${reader.token}`, 'accept-encoding': 'gzip' });
      expect(profile.status).toBe(200);
      expect(profile.headers['cache-control']).toBe('private, no-store');
      expect(profile.headers['vary']).toContain('Authorization');
      expect(profile.headers['vary']).toContain('Cookie');
      const byCookie = await get(`${API}/users/profile`, { cookie: `inkwell_access=${reader.token}` });
      expect(byCookie.status).toBe(200);
      expect(byCookie.headers['cache-control']).toBe('private, no-store');
      const publicListSignedIn = await get(`${API}/blog/posts/public?size=1`, { authorization: `Bearer ${reader.token}` });
      expect(publicListSignedIn.headers['cache-control']).toBe('private, no-store');
      const login = await t.http.post(`${API}/auth/login`).send({ email: 'nobody@test.inkwell.test', password: 'Wrong-pass-1!' });
      expect(login.status).toBe(401);
      expect(login.headers['cache-control']).toBe('private, no-store');
    });

    it('does not compress images again', async () => {
      const png = await sharp({ create: { width: 600, height: 600, channels: 3, background: { r: 30, g: 120, b: 200 } } })
        .png()
        .toBuffer();
      const upload = await t.http
        .post(`${API}/users/avatar`)
        .set(reader.auth)
        .attach('file', png, { filename: 'me.png', contentType: 'image/png' })
        .expect(200);
      const url = upload.body.data.avatarUrl as string;
      const image = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(image.status).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
      expect(image.headers['content-encoding']).toBeUndefined();
      expect((await sharp(image.body).metadata()).format).toBe('webp');
    });
  });
});
