import express from 'express';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { listen, rawRequest } from '../../test/helpers/raw-request';
import { PROJECT_ROOT } from '../config/paths';
import { IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL, StaticAssets } from './static-assets';

/** A client folder as the build leaves it, made compressed by the real post-build step. */
function buildFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'inkwell-assets-'));
  mkdirSync(join(dir, '_astro'));
  const script = Buffer.from(
    Array.from({ length: 300 }, (_, i) => `export function island${i}(props) { return props.value + ${i}; }`).join('\n'),
  );
  writeFileSync(join(dir, '_astro', 'client.AbC123.js'), script);
  writeFileSync(join(dir, '_astro', 'tiny.Xy9.js'), 'export{};');
  writeFileSync(join(dir, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(60)}</svg>`);
  // A WebP is compressed already: the post-build step leaves it alone.
  writeFileSync(join(dir, '_astro', 'photo.Q1.webp'), Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 '), Buffer.alloc(2048, 7)]));
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'precompress-assets.mjs'), dir], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`precompress-assets failed: ${run.stderr}`);
  return { dir, script, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('scripts/precompress-assets.mjs', () => {
  it('writes .br and .gz beside the text files that decompress to the file, and none for images or where it would not be smaller', () => {
    const { dir, script, cleanup } = buildFolder();
    try {
      expect(brotliDecompressSync(readFileSync(join(dir, '_astro', 'client.AbC123.js.br'))).equals(script)).toBe(true);
      expect(gunzipSync(readFileSync(join(dir, '_astro', 'client.AbC123.js.gz'))).equals(script)).toBe(true);
      expect(existsSync(join(dir, 'favicon.svg.br'))).toBe(true);
      expect(existsSync(join(dir, '_astro', 'photo.Q1.webp.br'))).toBe(false);
      expect(existsSync(join(dir, '_astro', 'tiny.Xy9.js.gz'))).toBe(false);
    } finally {
      cleanup();
    }
  });
});

describe('StaticAssets', () => {
  let folder: ReturnType<typeof buildFolder>;
  let server: Awaited<ReturnType<typeof listen>>;
  let assets: StaticAssets;

  beforeAll(async () => {
    folder = buildFolder();
    assets = new StaticAssets(folder.dir);
    const app = express();
    app.use((req, res, next) => (assets.serve(req, res, req.path) ? undefined : next()));
    app.use((req, res) => res.status(404).send('next'));
    server = await listen(app);
  });
  afterAll(async () => {
    await server.close();
    folder.cleanup();
  });

  it('holds the files of the build, not their .br/.gz', () => {
    expect(assets.has('/_astro/client.AbC123.js')).toBe(true);
    expect(assets.has('/_astro/client.AbC123.js.br')).toBe(false);
    expect(assets.has('/favicon.svg')).toBe(true);
  });

  it('sends the .br file for br, the .gz file for gzip and the file itself otherwise, with immutable caching', async () => {
    const br = await rawRequest(server.server, '/_astro/client.AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.equals(readFileSync(join(folder.dir, '_astro', 'client.AbC123.js.br')))).toBe(true);
    expect(br.headers['content-length']).toBe(String(br.body.length));

    const gzip = await rawRequest(server.server, '/_astro/client.AbC123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body.equals(readFileSync(join(folder.dir, '_astro', 'client.AbC123.js.gz')))).toBe(true);

    const identity = await rawRequest(server.server, '/_astro/client.AbC123.js');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(folder.script)).toBe(true);

    for (const response of [br, gzip, identity]) {
      expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
      expect(response.headers['vary']).toBe('Accept-Encoding');
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    }
    expect(new Set([br.headers.etag, gzip.headers.etag, identity.headers.etag]).size).toBe(3);
    expect(br.headers.etag).toBe(`${identity.headers.etag!.slice(0, -1)}-br"`);
    expect(gzip.headers.etag).toBe(`${identity.headers.etag!.slice(0, -1)}-gz"`);
  });

  it('answers 304 for the ETag of the coding sent, and 200 when the ETag is another coding’s', async () => {
    const br = await rawRequest(server.server, '/_astro/client.AbC123.js', { 'accept-encoding': 'br' });
    const notModified = await rawRequest(server.server, '/_astro/client.AbC123.js', {
      'accept-encoding': 'br',
      'if-none-match': br.headers.etag!,
    });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.etag).toBe(br.headers.etag);
    expect(notModified.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
    const otherCoding = await rawRequest(server.server, '/_astro/client.AbC123.js', {
      'accept-encoding': 'gzip',
      'if-none-match': br.headers.etag!,
    });
    expect(otherCoding.status).toBe(200);
    expect(otherCoding.headers['content-encoding']).toBe('gzip');
  });

  it('answers HEAD with the length of the coding it would send and no body', async () => {
    const head = await rawRequest(server.server, '/_astro/client.AbC123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(readFileSync(join(folder.dir, '_astro', 'client.AbC123.js.br')).length));
  });

  it('sends files without a smaller variant as they are, and revalidates names that are not hashed', async () => {
    const tiny = await rawRequest(server.server, '/_astro/tiny.Xy9.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export{};');
    const photo = await rawRequest(server.server, '/_astro/photo.Q1.webp', { 'accept-encoding': 'br, gzip' });
    expect(photo.headers['content-encoding']).toBeUndefined();
    expect(photo.headers['content-type']).toBe('image/webp');
    const favicon = await rawRequest(server.server, '/favicon.svg', { 'accept-encoding': 'br' });
    expect(favicon.headers['content-encoding']).toBe('br');
    expect(favicon.headers['cache-control']).toBe(REVALIDATE_CACHE_CONTROL);
  });

  it('leaves other paths and methods to the next handler', async () => {
    expect((await rawRequest(server.server, '/_astro/missing.js')).body.toString()).toBe('next');
    expect((await rawRequest(server.server, '/_astro/client.AbC123.js', {}, 'POST')).body.toString()).toBe('next');
  });

  it('holds nothing for a folder that does not exist (no build yet)', () => {
    expect(new StaticAssets(join(folder.dir, 'missing')).size).toBe(0);
  });
});
