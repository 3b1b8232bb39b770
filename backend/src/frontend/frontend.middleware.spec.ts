import cookieParser from 'cookie-parser';
import express, { type Express, type Request, type Response } from 'express';
import { createServer, get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ContentEvents } from '../common/content-events';
import { loadConfig } from '../config/env';
import { FrontendMiddleware, MAX_CONCURRENT_RENDERS, type AstroHandler, type PostViewRecorder } from './frontend.module';
import { etagOf } from './page-cache';
import { PageCacheService } from './page-cache.service';
import type { PublicContentService } from './public-content';

/**
 * The caching layer in front of the page handler, with a handler that answers the way Astro's
 * node adapter does (res.statusMessage = the Response's statusText, writeHead, then the body in
 * several write() chunks, then end()).
 */
interface Rendered {
  status?: number;
  /** The Response's statusText Astro copies to res.statusMessage: 'OK' unless a page sets it. */
  statusText?: string;
  /** A reason given to writeHead itself (Astro's own error path: `writeHead(500, 'Server error')`). */
  reason?: string;
  body?: string;
  type?: string;
  setCookie?: string;
  /** Called when rendering starts; the rendering waits for the promise it returns. */
  hold?: () => Promise<void>;
}

function setup(options: { pageCache?: boolean } = {}) {
  const config = loadConfig({ DATA_DIR: '/tmp/inkwell-page-cache-spec', JWT_SECRET: 'x'.repeat(40), PAGE_CACHE: options.pageCache === false ? 'off' : 'on' });
  const events = new ContentEvents();
  const pages = new PageCacheService(config, events);
  const renders: string[] = [];
  const views: string[] = [];
  const answers = new Map<string, Rendered>();
  let version = 1;
  const handler: AstroHandler = async (req: Request, res: Response) => {
    renders.push(req.originalUrl);
    const answer = answers.get(req.path) ?? {};
    const body = answer.body ?? `<html><body>${req.originalUrl} v${version}</body></html>`;
    await (answer.hold?.() ?? new Promise((done) => setImmediate(done)));
    const headers: Record<string, string> = { 'content-type': answer.type ?? 'text/html; charset=utf-8' };
    if (answer.setCookie) headers['set-cookie'] = answer.setCookie;
    res.statusMessage = answer.statusText ?? 'OK';
    if (answer.reason) res.writeHead(answer.status ?? 200, answer.reason, headers);
    else res.writeHead(answer.status ?? 200, headers);
    res.write(body.slice(0, 10));
    await new Promise((done) => setImmediate(done));
    res.write(Buffer.from(body.slice(10)));
    res.end();
  };
  const recorder: PostViewRecorder = { recordBySlug: (slug) => void views.push(slug) };
  // The stand-in handler reads no content, so the in-process content port is not needed here.
  const middleware = new FrontendMiddleware(handler, config, pages, {} as PublicContentService, recorder);
  const app: Express = express();
  app.use(cookieParser());
  app.use((req, res, next) => middleware.use(req, res, next));
  return {
    app,
    events,
    pages,
    renders,
    views,
    answers,
    bump: () => version++,
  };
}

describe('FrontendMiddleware page cache', () => {
  it('renders an anonymous public page once, then answers from the cache with the same bytes, ETag and Cache-Control', async () => {
    const { app, renders } = setup();
    const first = await request(app).get('/blog?page=1').expect(200);
    const second = await request(app).get('/blog?page=1').expect(200);
    expect(renders).toEqual(['/blog?page=1']);
    expect(second.text).toBe('<html><body>/blog?page=1 v1</body></html>');
    expect(second.text).toBe(first.text);
    expect(first.headers['etag']).toBe(etagOf(Buffer.from(first.text)));
    expect(second.headers['etag']).toBe(first.headers['etag']);
    for (const response of [first, second]) {
      expect(response.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(response.headers['vary']).toBe('Cookie');
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-length']).toBe(String(Buffer.byteLength(first.text)));
    }
  });

  it('keys by path and query', async () => {
    const { app, renders } = setup();
    await request(app).get('/blog').expect(200);
    await request(app).get('/blog?page=2').expect(200);
    await request(app).get('/blog').expect(200);
    expect(renders).toEqual(['/blog', '/blog?page=2']);
  });

  it('answers 304 to a matching If-None-Match, for a cached page and for a fresh rendering', async () => {
    const { app, renders } = setup();
    const etag = etagOf(Buffer.from('<html><body>/authors v1</body></html>'));
    const fresh = await request(app).get('/authors').set('If-None-Match', etag).expect(304);
    expect(fresh.text).toBe('');
    expect(fresh.headers['etag']).toBe(etag);
    expect(fresh.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const cached = await request(app).get('/authors').set('If-None-Match', `"stale", ${etag}`).expect(304);
    expect(cached.text).toBe('');
    const changed = await request(app).get('/authors').set('If-None-Match', '"stale"').expect(200);
    expect(changed.text).toBe('<html><body>/authors v1</body></html>');
    expect(renders).toEqual(['/authors']);
  });

  it('clears everything when content changes, so the next request shows the change', async () => {
    const { app, renders, events, bump } = setup();
    const before = await request(app).get('/').expect(200);
    bump();
    expect((await request(app).get('/').expect(200)).text).toBe(before.text);
    events.changed({ kind: 'post', id: 1, slugs: ['a-post'] });
    const after = await request(app).get('/').expect(200);
    expect(after.text).toBe('<html><body>/ v2</body></html>');
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    await request(app).get('/').set('If-None-Match', before.headers['etag']).expect(200);
    expect(renders).toEqual(['/', '/']);
  });

  it('does not store a rendering that started before a content change', async () => {
    const { app, renders, events, answers } = setup();
    let started!: () => void;
    let release!: () => void;
    const renderingStarted = new Promise<void>((done) => (started = done));
    answers.set('/blog', { hold: () => (started(), new Promise<void>((done) => (release = done))) });
    const pending = request(app).get('/blog').then((response) => response);
    await renderingStarted;
    events.changed({ kind: 'post' });
    answers.delete('/blog');
    release();
    expect((await pending).status).toBe(200);
    await request(app).get('/blog').expect(200);
    expect(renders).toEqual(['/blog', '/blog']);
  });

  it('renders a page once for concurrent requests: the others wait for that rendering', async () => {
    const { app, renders, answers } = setup();
    let started!: () => void;
    let release!: () => void;
    const renderingStarted = new Promise<void>((done) => (started = done));
    answers.set('/', { hold: () => (started(), new Promise<void>((done) => (release = done))) });
    const first = request(app).get('/').then((response) => response);
    await renderingStarted;
    const others = [request(app).get('/').then((response) => response), request(app).get('/').then((response) => response)];
    await new Promise((done) => setTimeout(done, 50));
    release();
    const responses = await Promise.all([first, ...others]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(new Set(responses.map((response) => response.text))).toEqual(new Set(['<html><body>/ v1</body></html>']));
    expect(renders).toEqual(['/']);
  });

  it('lets waiting requests render themselves when the rendering they waited for cannot be cached', async () => {
    const { app, renders, answers } = setup();
    let started!: () => void;
    let release!: () => void;
    const renderingStarted = new Promise<void>((done) => (started = done));
    answers.set('/authors', { status: 503, body: '<h1>Unable to load authors</h1>', hold: () => (started(), new Promise<void>((done) => (release = done))) });
    const first = request(app).get('/authors').then((response) => response);
    await renderingStarted;
    const second = request(app).get('/authors').then((response) => response);
    await new Promise((done) => setTimeout(done, 50));
    answers.set('/authors', {});
    release();
    expect((await first).status).toBe(503);
    expect((await second).text).toBe('<html><body>/authors v1</body></html>');
    expect(renders).toEqual(['/authors', '/authors']);
  });

  it(`renders at most ${MAX_CONCURRENT_RENDERS} pages at once; the others wait in line and are all answered`, async () => {
    const { app, renders, answers } = setup();
    const releases: (() => void)[] = [];
    let inFlight = 0;
    let most = 0;
    answers.set('/login', {
      hold: () => {
        inFlight++;
        most = Math.max(most, inFlight);
        return new Promise<void>((done) => releases.push(() => (inFlight--, done())));
      },
    });
    const responses = Array.from({ length: 20 }, (_, i) => request(app).get(`/login?n=${i}`).then((response) => response));
    while (releases.length < MAX_CONCURRENT_RENDERS) await new Promise((done) => setTimeout(done, 10));
    await new Promise((done) => setTimeout(done, 50));
    expect(releases.length).toBe(MAX_CONCURRENT_RENDERS);
    while (renders.length < 20 || releases.length > 0) {
      releases.shift()?.();
      await new Promise((done) => setTimeout(done, 5));
    }
    expect((await Promise.all(responses)).map((response) => response.status)).toEqual(Array(20).fill(200));
    expect(most).toBe(MAX_CONCURRENT_RENDERS);
  });

  it('never caches requests with a session cookie and marks them private, no-store', async () => {
    const { app, renders, pages } = setup();
    for (const cookie of ['inkwell_access=jwt', 'inkwell_refresh=token']) {
      const response = await request(app).get('/blog').set('Cookie', cookie).expect(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers['etag']).toBeUndefined();
    }
    expect(pages.cache.size).toBe(0);
    await request(app).get('/blog').expect(200);
    await request(app).get('/blog').set('Cookie', 'inkwell_access=jwt').expect(200);
    expect(renders).toEqual(['/blog', '/blog', '/blog', '/blog']);
  });

  it('leaves other pages alone (no cache, no ETag)', async () => {
    const { app, renders } = setup();
    const response = await request(app).get('/login').expect(200);
    await request(app).get('/login').expect(200);
    expect(response.headers['etag']).toBeUndefined();
    expect(response.headers['cache-control']).toBeUndefined();
    expect(renders).toEqual(['/login', '/login']);
  });

  it('caches 404 pages but not errors, non-HTML answers or answers setting a cookie', async () => {
    const { app, renders, answers } = setup();
    answers.set('/blog/missing-post', { status: 404, body: '<h1>Post Not Found</h1>' });
    answers.set('/blog/broken', { status: 503, body: '<h1>Unable to load post</h1>' });
    answers.set('/blog/json', { body: '{}', type: 'application/json' });
    answers.set('/blog/cookie', { body: '<p>hi</p>', setCookie: 'a=1' });
    for (const path of ['/blog/missing-post', '/blog/broken', '/blog/json', '/blog/cookie']) {
      await request(app).get(path);
      await request(app).get(path);
    }
    expect(renders).toEqual(['/blog/missing-post', '/blog/broken', '/blog/broken', '/blog/json', '/blog/json', '/blog/cookie', '/blog/cookie']);
    const broken = await request(app).get('/blog/broken').expect(503);
    expect(broken.text).toBe('<h1>Unable to load post</h1>');
    expect(broken.headers['etag']).toBeUndefined();
    const missing = await request(app).get('/blog/missing-post').expect(404);
    expect(missing.text).toBe('<h1>Post Not Found</h1>');
    expect(missing.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  it('sends every page status with its own reason phrase, rendered or cached (Astro leaves statusText at "OK")', async () => {
    const { app, answers } = setup();
    answers.set('/blog/missing-post', { status: 404, body: '<h1>Post Not Found</h1>' });
    answers.set('/blog/broken', { status: 503, body: '<h1>Unable to load post</h1>' });
    answers.set('/no-such-page', { status: 404, body: '<h1>Page Not Found</h1>' });
    answers.set('/account', { status: 403, body: '<h1>Access Denied</h1>' });
    answers.set('/crash', { status: 500, reason: 'Server error', body: '' });
    answers.set('/custom', { status: 404, statusText: 'Nope' });
    const server = createServer(app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    /** The status line as sent, read with node:http (statusMessage is the reason phrase on the wire). */
    const statusLine = (path: string, headers: IncomingHttpHeaders = {}) =>
      new Promise<string>((done, fail) => {
        get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
          res.resume();
          res.on('end', () => done(`${res.statusCode} ${res.statusMessage}`));
        }).on('error', fail);
      });
    try {
      // An anonymous public page: rendered into the buffer, then from the cache (middleware and 304).
      expect(await statusLine('/blog/missing-post')).toBe('404 Not Found');
      expect(await statusLine('/blog/missing-post')).toBe('404 Not Found');
      expect(await statusLine('/blog/broken')).toBe('503 Service Unavailable');
      const etag = etagOf(Buffer.from('<html><body>/authors v1</body></html>'));
      expect(await statusLine('/authors', { 'if-none-match': etag })).toBe('304 Not Modified');
      expect(await statusLine('/authors')).toBe('200 OK');
      // Pages written straight through (not cacheable, or signed in).
      expect(await statusLine('/no-such-page')).toBe('404 Not Found');
      expect(await statusLine('/blog/missing-post', { cookie: 'inkwell_access=jwt' })).toBe('404 Not Found');
      expect(await statusLine('/account', { cookie: 'inkwell_access=jwt' })).toBe('403 Forbidden');
      expect(await statusLine('/crash')).toBe('500 Internal Server Error');
      expect(await statusLine('/custom')).toBe('404 Not Found');
      expect(await statusLine('/login')).toBe('200 OK');
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('caches the RSS feed and the sitemap (XML)', async () => {
    const { app, renders, answers } = setup();
    answers.set('/rss.xml', { body: '<rss version="2.0"></rss>', type: 'application/rss+xml; charset=utf-8' });
    await request(app).get('/rss.xml').expect(200);
    const cached = await request(app).get('/rss.xml').expect(200);
    expect(cached.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(cached.text).toBe('<rss version="2.0"></rss>');
    expect(renders).toEqual(['/rss.xml']);
  });

  it('counts a post view when /blog/{slug} comes from the cache', async () => {
    const { app, views } = setup();
    await request(app).get('/blog/hello-world').expect(200);
    expect(views).toEqual([]);
    await request(app).get('/blog/hello-world').expect(200);
    await request(app).get('/blog/hello-world').set('If-None-Match', '"x"').expect(200);
    await request(app).get('/blog/tag/web').expect(200);
    await request(app).get('/blog/tag/web').expect(200);
    expect(views).toEqual(['hello-world', 'hello-world']);
  });

  it('answers HEAD from the cache without a body, and does not store HEAD renderings', async () => {
    const { app, renders } = setup();
    const head = await request(app).head('/blog').expect(200);
    expect(head.text).toBeUndefined();
    expect(head.headers['etag']).toBeDefined();
    await request(app).get('/blog').expect(200);
    const cachedHead = await request(app).head('/blog').expect(200);
    expect(cachedHead.headers['etag']).toBe(head.headers['etag']);
    expect(renders).toEqual(['/blog', '/blog']);
  });

  it('with PAGE_CACHE=off renders every time but keeps ETag and 304', async () => {
    const { app, renders, pages } = setup({ pageCache: false });
    const first = await request(app).get('/blog').expect(200);
    expect(first.headers['etag']).toBe(etagOf(Buffer.from(first.text)));
    await request(app).get('/blog').set('If-None-Match', first.headers['etag']).expect(304);
    expect(renders).toEqual(['/blog', '/blog']);
    expect(pages.cache.size).toBe(0);
  });
});
