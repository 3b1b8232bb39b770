import type { HttpAdapterHost } from '@nestjs/core';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { ContentEvents } from '../common/content-events';
import { loadConfig } from '../config/env';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { listen, rawRequest } from '../../test/helpers/raw-request';
import { etagOf, withEncodings, type CachedPage } from './page-cache';
import { PageCacheFastPath } from './page-cache-fast-path';
import { PageCacheService } from './page-cache.service';
import { postSlugOf } from './page-cache-policy';
import type { PostViewRecorder } from './post-view-recorder';

/** Cache hits answered on the HTTP server's request event, before the app. */
function setup(options: { pageCache?: boolean } = {}) {
  const config = loadConfig({
    DATA_DIR: '/tmp/inkwell-page-cache-spec',
    JWT_SECRET: 'x'.repeat(40),
    PAGE_CACHE: options.pageCache === false ? 'off' : 'on',
  });
  const pages = new PageCacheService(config, new ContentEvents());
  const reachedApp: string[] = [];
  const server: Server = createServer((req, res) => {
    reachedApp.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('from the app');
  });
  const views: string[] = [];
  const adapterHost = { httpAdapter: { getHttpServer: () => server } } as unknown as HttpAdapterHost;
  const fastPath = new PageCacheFastPath(adapterHost, pages, {
    // As PageViewRecorder counts viewCount: a post page (200) from the cache.
    pageServed: (_req, path, status, cached) => {
      const slug = postSlugOf(path);
      if (cached && status === 200 && slug) views.push(slug);
    },
  } satisfies PostViewRecorder);
  fastPath.onApplicationBootstrap();
  const put = (key: string, body: string, status = 200) => {
    const bytes = Buffer.from(body);
    const page: CachedPage = {
      status,
      body: bytes,
      etag: etagOf(bytes),
      headers: { 'content-type': 'text/html', 'x-frame-options': 'SAMEORIGIN' },
    };
    pages.cache.set(key, page);
    return page;
  };
  /** A page kept with its br and gzip bodies, as FrontendMiddleware keeps them. */
  const putEncoded = async (key: string, body: string) => {
    const bytes = Buffer.from(body);
    const page = await withEncodings({ status: 200, body: bytes, etag: etagOf(bytes), headers: { 'content-type': 'text/html' } });
    pages.cache.set(key, page);
    return page;
  };
  return { server, pages, reachedApp, views, put, putEncoded };
}

describe('PageCacheFastPath', () => {
  it('answers a hit itself with the stored headers, the ETag, Cache-Control and a request id', async () => {
    const { server, reachedApp, put } = setup();
    const page = put('/blog?page=2', '<p>page 2</p>');
    const response = await request(server).get('/blog?page=2').expect(200);
    expect(response.text).toBe('<p>page 2</p>');
    expect(response.headers).toMatchObject({
      'content-type': 'text/html',
      'x-frame-options': 'SAMEORIGIN',
      etag: page.etag,
      'cache-control': 'public, max-age=0, must-revalidate',
      vary: 'Accept, Accept-Encoding',
      'content-length': String(page.body.length),
    });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(reachedApp).toEqual([]);
  });

  it('answers 304 to a matching If-None-Match and HEAD without a body', async () => {
    const { server, put, reachedApp } = setup();
    const page = put('/authors', '<p>authors</p>');
    const notModified = await request(server).get('/authors').set('If-None-Match', page.etag).expect(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers['etag']).toBe(page.etag);
    expect(notModified.headers['content-type']).toBeUndefined();
    const head = await request(server).head('/authors').expect(200);
    expect(head.text).toBeUndefined();
    expect(reachedApp).toEqual([]);
  });

  it('answers an equivalent /search address from the page kept under its canonical key', async () => {
    const { server, put, reachedApp } = setup();
    put('/search?q=rust+async&tag=web', '<p>results</p>');
    await request(server).get('/search?tag=web&q=Rust%20%20Async&author=').expect(200, '<p>results</p>');
    await request(server).get('/search?q=rust+async').expect(200, 'from the app');
    expect(reachedApp).toEqual(['GET /search?q=rust+async']);
  });

  it('passes misses, other methods and other pages on to the app; answers signed-in visitors of public pages from the cache', async () => {
    const { server, put, reachedApp } = setup();
    put('/blog', '<p>blog</p>');
    put('/login', '<p>login</p>');
    await request(server).get('/blog?page=1').expect(200, 'from the app');
    await request(server).post('/blog').expect(200, 'from the app');
    await request(server).get('/login').expect(200, 'from the app');
    await request(server).get('/blog').set('Cookie', 'theme=dark; inkwell_access=jwt').expect(200, '<p>blog</p>');
    await request(server).get('/blog').set('Cookie', 'inkwell_refresh=t; inkwell_signed_in=1').expect(200, '<p>blog</p>');
    await request(server).get('/blog').set('Cookie', 'theme=dark').expect(200, '<p>blog</p>');
    put('/fragments/session', '<p>never kept</p>');
    await request(server).get('/fragments/session').set('Cookie', 'inkwell_access=jwt').expect(200, 'from the app');
    expect(reachedApp).toEqual(['GET /blog?page=1', 'POST /blog', 'GET /login', 'GET /fragments/session']);
  });

  it('counts a view for a post page hit, not for 404s or other pages', async () => {
    const { server, put, views } = setup();
    put('/blog/hello-world', '<p>post</p>');
    put('/blog/missing', '<p>Post Not Found</p>', 404);
    put('/blog/tag/web', '<p>tag</p>');
    await request(server).get('/blog/hello-world').expect(200);
    await request(server).get('/blog/missing').expect(404);
    await request(server).get('/blog/tag/web').expect(200);
    expect(views).toEqual(['hello-world']);
  });

  it('is not installed with PAGE_CACHE=off', async () => {
    const { server, put, reachedApp } = setup({ pageCache: false });
    put('/blog', '<p>blog</p>');
    await request(server).get('/blog').expect(200, 'from the app');
    expect(reachedApp).toEqual(['GET /blog']);
  });

  it('sends the br or gzip body kept with the page by Accept-Encoding, with its ETag, 304 per coding, and counts the view each time', async () => {
    const { server, putEncoded, reachedApp, views } = setup();
    const html = `<main>${'<p>A paragraph of the post, long enough to be worth compressing.</p>'.repeat(60)}</main>`;
    const page = await putEncoded('/blog/hello-world', html);
    const { server: listening, close } = await listen((req, res) => server.emit('request', req, res));
    try {
      const br = await rawRequest(listening, '/blog/hello-world', { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.etag).toBe(page.encoded!.br!.etag);
      expect(br.headers['content-length']).toBe(String(br.body.length));
      expect(brotliDecompressSync(br.body).toString()).toBe(html);
      const gzip = await rawRequest(listening, '/blog/hello-world', { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).toString()).toBe(html);
      const identity = await rawRequest(listening, '/blog/hello-world');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.body.toString()).toBe(html);
      for (const response of [br, gzip, identity]) expect(response.headers['vary']).toBe('Accept, Accept-Encoding');
      const notModified = await rawRequest(listening, '/blog/hello-world', {
        'accept-encoding': 'br',
        'if-none-match': page.encoded!.br!.etag,
      });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.etag).toBe(page.encoded!.br!.etag);
      const head = await rawRequest(listening, '/blog/hello-world', { 'accept-encoding': 'gzip' }, 'HEAD');
      expect(head.headers['content-length']).toBe(String(gzip.body.length));
      expect(head.body.length).toBe(0);
      expect(reachedApp).toEqual([]);
      expect(views).toEqual(Array(5).fill('hello-world'));
    } finally {
      await close();
    }
  });
});
