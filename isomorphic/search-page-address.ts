/**
 * The one reading of a `/search` address, shared by the page (frontend/src/features/search
 * imports this file) and the anonymous page cache (page-cache-policy.ts `pageCacheKey`): the page
 * searches for and shows exactly what the cache key holds, so every address with the same key
 * renders the same page and may share one cached copy. No imports: the frontend bundles it.
 */

export const SEARCH_PATH = '/search';

/** The filters of the search page, in the key's order. */
export const SEARCH_FILTERS = ['tag', 'author', 'from', 'to'] as const;
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

/** What a `/search` address asks for: the normalised query, the filters given, and `page` as written. */
export interface SearchPageParams {
  q: string;
  tag: string;
  author: string;
  from: string;
  to: string;
  /** The address's `page` as written ('' when absent): lib/paging reads and redirects it. */
  page: string;
}

/**
 * A query as the search reads it: NFKC (full-width letters, ligatures and composed accents read
 * as their plain forms), lower case, surrounding white space trimmed and inner runs collapsed to
 * one space. Full-text search ignores case and spacing, so these are the same search.
 */
export function normaliseSearchQuery(raw: string): string {
  return raw.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** The search an address asks for: each parameter's first value, trimmed; unknown parameters are ignored. */
export function searchPageParams(params: URLSearchParams): SearchPageParams {
  const first = (name: string) => (params.get(name) ?? '').trim();
  return {
    q: normaliseSearchQuery(params.get('q') ?? ''),
    tag: first('tag'),
    author: first('author'),
    from: first('from'),
    to: first('to'),
    page: params.get('page') ?? '',
  };
}

/**
 * The canonical query string of a search (no leading '?'): q, then the filters in SEARCH_FILTERS
 * order, then page; empty values are left out, so `?tag=&q=Foo%20%20Bar` and `?q=foo+bar` are one.
 */
export function canonicalSearchQuery(search: SearchPageParams): string {
  const canonical = new URLSearchParams();
  if (search.q) canonical.set('q', search.q);
  for (const filter of SEARCH_FILTERS) if (search[filter]) canonical.set(filter, search[filter]);
  if (search.page) canonical.set('page', search.page);
  return canonical.toString();
}

/** The page-cache key of a `/search` request (path and query as received): the path and the canonical query. */
export function searchPageKey(path: string, query: string): string {
  const canonical = canonicalSearchQuery(searchPageParams(new URLSearchParams(query)));
  return canonical ? `${path}?${canonical}` : path;
}
