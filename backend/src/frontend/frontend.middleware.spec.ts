import cookieParser from 'cookie-parser';
import express, { type Express, type Request, type Response } from 'express';
import { createServer, get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { listen, rawRequest } from '../../test/helpers/raw-request';
import { ContentEvents } from '../common/content-events';
import { onTheFlyCompression } from '../common/http-compression';
import { loadConfig } from '../config/env';
import { FrontendMiddleware, MAX_CONCURRENT_RENDERS, type AstroHandler, type PostViewRecorder } from './frontend.module';
import { etagOf } from './page-cache';
import { PageCacheService } from './page-cache.service';
import { postSlugOf } from './page-cache-policy';
import type { PageGatewayService } from '../gateway/page-gateway.service';

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

function setup(options: { pageCache?: boolean; compression?: boolean } = {}) {
  const config = loadConfig({
    DATA_DIR: '/tmp/inkwell-page-cache-spec',
    JWT_SECRET: 'x'.repeat(40),
    PAGE_CACHE: options.pageCache === false ? 'off' : 'on',
  });
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
  const recorder: PostViewRecorder = {
    // As PageViewRecorder counts viewCount: a post page (200) from the cache.
    pageServed: (_req, path, status, cached) => {
      const slug = postSlugOf(path);
      if (cached && status === 200 && slug) views.push(slug);
    },
  };
  // The stand-in handler reads no data: a gateway that is never called (whether it carries the session is noted).
  const sessions: { path: string; session: boolean }[] = [];
  const gateway = {
    forRequest: (req: Request, options: { session?: boolean } = {}) => {
      sessions.push({ path: req.path, session: options.session !== false });
      return { call: () => Promise.reject(new Error('not used')), withCookies: () => undefined };
    },
  } as unknown as PageGatewayService;
  // No client build here: every path is a page.
  const middleware = new FrontendMiddleware(handler, config, pages, gateway, recorder, join(tmpdir(), 'inkwell-no-client-build'));
  const app: Express = express();
  if (options.compression) app.use(onTheFlyCompression());
  app.use(cookieParser());
  app.use((req, res, next) => middleware.use(req, res, next));
  return {
    app,
    events,
    pages,
    sessions,
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
      expect(response.headers['vary']).toBe('Accept, Accept-Encoding');
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

  it('keys /search by the canonical search: an equivalent address is a hit, a publication drops it', async () => {
    const { app, renders, events, bump } = setup();
    const first = await request(app).get('/search?q=Rust%20%20Async&tag=web&author=&utm_source=feed').expect(200);
    bump();
    for (const same of ['/search?tag=web&q=rust+async', '/search?q=%20RUST%20async%20&tag=web&from=&to=']) {
      expect((await request(app).get(same).expect(200)).text).toBe(first.text);
    }
    await request(app).get('/search?q=rust+async&tag=css').expect(200); // another search: its own page
    expect(renders).toEqual(['/search?q=Rust%20%20Async&tag=web&author=&utm_source=feed', '/search?q=rust+async&tag=css']);
    events.changed({ kind: 'post', postId: 1, slugs: ['a-post'] });
    const after = await request(app).get('/search?tag=web&q=rust+async').expect(200);
    expect(after.text).toBe('<html><body>/search?tag=web&q=rust+async v2</body></html>');
    expect(renders).toHaveLength(3);
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

  it('a post change drops the list pages, so the next request shows the change', async () => {
    const { app, renders, events, bump } = setup();
    const before = await request(app).get('/').expect(200);
    bump();
    expect((await request(app).get('/').expect(200)).text).toBe(before.text);
    events.changed({ kind: 'post', postId: 1, slugs: ['a-post'] });
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
    const pending = request(app)
      .get('/blog')
      .then((response) => response);
    await renderingStarted;
    events.changed({ kind: 'post', postId: 1, slugs: ['a-post'] });
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
    const first = request(app)
      .get('/')
      .then((response) => response);
    await renderingStarted;
    const others = [
      request(app)
        .get('/')
        .then((response) => response),
      request(app)
        .get('/')
        .then((response) => response),
    ];
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
    answers.set('/authors', {
      status: 503,
      body: '<h1>Unable to load authors</h1>',
      hold: () => (started(), new Promise<void>((done) => (release = done))),
    });
    const first = request(app)
      .get('/authors')
      .then((response) => response);
    await renderingStarted;
    const second = request(app)
      .get('/authors')
      .then((response) => response);
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
    const responses = Array.from({ length: 20 }, (_, i) =>
      request(app)
        .get(`/login?n=${i}`)
        .then((response) => response),
    );
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

  it('serves a public page to signed-in visitors from the same cache, rendered without their session', async () => {
    const { app, renders, sessions } = setup();
    const first = await request(app).get('/blog').set('Cookie', 'inkwell_access=jwt').expect(200);
    expect(sessions).toEqual([{ path: '/blog', session: false }]);
    const anonymous = await request(app).get('/blog').expect(200);
    for (const cookie of ['inkwell_access=jwt', 'inkwell_refresh=token; inkwell_signed_in=1']) {
      const response = await request(app).get('/blog').set('Cookie', cookie).expect(200);
      expect(response.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(response.headers['vary']).toBe('Accept, Accept-Encoding');
      expect(response.headers['etag']).toBe(first.headers['etag']);
      expect(response.text).toBe(anonymous.text);
    }
    expect(renders).toEqual(['/blog']);
    await request(app).get('/about').set('Cookie', 'inkwell_access=jwt').expect(200);
    await request(app).get('/about').expect(200);
    expect(renders).toEqual(['/blog', '/about']);
  });

  it('renders personal pages for their session every time, private, no-store', async () => {
    const { app, renders, pages, sessions } = setup();
    for (const cookie of ['inkwell_access=jwt', 'inkwell_refresh=token']) {
      const response = await request(app).get('/dashboard').set('Cookie', cookie).expect(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers['vary']).toBe('Cookie, Accept-Encoding');
      expect(response.headers['etag']).toBeUndefined();
    }
    expect(pages.cache.size).toBe(0);
    expect(renders).toEqual(['/dashboard', '/dashboard']);
    expect(sessions.every((call) => call.session)).toBe(true);
  });

  it('answers the personal fragment private, no-store, never kept; 204 without rendering, and drops the hint, when no session comes', async () => {
    const { app, renders, pages } = setup();
    const none = await request(app).get('/fragments/session?path=%2Fblog&parts=viewer').set('Cookie', 'inkwell_signed_in=1').expect(204);
    expect(none.headers['cache-control']).toBe('private, no-store');
    expect(none.headers['set-cookie']).toEqual([expect.stringMatching(/^inkwell_signed_in=;.*Expires=Thu, 01 Jan 1970/)]);
    expect(none.text).toBe('');
    expect(renders).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const signedIn = await request(app).get('/fragments/session?path=%2Fblog').set('Cookie', 'inkwell_access=jwt').expect(200);
      expect(signedIn.headers['cache-control']).toBe('private, no-store');
      expect(signedIn.headers['etag']).toBeUndefined();
    }
    expect(renders).toEqual(['/fragments/session?path=%2Fblog', '/fragments/session?path=%2Fblog']);
    expect(pages.cache.size).toBe(0);
  });

  it('does not keep other pages (no ETag), and marks them no-cache with Vary: Cookie, Accept-Encoding', async () => {
    const { app, renders } = setup();
    const response = await request(app).get('/login').expect(200);
    await request(app).get('/login').expect(200);
    expect(response.headers['etag']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['vary']).toBe('Cookie, Accept-Encoding');
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
    expect(renders).toEqual([
      '/blog/missing-post',
      '/blog/broken',
      '/blog/broken',
      '/blog/json',
      '/blog/json',
      '/blog/cookie',
      '/blog/cookie',
    ]);
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

describe('FrontendMiddleware compression', () => {
  /** A page big enough to be compressed (the stand-in handler writes it in two chunks). */
  const bigPage = `<!doctype html><main>${Array.from({ length: 150 }, (_, i) => `<article><h2>Post ${i}</h2><p>A summary of post ${i}.</p></article>`).join('')}</main>`;
  const identityBytes = Buffer.from(bigPage);

  async function serve(options: { pageCache?: boolean; compression?: boolean } = {}) {
    const context = setup(options);
    context.answers.set('/blog', { body: bigPage });
    context.answers.set('/account', { body: bigPage });
    context.answers.set('/dashboard', { body: bigPage });
    const server = await listen(context.app);
    return { ...context, server: server.server, close: server.close };
  }

  it('sends a kept page as br, gzip or identity by Accept-Encoding, rendered or cached, each decompressing to the same bytes with its own ETag', async () => {
    const { server, close, renders } = await serve();
    try {
      const fresh = await rawRequest(server, '/blog', { 'accept-encoding': 'br, gzip' });
      const br = await rawRequest(server, '/blog', { 'accept-encoding': 'br, gzip' });
      const gzip = await rawRequest(server, '/blog', { 'accept-encoding': 'gzip' });
      const identity = await rawRequest(server, '/blog');
      const unknown = await rawRequest(server, '/blog', { 'accept-encoding': 'deflate, zstd' });
      expect(renders).toEqual(['/blog']);

      expect(fresh.headers['content-encoding']).toBe('br');
      expect(fresh.body.equals(br.body)).toBe(true);
      expect(brotliDecompressSync(br.body).equals(identityBytes)).toBe(true);
      expect(br.headers['content-encoding']).toBe('br');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(identityBytes)).toBe(true);
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.body.equals(identityBytes)).toBe(true);
      expect(unknown.headers['content-encoding']).toBeUndefined();

      const etag = etagOf(identityBytes);
      expect(identity.headers.etag).toBe(etag);
      expect(br.headers.etag).toBe(`${etag.slice(0, -1)}-br"`);
      expect(gzip.headers.etag).toBe(`${etag.slice(0, -1)}-gz"`);
      for (const response of [fresh, br, gzip, identity]) {
        expect(response.status).toBe(200);
        expect(response.headers['vary']).toBe('Accept, Accept-Encoding');
        expect(response.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.headers['content-length']).toBe(String(response.body.length));
      }
      expect(br.body.length).toBeLessThan(identityBytes.length / 4);
    } finally {
      await close();
    }
  });

  it('answers 304 to the ETag of the coding it would send, not to another coding’s', async () => {
    const { server, close } = await serve();
    try {
      const br = await rawRequest(server, '/blog', { 'accept-encoding': 'br, gzip' });
      const gzip = await rawRequest(server, '/blog', { 'accept-encoding': 'gzip' });
      const notModified = await rawRequest(server, '/blog', { 'accept-encoding': 'br, gzip', 'if-none-match': br.headers.etag! });
      expect(notModified.status).toBe(304);
      expect(notModified.body.length).toBe(0);
      expect(notModified.headers.etag).toBe(br.headers.etag);
      expect(notModified.headers['vary']).toBe('Accept, Accept-Encoding');
      expect(notModified.headers['content-encoding']).toBeUndefined();
      const gzipNotModified = await rawRequest(server, '/blog', { 'accept-encoding': 'gzip', 'if-none-match': gzip.headers.etag! });
      expect(gzipNotModified.status).toBe(304);
      const switched = await rawRequest(server, '/blog', { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! });
      expect(switched.status).toBe(200);
      expect(switched.headers['content-encoding']).toBe('gzip');
      const identity = await rawRequest(server, '/blog', { 'if-none-match': br.headers.etag! });
      expect(identity.status).toBe(200);
    } finally {
      await close();
    }
  });

  it('answers HEAD with the Content-Length of the coding a GET would get', async () => {
    const { server, close } = await serve();
    try {
      const headFirst = await rawRequest(server, '/blog', { 'accept-encoding': 'br' }, 'HEAD');
      const br = await rawRequest(server, '/blog', { 'accept-encoding': 'br' });
      const head = await rawRequest(server, '/blog', { 'accept-encoding': 'br' }, 'HEAD');
      const headGzip = await rawRequest(server, '/blog', { 'accept-encoding': 'gzip' }, 'HEAD');
      const gzip = await rawRequest(server, '/blog', { 'accept-encoding': 'gzip' });
      for (const response of [headFirst, head, headGzip]) expect(response.body.length).toBe(0);
      expect(headFirst.headers['content-length']).toBe(String(br.body.length));
      expect(head.headers['content-length']).toBe(String(br.body.length));
      expect(head.headers.etag).toBe(br.headers.etag);
      expect(headGzip.headers['content-length']).toBe(String(gzip.body.length));
      expect(headGzip.headers['content-encoding']).toBe('gzip');
    } finally {
      await close();
    }
  });

  it('gives each waiting request of one rendering its own coding', async () => {
    const context = setup();
    let started!: () => void;
    let release!: () => void;
    const renderingStarted = new Promise<void>((done) => (started = done));
    context.answers.set('/blog', { body: bigPage, hold: () => (started(), new Promise<void>((done) => (release = done))) });
    const { server, close } = await listen(context.app);
    try {
      const first = rawRequest(server, '/blog', { 'accept-encoding': 'br' });
      await renderingStarted;
      const others = [rawRequest(server, '/blog', { 'accept-encoding': 'gzip' }), rawRequest(server, '/blog')];
      await new Promise((done) => setTimeout(done, 50));
      release();
      const [br, gzip, identity] = await Promise.all([first, ...others]);
      expect([br.headers['content-encoding'], gzip.headers['content-encoding'], identity.headers['content-encoding']]).toEqual([
        'br',
        'gzip',
        undefined,
      ]);
      expect(brotliDecompressSync(br.body).equals(identityBytes)).toBe(true);
      expect(gunzipSync(gzip.body).equals(identityBytes)).toBe(true);
      expect(identity.body.equals(identityBytes)).toBe(true);
      expect(context.renders).toEqual(['/blog']);
    } finally {
      await close();
    }
  });

  it('with PAGE_CACHE=off compresses each rendering in the coding asked for, with the bytes and ETag a kept page has', async () => {
    const off = await serve({ pageCache: false });
    const on = await serve();
    try {
      const offBr = await rawRequest(off.server, '/blog', { 'accept-encoding': 'br' });
      const onBr = await rawRequest(on.server, '/blog', { 'accept-encoding': 'br' });
      expect(offBr.headers['content-encoding']).toBe('br');
      expect(offBr.body.equals(onBr.body)).toBe(true);
      expect(offBr.headers.etag).toBe(onBr.headers.etag);
      const notModified = await rawRequest(off.server, '/blog', { 'accept-encoding': 'br', 'if-none-match': offBr.headers.etag! });
      expect(notModified.status).toBe(304);
      expect(off.renders).toEqual(['/blog', '/blog']);
      expect(off.pages.cache.size).toBe(0);
    } finally {
      await Promise.all([off.close(), on.close()]);
    }
  });

  it('behind the on-the-fly compression: kept pages are not compressed twice, signed-in personal pages are compressed and private', async () => {
    const { server, close } = await serve({ compression: true });
    try {
      await rawRequest(server, '/blog', { 'accept-encoding': 'br' });
      const cached = await rawRequest(server, '/blog', { 'accept-encoding': 'br' });
      expect(cached.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(cached.body).equals(identityBytes)).toBe(true);
      expect(cached.headers['vary']).toBe('Accept, Accept-Encoding');

      const signedIn = await rawRequest(server, '/dashboard', { 'accept-encoding': 'gzip', cookie: 'inkwell_access=jwt' });
      expect(signedIn.headers['cache-control']).toBe('private, no-store');
      expect(signedIn.headers['content-encoding']).toBe('gzip');
      expect(signedIn.headers['vary']).toBe('Cookie, Accept-Encoding');
      expect(signedIn.headers.etag).toBeUndefined();
      expect(gunzipSync(signedIn.body).equals(identityBytes)).toBe(true);
      // Rendered whole and compressed once: one body with its length, not a chunked stream.
      expect(signedIn.headers['content-length']).toBe(String(signedIn.body.length));
      expect(signedIn.headers['transfer-encoding']).toBeUndefined();

      const signedInBr = await rawRequest(server, '/account', { 'accept-encoding': 'br, gzip', cookie: 'inkwell_access=jwt' });
      expect(signedInBr.headers['content-encoding']).toBe('br');
      expect(signedInBr.headers['content-length']).toBe(String(signedInBr.body.length));
      expect(brotliDecompressSync(signedInBr.body).equals(identityBytes)).toBe(true);
      const signedInPlain = await rawRequest(server, '/account', { cookie: 'inkwell_access=jwt' });
      expect(signedInPlain.headers['content-encoding']).toBeUndefined();
      expect(signedInPlain.body.equals(identityBytes)).toBe(true);
    } finally {
      await close();
    }
  });
});
