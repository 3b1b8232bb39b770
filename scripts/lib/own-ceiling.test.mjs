// `node --test scripts/lib/`: the bench's own-bytes ceiling sends what the app sent.
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import { captureAnswer, startOwnCeiling, summarizePairs } from './own-ceiling.mjs';

/** One raw GET/POST: status, reason, raw headers and the body as sent. */
function raw(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolveRaw, reject) => {
    const outgoing = request(url, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolveRaw({
          status: res.statusCode,
          statusMessage: res.statusMessage,
          rawHeaders: res.rawHeaders,
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const withoutMoment = (rawHeaders) => {
  const pairs = [];
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (!/^(date|connection|keep-alive)$/i.test(rawHeaders[i])) pairs.push([rawHeaders[i], rawHeaders[i + 1]]);
  return pairs;
};

describe('own-bytes ceiling', () => {
  const page = brotliCompressSync(Buffer.from('<!doctype html><p>Hello</p>'.repeat(50)));
  let app;
  let base;
  const seen = [];
  before(async () => {
    app = createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
        if (req.url === '/page') {
          // A cached page: br, its own cache headers, two cookies, framed by Content-Length.
          res.writeHead(200, 'OK', [
            'Content-Type',
            'text/html; charset=utf-8',
            'Content-Encoding',
            'br',
            'Cache-Control',
            'public, max-age=0, must-revalidate',
            'ETag',
            '"abc-br"',
            'Set-Cookie',
            'a=1',
            'Set-Cookie',
            'b=2',
            'Content-Length',
            String(page.length),
          ]);
          res.end(page);
        } else if (req.url === '/stream') {
          // A rendered page: chunked, no length.
          res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'private, no-store' });
          res.write('<p>one</p>');
          res.end('<p>two</p>');
        } else {
          // A toggle: 201 with a JSON body that tells the request's body back.
          const answer = Buffer.from(JSON.stringify({ liked: true, echo: Buffer.concat(chunks).toString() }));
          res.writeHead(201, 'Created', { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
          res.end(answer);
        }
      });
    });
    await new Promise((done) => app.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${app.address().port}`;
  });
  after(() => new Promise((done) => app.close(done)));

  for (const path of ['/page', '/stream']) {
    it(`answers ${path} with the app's status, headers (order and case) and bytes as sent`, async () => {
      const answer = await captureAnswer(`${base}${path}`, { headers: { 'accept-encoding': 'br, gzip', cookie: 'inkwell_access=x' } });
      assert.equal(seen.at(-1).headers['accept-encoding'], 'br, gzip');
      assert.equal(seen.at(-1).headers.cookie, 'inkwell_access=x');
      const ceiling = await startOwnCeiling(answer);
      try {
        const [fromApp, fromCeiling] = await Promise.all([
          raw(`${base}${path}`),
          raw(`${ceiling.url}anything?at=all`, { method: 'POST', body: 'ignored' }),
        ]);
        assert.equal(fromCeiling.status, fromApp.status);
        assert.equal(fromCeiling.statusMessage, fromApp.statusMessage);
        assert.deepEqual(withoutMoment(fromCeiling.rawHeaders), withoutMoment(fromApp.rawHeaders));
        assert.deepEqual(fromCeiling.body, fromApp.body);
        if (path === '/page') assert.deepEqual(fromCeiling.body, page); // still compressed
        if (path === '/stream') assert.equal(fromCeiling.headers['transfer-encoding'], 'chunked');
      } finally {
        await ceiling.stop();
      }
    });
  }

  it("sends the row's method and body, a fresh id for each [<id>], and the ceiling repeats that answer's bytes", async () => {
    const answer = await captureAnswer(`${base}/toggle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"content":"Bench [<id>]"}',
    });
    const sent = seen.at(-1);
    assert.equal(sent.method, 'POST');
    assert.match(sent.body, /^\{"content":"Bench [0-9a-f-]{36}"\}$/);
    assert.equal(answer.status, 201);
    const ceiling = await startOwnCeiling(answer);
    try {
      const first = await raw(ceiling.url);
      const second = await raw(ceiling.url, { method: 'POST', body: 'x' });
      assert.equal(first.status, 201);
      assert.deepEqual(first.body, answer.body);
      assert.deepEqual(second.body, answer.body);
      assert.equal(first.headers['content-length'], String(answer.body.length));
    } finally {
      await ceiling.stop();
    }
  });

  it('keeps the medians of the pairs and the median of their ratios', () => {
    const run = (rps, p50, p99, errors = 0) => ({ rps, p50, p99, errors });
    const summary = summarizePairs([
      { app: run(100, 10, 40), ceiling: run(1000, 1, 3) },
      { app: run(300, 30, 90, 2), ceiling: run(1000, 1, 3) },
      { app: run(200, 20, 50, 1), ceiling: run(4000, 1, 3) },
    ]);
    assert.deepEqual(summary, { rps: 200, p50: 20, p99: 50, errors: 3, ceilingRps: 1000, ownRatio: 0.1, pairs: 3 });
  });

  it('takes the mean of the two middle pairs when there is an even count', () => {
    const run = (rps) => ({ rps, p50: rps, p99: rps, errors: 0 });
    const summary = summarizePairs([
      { app: run(100), ceiling: run(1000) },
      { app: run(300), ceiling: run(1000) },
    ]);
    assert.equal(summary.rps, 200);
    assert.equal(summary.ownRatio, 0.2);
  });
});
