import express from 'express';
import { gunzipSync } from 'node:zlib';
import { listen, rawRequest } from '../../test/helpers/raw-request';
import { COMPRESSION_THRESHOLD_BYTES, markCompressedByApp, onTheFlyCompression } from './http-compression';

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
