import { etagOf, matchesIfNoneMatch, PageCache, type CachedPage } from './page-cache';
import {
  hasSessionCookie,
  isCacheableResponse,
  isPublicPagePath,
  PageGroup,
  pageGroupOf,
  postPageGroup,
  postSlugOf,
} from './page-cache-policy';
import { PageCacheService } from './page-cache.service';
import { ContentEvents } from '../common/content-events';
import { loadConfig } from '../config/env';
import type { Request } from 'express';

function page(body: string, status = 200): CachedPage {
  const buffer = Buffer.from(body);
  return { status, body: buffer, etag: etagOf(buffer), headers: { 'content-type': 'text/html' } };
}

describe('PageCache', () => {
  it('keeps at most maxEntries pages, dropping the least recently used first', () => {
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntries: 3 });
    cache.set('/a', page('a'));
    cache.set('/b', page('b'));
    cache.set('/c', page('c'));
    expect(cache.get('/a')?.body.toString()).toBe('a'); // /a is now the most recent
    cache.set('/d', page('d'));
    expect(cache.size).toBe(3);
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')?.body.toString()).toBe('a');
    expect(cache.get('/c')?.body.toString()).toBe('c');
    expect(cache.get('/d')?.body.toString()).toBe('d');
  });

  it('keeps the bytes under maxBytes, evicting old pages for a new one', () => {
    const cache = new PageCache({ maxBytes: 8_000, maxEntries: 100 });
    for (let i = 0; i < 20; i++) cache.set(`/p${i}`, page('x'.repeat(700)));
    expect(cache.totalBytes).toBeLessThanOrEqual(8_000);
    expect(cache.size).toBeLessThan(20);
    expect(cache.get('/p19')).toBeDefined();
    expect(cache.get('/p0')).toBeUndefined();
  });

  it('does not keep a page bigger than an eighth of the budget, and replacing a key frees its old size', () => {
    const cache = new PageCache({ maxBytes: 8_000, maxEntries: 100 });
    expect(cache.set('/big', page('x'.repeat(2_000)))).toBe(false);
    expect(cache.get('/big')).toBeUndefined();
    cache.set('/a', page('x'.repeat(500)));
    const before = cache.totalBytes;
    cache.set('/a', page('y'.repeat(500)));
    expect(cache.totalBytes).toBe(before);
    expect(cache.get('/a')?.body.toString()).toBe('y'.repeat(500));
  });

  it('clear() empties it', () => {
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntries: 10 });
    cache.set('/a', page('a'));
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.totalBytes).toBe(0);
    expect(cache.get('/a')).toBeUndefined();
  });
});

describe('ETag helpers', () => {
  it('gives the same strong ETag for the same bytes and another for other bytes', () => {
    expect(etagOf(Buffer.from('hello'))).toBe(etagOf(Buffer.from('hello')));
    expect(etagOf(Buffer.from('hello'))).not.toBe(etagOf(Buffer.from('hello!')));
    expect(etagOf(Buffer.from('hello'))).toMatch(/^"[\w-]+"$/);
  });

  it('matches If-None-Match lists, weak forms and *', () => {
    const etag = etagOf(Buffer.from('x'));
    expect(matchesIfNoneMatch(undefined, etag)).toBe(false);
    expect(matchesIfNoneMatch(etag, etag)).toBe(true);
    expect(matchesIfNoneMatch(`"other", ${etag}`, etag)).toBe(true);
    expect(matchesIfNoneMatch(`W/${etag}`, etag)).toBe(true);
    expect(matchesIfNoneMatch('*', etag)).toBe(true);
    expect(matchesIfNoneMatch('"other"', etag)).toBe(false);
  });
});

describe('page cache policy', () => {
  it('knows the public reading pages', () => {
    for (const path of [
      '/',
      '/home',
      '/about',
      '/blog',
      '/blog/',
      '/blog/my-post',
      '/blog/tag/web',
      '/tag/web',
      '/authors',
      '/authors/ann',
      '/search',
      '/rss.xml',
      '/sitemap.xml',
    ]) {
      expect([path, isPublicPagePath(path)]).toEqual([path, true]);
    }
    for (const path of [
      '/login',
      '/account',
      '/author/posts',
      '/admin',
      '/blog/a/b',
      '/dashboard',
      '/notifications',
      '/tag',
      '/api/v1/health',
      '/fragments/session',
    ]) {
      expect([path, isPublicPagePath(path)]).toEqual([path, false]);
    }
  });

  it('caches the sitemap index and its files in the sitemap group, and no other sitemap-like address', () => {
    for (const path of [
      '/sitemap.xml',
      '/sitemap-pages.xml',
      '/sitemap-posts-1.xml',
      '/sitemap-posts-12.xml',
      '/sitemap-tags-1.xml',
      '/sitemap-authors-3.xml',
    ]) {
      expect([path, isPublicPagePath(path), pageGroupOf(path)]).toEqual([path, true, PageGroup.sitemap]);
    }
    for (const path of [
      '/sitemap-posts-0.xml',
      '/sitemap-posts.xml',
      '/sitemap-pages-1.xml',
      '/sitemap-users-1.xml',
      '/sitemap-posts-01.xml',
      '/sitemap-posts-1.xml/x',
    ]) {
      expect([path, isPublicPagePath(path)]).toEqual([path, false]);
    }
  });

  it('caches author pages, their feeds and tag feeds in their groups', () => {
    for (const path of ['/authors/ada-lovelace', '/authors/ada-lovelace/', '/authors/ada-lovelace/rss.xml', '/blog/tag/web/rss.xml']) {
      expect([path, isPublicPagePath(path)]).toEqual([path, true]);
    }
    for (const path of ['/authors/a/b', '/authors/a/rss.xml/x', '/blog/tag/web/atom.xml', '/tag/web/rss.xml']) {
      expect([path, isPublicPagePath(path)]).toEqual([path, false]);
    }
    expect(pageGroupOf('/authors/ada-lovelace?page=2')).toBe(PageGroup.authorPages);
    expect(pageGroupOf('/authors/ada-lovelace/rss.xml')).toBe(PageGroup.authorPages);
    expect(pageGroupOf('/authors')).toBe(PageGroup.authors);
    expect(pageGroupOf('/blog/tag/web/rss.xml')).toBe(PageGroup.tags);
  });

  it("drops author pages on a post, a like, a tag or any account change; a post change drops every post's page (related posts)", () => {
    const events = new ContentEvents();
    const service = new PageCacheService(
      loadConfig({ DATA_DIR: '/tmp/inkwell-page-cache-spec', JWT_SECRET: 'x'.repeat(40), PAGE_CACHE: 'on' }),
      events,
    );
    const keys = ['/authors/ada', '/authors/ada/rss.xml', '/blog/tag/web/rss.xml', '/blog/other-post', '/sitemap.xml', '/authors'];
    const fill = () => keys.forEach((key) => service.store(key, page(key), service.generation));
    const kept = () => keys.filter((key) => service.cache.get(key) !== undefined);

    fill();
    service.dropStale({ kind: 'post', postId: 1, slugs: ['a-post'] });
    expect(kept()).toEqual([]);
    fill();
    service.dropStale({ kind: 'post-counters', postId: 1, slug: 'a-post', counter: 'likes' });
    expect(kept()).toEqual(['/blog/other-post', '/sitemap.xml']);
    fill();
    service.dropStale({ kind: 'post-counters', postId: 1, slug: 'a-post', counter: 'comments' });
    expect(kept()).toEqual(keys);
    service.dropStale({ kind: 'user', userId: 1, profileChanged: false });
    expect(kept()).toEqual(['/blog/tag/web/rss.xml', '/blog/other-post']);
    fill();
    service.dropStale({ kind: 'user', userId: 1, profileChanged: true });
    expect(kept()).toEqual(['/sitemap.xml']);
    fill();
    service.dropStale({ kind: 'tag', tagId: 1, slugs: ['web'] });
    expect(kept()).toEqual(['/authors']);
    expect(postPageGroup('other-post')).toBe(pageGroupOf('/blog/other-post'));
    service.onModuleDestroy();
  });

  it('finds the slug of a post page only', () => {
    expect(postSlugOf('/blog/my-post-2')).toBe('my-post-2');
    expect(postSlugOf('/blog/tag/web')).toBeUndefined();
    expect(postSlugOf('/blog')).toBeUndefined();
    expect(postSlugOf('/blog/Bad_Slug')).toBeUndefined();
  });

  it('sees the session cookies, parsed or raw', () => {
    const req = (cookies: Record<string, string> | undefined, header?: string) =>
      ({ cookies, headers: { cookie: header } }) as unknown as Request;
    expect(hasSessionCookie(req({}))).toBe(false);
    expect(hasSessionCookie(req({ theme: 'dark' }))).toBe(false);
    expect(hasSessionCookie(req({ inkwell_access: 'jwt' }))).toBe(true);
    expect(hasSessionCookie(req({ inkwell_refresh: 'token' }))).toBe(true);
    expect(hasSessionCookie(req(undefined, 'a=1; inkwell_refresh=t'))).toBe(true);
    expect(hasSessionCookie(req(undefined, 'a=1'))).toBe(false);
  });

  it('caches only complete 200/404 HTML or XML answers without Set-Cookie', () => {
    expect(isCacheableResponse(200, { 'content-type': 'text/html; charset=utf-8' })).toBe(true);
    expect(isCacheableResponse(404, { 'content-type': 'text/html' })).toBe(true);
    expect(isCacheableResponse(200, { 'content-type': 'application/rss+xml; charset=utf-8' })).toBe(true);
    expect(isCacheableResponse(200, { 'content-type': 'application/xml' })).toBe(true);
    expect(isCacheableResponse(503, { 'content-type': 'text/html' })).toBe(false);
    expect(isCacheableResponse(301, { 'content-type': 'text/html' })).toBe(false);
    expect(isCacheableResponse(200, { 'content-type': 'application/json' })).toBe(false);
    expect(isCacheableResponse(200, { 'content-type': 'text/html', 'set-cookie': ['a=1'] })).toBe(false);
  });
});
