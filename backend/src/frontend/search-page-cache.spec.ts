import { ContentEvents } from '../common/content-events';
import { loadConfig } from '../config/env';
import { etagOf, PageCache, type CachedPage } from './page-cache';
import { isPublicPagePath, pageCacheKey, PageGroup, pageGroupOf } from './page-cache-policy';
import { PageCacheService, SEARCH_PAGE_LIMITS } from './page-cache.service';
import { canonicalSearchQuery, normaliseSearchQuery, searchPageParams } from '../../../isomorphic/search-page-address';

function page(body: string): CachedPage {
  const buffer = Buffer.from(body);
  return { status: 200, body: buffer, etag: etagOf(buffer), headers: { 'content-type': 'text/html' } };
}

describe('search page address', () => {
  it('normalises a query: NFKC, lower case, trimmed, inner white space collapsed', () => {
    expect(normaliseSearchQuery('  Hello   World\t\n ')).toBe('hello world');
    // Full-width letters and the 'ﬁ' ligature read as their plain forms; composed and decomposed accents agree.
    expect(normaliseSearchQuery('ＴＩẾＮＧ Viê\u0323t ﬁle')).toBe('tiếng việt file');
    expect(normaliseSearchQuery('"Exact Phrase" -Excluded')).toBe('"exact phrase" -excluded');
    expect(normaliseSearchQuery('   ')).toBe('');
  });

  it('reads the first value of each parameter, trims the filters and ignores unknown parameters', () => {
    const params = new URLSearchParams('q=A&q=B&tag=%20web%20&author=&from=2026-01-01&utm_source=x&page=2');
    expect(searchPageParams(params)).toEqual({ q: 'a', tag: 'web', author: '', from: '2026-01-01', to: '', page: '2' });
  });

  it('writes q, then the filters in one order, then page, leaving empty values out', () => {
    expect(canonicalSearchQuery(searchPageParams(new URLSearchParams('page=3&to=2026-02-01&tag=web&q=Rust')))).toBe(
      'q=rust&tag=web&to=2026-02-01&page=3',
    );
    expect(canonicalSearchQuery(searchPageParams(new URLSearchParams('q=&tag=')))).toBe('');
  });

  it('gives equivalent /search addresses one cache key, and leaves other pages their own address', () => {
    const key = pageCacheKey('/search?q=rust+async&tag=web');
    for (const url of [
      '/search?q=Rust%20%20Async&tag=web',
      '/search?tag=web&q=%20RUST+async%20',
      '/search?q=rust+async&author=&tag=web&from=&to=&utm_campaign=spring',
      '/search?q=%EF%BC%B2ust+async&tag=web', // a full-width R
    ]) {
      expect([url, pageCacheKey(url)]).toEqual([url, key]);
    }
    expect(key).toBe('/search?q=rust+async&tag=web');
    expect(pageCacheKey('/search?q=rust&page=2')).not.toBe(pageCacheKey('/search?q=rust'));
    expect(pageCacheKey('/search?q=rust&tag=web')).not.toBe(pageCacheKey('/search?q=rust&tag=css'));
    expect(pageCacheKey('/search')).toBe('/search');
    expect(pageCacheKey('/search?')).toBe('/search');
    expect(pageCacheKey('/search?q=%E0%A4%A')).toBe(pageCacheKey('/search?q=%E0%A4%A')); // bad escapes read, never throw
    // Only /search is normalised: other addresses stay as they came.
    expect(pageCacheKey('/blog?page=2&x=Y')).toBe('/blog?page=2&x=Y');
    expect(pageCacheKey('/searching?q=A')).toBe('/searching?q=A');
  });

  it('is a public page in a group of its own', () => {
    expect(isPublicPagePath('/search')).toBe(true);
    expect(isPublicPagePath('/search/')).toBe(true);
    expect(isPublicPagePath('/search/x')).toBe(false);
    expect(pageGroupOf(pageCacheKey('/search?q=Rust'))).toBe(PageGroup.search);
  });
});

describe('search pages in the page cache', () => {
  it('bounds a group with limits of its own, evicting only its own least recently used pages', () => {
    const cache = new PageCache(
      { maxBytes: 1_000_000, maxEntries: 100, groups: { search: { maxBytes: 1_000_000, maxEntries: 3 } } },
      pageGroupOf,
    );
    cache.set('/blog', page('blog'));
    for (const q of ['a', 'b', 'c']) cache.set(`/search?q=${q}`, page(q));
    expect(cache.get('/search?q=a')).toBeDefined(); // now the most recent search
    cache.set('/search?q=d', page('d'));
    expect(cache.get('/search?q=b')).toBeUndefined();
    for (const kept of ['/search?q=a', '/search?q=c', '/search?q=d', '/blog'])
      expect([kept, cache.get(kept) !== undefined]).toEqual([kept, true]);
    expect(cache.size).toBe(4);
  });

  it('bounds a group by bytes too, and never keeps a page bigger than the group allows', () => {
    const cache = new PageCache(
      { maxBytes: 1_000_000, maxEntries: 100, groups: { search: { maxBytes: 3_000, maxEntries: 100 } } },
      pageGroupOf,
    );
    cache.set('/', page('home'));
    for (let i = 0; i < 10; i++) cache.set(`/search?q=w${i}`, page('x'.repeat(800)));
    expect(cache.get('/search?q=w9')).toBeDefined();
    expect(cache.get('/search?q=w0')).toBeUndefined();
    expect(cache.size).toBe(4); // the home page and the three newest searches
    expect(cache.set('/search?q=huge', page('x'.repeat(4_000)))).toBe(false);
    expect(cache.get('/')).toBeDefined();
    cache.deleteGroup(PageGroup.search);
    expect(cache.size).toBe(1);
    // The group's bytes were given back: it fills again up to its limit.
    for (let i = 0; i < 3; i++) cache.set(`/search?q=v${i}`, page('x'.repeat(800)));
    expect(cache.size).toBe(4);
  });

  it('a crawler asking random searches cannot push out the other pages', () => {
    const pages = new PageCacheService(
      loadConfig({ DATA_DIR: '/tmp/inkwell-search-cache-spec', JWT_SECRET: 'x'.repeat(40) }),
      new ContentEvents(),
    );
    pages.cache.set('/blog', page('blog'));
    for (let i = 0; i < SEARCH_PAGE_LIMITS.maxEntries + 200; i++)
      pages.cache.set(pageCacheKey(`/search?q=random${i}`), page(`result ${i}`));
    expect(pages.cache.size).toBe(SEARCH_PAGE_LIMITS.maxEntries + 1);
    expect(pages.cache.get('/blog')).toBeDefined();
    pages.onModuleDestroy();
  });

  it('drops search pages on the changes that drop the post lists, and on account changes', () => {
    const events = new ContentEvents();
    const pages = new PageCacheService(loadConfig({ DATA_DIR: '/tmp/inkwell-search-cache-spec', JWT_SECRET: 'x'.repeat(40) }), events);
    const key = pageCacheKey('/search?q=rust');
    const drops = (change: Parameters<ContentEvents['changed']>[0]) => {
      pages.cache.set(key, page('results'));
      pages.dropStale(change);
      return pages.cache.get(key) === undefined;
    };
    expect(drops({ kind: 'post', postId: 1, slugs: ['a'] })).toBe(true);
    expect(drops({ kind: 'post-counters', postId: 1, slug: 'a', counter: 'likes' })).toBe(true);
    expect(drops({ kind: 'tag', tagId: 1, slugs: ['web'] })).toBe(true);
    expect(drops({ kind: 'user', userId: 1, profileChanged: true })).toBe(true);
    expect(drops({ kind: 'user', userId: 1, profileChanged: false })).toBe(true);
    expect(drops({ kind: 'resync' })).toBe(true);
    // What no result page shows keeps them.
    expect(drops({ kind: 'post-counters', postId: 1, slug: 'a', counter: 'comments' })).toBe(false);
    expect(drops({ kind: 'post-comments', postId: 1, slug: 'a' })).toBe(false);
    expect(drops({ kind: 'unpublished-post', postId: 1 })).toBe(false);
    pages.onModuleDestroy();
  });
});
