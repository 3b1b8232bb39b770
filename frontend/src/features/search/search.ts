/**
 * The /search page's reads: the results for the address's search (normalised and
 * read by search-page-address.ts, the same reading as the page cache's key, so every address
 * with one key renders one page), and the lists its filters offer: the tags with published posts
 * and the authors. Each read is settled to Loaded.
 */
import type { ApiClient } from '../../lib/api/client';
import { load } from '../../lib/settle';
import { canonicalSearchQuery, SEARCH_PATH, type SearchPageParams } from '../../../../isomorphic/search-page-address';
import type { DataOf } from '../../lib/api/schema';

export { searchPageParams, type SearchPageParams } from '../../../../isomorphic/search-page-address';

/** Results a page. */
export const SEARCH_PAGE_SIZE = 10;

export type SearchResults = DataOf<'/api/v1/blog/search'>;
export type SearchHit = SearchResults['content'][number];

const given = (value: string) => value || undefined;

export function readSearchPage(api: ApiClient, search: SearchPageParams, page: number) {
  return Promise.all([
    search.q
      ? load(
          api.GET('/api/v1/blog/search', {
            params: {
              query: {
                q: search.q,
                page,
                size: SEARCH_PAGE_SIZE,
                tag: given(search.tag),
                author: given(search.author),
                from: given(search.from),
                to: given(search.to),
              },
            },
          }),
        )
      : undefined,
    load(api.GET('/api/v1/blog/tags/publish')),
    load(api.GET('/api/v1/blog/authors')),
  ]);
}

/** The address of a search (canonical: the page cache keeps it once), e.g. for 'Did you mean'. */
export function searchHref(search: Partial<SearchPageParams>): string {
  const query = canonicalSearchQuery({ q: '', tag: '', author: '', from: '', to: '', page: '', ...search });
  return query ? `${SEARCH_PATH}?${query}` : SEARCH_PATH;
}
