import type { Request } from 'express';
import { SLUG_BODY } from '../../../isomorphic/slug';
import { SEARCH_PATH, searchPageKey } from '../../../isomorphic/search-page-address';
import { isSitemapPath } from '../../../isomorphic/sitemap';
import { AUTHOR_PAGE, PERSONAL_FRAGMENT_PATH, TAG_FEED } from '../../../isomorphic/public-pages';

export { isPublicPagePath } from '../../../isomorphic/public-pages';

/** The session cookies (auth/auth-user.ts): a page outside the public ones is rendered for its session. */
export const SESSION_COOKIES = ['inkwell_access', 'inkwell_refresh'] as const;

const POST_PAGE = new RegExp(`^/blog/(${SLUG_BODY})/?$`);

/**
 * Public pages (the same HTML for everyone, signed in or not): any cache may keep them, and must
 * ask again each time (a conditional request the page cache answers 304 before Express): views
 * are counted and a change shows at once (docs/architecture.md).
 */
export const ANONYMOUS_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
/**
 * A public page differs by the coding (br, gzip, identity) and, for post and author pages, by
 * Accept (asked for as `application/activity+json` they answer the social web's document,
 * docs/federation.md), so a shared cache never hands a browser JSON or a server HTML. The session
 * never changes it (its personal parts are the fragment's).
 */
export const ANONYMOUS_VARY = 'Accept, Accept-Encoding';
export const PRIVATE_CACHE_CONTROL = 'private, no-store';
/** Anonymous pages outside the cache (/login, /register, unknown paths): a cache must ask each time (they carry no validator). */
export const UNCACHED_PAGE_CACHE_CONTROL = 'no-cache';

/** The per-user fragment (isomorphic/public-pages.ts), with or without a trailing slash. */
export function isPersonalFragmentPath(path: string): boolean {
  return path === PERSONAL_FRAGMENT_PATH || path === `${PERSONAL_FRAGMENT_PATH}/`;
}

/** `ref` and `utm_*` parameters (the newsletter's `?ref=newsletter`): they name where a reader came from, never change the page. */
const TRACKING_PARAMETER = /[?&](?:ref|utm_[a-z_]+)=/i;

/** The address without its `ref` and `utm_*` parameters (the rest kept in order; no `?` when none is left). */
export function withoutTrackingParameters(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const kept = url
    .slice(query + 1)
    .split('&')
    .filter((pair) => !/^(?:ref|utm_[a-z_]+)=/i.test(pair));
  return kept.length ? `${url.slice(0, query)}?${kept.join('&')}` : url.slice(0, query);
}

/**
 * The cache key of a public page request (its path and query, as received): the address itself
 * without `ref` and `utm_*` parameters (a newsletter link is a cache hit), except for `/search`, whose key is the canonical search (isomorphic/search-page-address.ts: the query
 * normalised, filters in one order, empty and unknown parameters left out), so equivalent
 * addresses share one entry.
 */
export function pageCacheKey(url: string): string {
  if (url.includes('?') && TRACKING_PARAMETER.test(url)) url = withoutTrackingParameters(url);
  // Every cache hit asks: other pages pay one prefix test.
  if (!url.startsWith(SEARCH_PATH)) return url;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path.replace(/(.)\/$/, '$1') !== SEARCH_PATH) return url;
  return searchPageKey(path, query === -1 ? '' : url.slice(query + 1));
}

/** The post slug of a /blog/{slug} path (not /blog/tag/...), else undefined. */
export function postSlugOf(path: string): string | undefined {
  const slug = POST_PAGE.exec(path)?.[1];
  return slug === 'tag' ? undefined : slug;
}

/**
 * The groups of cached pages, by what they show (PageCacheService drops groups, not the whole
 * cache): a post's own page (`post:{slug}`, every address of it) and the pages listing posts.
 */
export const PageGroup = {
  /** `/`, `/home`: the latest stories' cards (title, author, tags, likes). */
  home: 'home',
  /** `/blog`: a page of cards (likes), the featured post, the tags with published posts. */
  posts: 'posts',
  /** `/tag/{slug}`, `/blog/tag/{slug}`: a tag's cards (likes), the tags; `/blog/tag/{slug}/rss.xml`: its feed. */
  tags: 'tags',
  /** `/authors`: active authors with published posts, their names, bios, avatars, post and like totals. */
  authors: 'authors',
  /**
   * `/authors/{slug}` and `/authors/{slug}/rss.xml`: one author's profile (name, bio, avatar,
   * totals) and cards (likes, tags); who qualifies (a ban or lost role makes it 404).
   */
  authorPages: 'author-pages',
  /** `/rss.xml`: the latest posts' titles, summaries, authors' names, tags. */
  feed: 'feed',
  /** `/sitemap.xml` and its files (`/sitemap-posts-1.xml`…): published posts', tags' and author pages' addresses and dates. */
  sitemap: 'sitemap',
  /** `/search?…`: result cards (likes), the tags with published posts and the authors in its filters. */
  search: 'search',
  /** Any other address the cache keeps (e.g. `/blog/tag`): dropped on every change. */
  other: 'other',
} as const;

/** The group of a post's page. */
export const postPageGroup = (slug: string): string => `post:${slug}`;

/** The group of a cache key (a request's path and query). */
export function pageGroupOf(key: string): string {
  const query = key.indexOf('?');
  const path = (query === -1 ? key : key.slice(0, query)).replace(/(.)\/$/, '$1');
  const slug = postSlugOf(path);
  if (slug) return postPageGroup(slug);
  if (path === '/' || path === '/home') return PageGroup.home;
  if (path === '/blog') return PageGroup.posts;
  if (/^\/(?:blog\/)?tag\/[^/]+$/.test(path) || TAG_FEED.test(path)) return PageGroup.tags;
  if (AUTHOR_PAGE.test(path)) return PageGroup.authorPages;
  if (path === '/authors') return PageGroup.authors;
  if (path === '/rss.xml') return PageGroup.feed;
  if (isSitemapPath(path)) return PageGroup.sitemap;
  if (path === SEARCH_PATH) return PageGroup.search;
  return PageGroup.other;
}

const SESSION_COOKIE_IN_HEADER = new RegExp(`(?:^|;\\s*)(?:${SESSION_COOKIES.join('|')})=[^;\\s]`);

/** Whether a raw Cookie header carries a (non-empty) session cookie. */
export function cookieHeaderHasSession(header: string | undefined): boolean {
  return !!header && SESSION_COOKIE_IN_HEADER.test(header);
}

export function hasSessionCookie(req: Request): boolean {
  const cookies = req.cookies as Record<string, unknown> | undefined;
  if (cookies) return SESSION_COOKIES.some((name) => Boolean(cookies[name]));
  return cookieHeaderHasSession(req.headers.cookie);
}

/** Only complete HTML or XML pages are kept: a 200, or a 404 (unknown post or tag). */
export function isCacheableResponse(status: number, headers: Record<string, unknown>): boolean {
  if (status !== 200 && status !== 404) return false;
  if (headers['set-cookie'] !== undefined) return false;
  const type = String(headers['content-type'] ?? '');
  return /^(?:text\/html|application\/(?:rss\+)?xml|text\/xml)/i.test(type);
}
