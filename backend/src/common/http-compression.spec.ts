import compression from 'compression';
import express from 'express';
import { constants, gunzipSync } from 'node:zlib';
import { listen, rawRequest } from '../../test/helpers/raw-request';
import { COMPRESSION_THRESHOLD_BYTES, markCompressedByApp, onTheFlyCompression, shouldCompressOnTheFly } from './http-compression';

/** Answers of each kind, big enough to be compressed if the rules allowed it. */
function app() {
  const big = 'x'.repeat(COMPRESSION_THRESHOLD_BYTES * 4);
  const server = express();
  server.use(onTheFlyCompression());
  server.get('/json', (req, res) => res.json({ text: big }));
  server.get('/small', (req, res) => res.json({ ok: true }));
  server.get('/events', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(`data: ${big}\n\n`);
    res.end();
  });
  server.get('/image', (req, res) => res.type('image/png').send(Buffer.alloc(8192, 1)));
  server.get('/svg', (req, res) => res.type('image/svg+xml').send(`<svg>${big}</svg>`));
  server.get('/marked', (req, res) => {
    markCompressedByApp(res);
    res.type('text/html').send(`<p>${big}</p>`);
  });
  return server;
}

describe('onTheFlyCompression', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    server = await listen(app());
  });
  afterAll(() => server.close());

  const get = (path: string, coding = 'br, gzip') => rawRequest(server.server, path, { 'accept-encoding': coding });

  it('compresses JSON from 1 KB in the coding the client prefers (br first) and adds Vary: Accept-Encoding', async () => {
    const br = await get('/json');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    const gzip = await get('/json', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual({ text: 'x'.repeat(COMPRESSION_THRESHOLD_BYTES * 4) });
    expect((await get('/json', 'identity')).headers['content-encoding']).toBeUndefined();
    const none = await rawRequest(server.server, '/json');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(none.body.toString())).toEqual({ text: 'x'.repeat(COMPRESSION_THRESHOLD_BYTES * 4) });
  });

  it('leaves small answers, event streams, images and answers the app encoded itself alone', async () => {
    for (const path of ['/small', '/events', '/image', '/marked']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
    }
    expect((await get('/events')).body.toString()).toMatch(/^data: x+\n\n$/);
    expect((await get('/svg')).headers['content-encoding']).toBe('br');
  });
});

/**
 * The `compression` middleware set up on every request, as onTheFlyCompression did before it
 * put the set-up off (the reference its answers are compared with).
 */
function eagerCompression(): express.RequestHandler {
  const compress = compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    filter: shouldCompressOnTheFly,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  }) as express.RequestHandler;
  return (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next());
}

/** The same routes behind either middleware: every way the app starts and ends an answer. */
function routes(onTheFly: express.RequestHandler) {
  const big = 'x'.repeat(COMPRESSION_THRESHOLD_BYTES * 4);
  const server = express();
  server.use(onTheFly);
  // Wrappers added after the middleware, as the pages add them (reason phrase, response buffer).
  server.use('/wrapped', (req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: express.Response, ...args: unknown[]) {
      this.statusMessage = 'Wrapped';
      return (writeHead as (...a: unknown[]) => express.Response).apply(this, args);
    } as typeof res.writeHead;
    const end = res.end;
    res.end = function (this: express.Response, ...args: unknown[]) {
      this.setHeader('X-Wrapped', 'yes');
      return (end as (...a: unknown[]) => express.Response).apply(this, args);
    } as typeof res.end;
    next();
  });
  server.get(['/small', '/wrapped/small'], (req, res) => res.json({ ok: true }));
  server.get(['/json', '/wrapped/json'], (req, res) => res.json({ text: big }));
  server.get('/etag', (req, res) => res.json({ text: big }));
  server.get('/no-transform', (req, res) => res.set('Cache-Control', 'private, no-transform').json({ text: big }));
  server.get('/encoded', (req, res) => res.set('Content-Encoding', 'identity').type('text/plain').send(big));
  server.get('/empty', (req, res) => res.status(204).end());
  server.get('/string-end', (req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.end(req.query.big ? big : 'short');
  });
  server.get('/write-head-first', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<p>${big}</p>`);
  });
  server.get('/streamed', (req, res) => {
    res.type('text/plain');
    res.write(big);
    res.write('-middle-');
    setImmediate(() => res.end(big));
  });
  server.get('/events', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(`data: ${big}\n\n`);
    res.end();
  });
  server.get('/image', (req, res) => res.type('image/png').send(Buffer.alloc(8192, 1)));
  server.get('/marked', (req, res) => {
    markCompressedByApp(res);
    res.type('text/html').send(`<p>${big}</p>`);
  });
  server.get('/vary-set', (req, res) => res.vary('Cookie').json({ ok: true }));
  server.get('/end-callback', (req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.end(() => undefined);
  });
  // Express's own error page carries the stack, whose frames differ by middleware: the message only.
  server.use(
    ((error, _req, res, _next) =>
      void res
        .status(500)
        .type('text')
        .send(String((error as Error).message))) as express.ErrorRequestHandler,
  );
  return server;
}

describe('onTheFlyCompression puts compression off without changing any answer', () => {
  let eager: Awaited<ReturnType<typeof listen>>;
  let deferred: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    eager = await listen(routes(eagerCompression()));
    deferred = await listen(routes(onTheFlyCompression()));
  });
  afterAll(async () => {
    await eager.close();
    await deferred.close();
  });

  const paths = [
    '/small',
    '/json',
    '/no-transform',
    '/encoded',
    '/empty',
    '/string-end',
    '/string-end?big=1',
    '/write-head-first',
    '/streamed',
    '/events',
    '/image',
    '/marked',
    '/vary-set',
    '/end-callback',
    '/wrapped/small',
    '/wrapped/json',
    '/missing',
  ];
  const codings = [undefined, 'br, gzip', 'gzip', 'deflate', 'identity', 'gzip;q=0'];

  it('sends the same status, headers (in order) and bytes for every route, coding and method', async () => {
    for (const path of paths) {
      for (const coding of codings) {
        for (const method of ['GET', 'HEAD']) {
          const headers = coding === undefined ? {} : { 'accept-encoding': coding };
          const want = await rawRequest(eager.server, path, headers, method);
          const got = await rawRequest(deferred.server, path, headers, method);
          const seen = (res: typeof want) => [
            method,
            path,
            coding,
            res.status,
            Object.entries(res.headers).filter(([name]) => name !== 'date'),
            res.body.toString('base64'),
          ];
          expect(seen(got)).toEqual(seen(want));
        }
      }
    }
  });

  it('answers a conditional request the same (304 with the ETag of what it would send)', async () => {
    const first = await rawRequest(deferred.server, '/etag', { 'accept-encoding': 'br' });
    const headers = { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) };
    const want = await rawRequest(eager.server, '/etag', headers);
    const got = await rawRequest(deferred.server, '/etag', headers);
    expect(got.status).toBe(304);
    expect(Object.entries(got.headers).filter(([name]) => name !== 'date')).toEqual(
      Object.entries(want.headers).filter(([name]) => name !== 'date'),
    );
  });
});
