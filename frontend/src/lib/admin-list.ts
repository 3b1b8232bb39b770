/**
 * What the back-office lists (/admin/posts, /admin/tags, /admin/users) share about their address:
 * the page (lib/paging's convention: 1-based, none on the first page), size, sort and search read
 * from the address (anything unknown takes the default) and written back, and a query's address.
 * Used on the server and in the islands (no server-only code).
 */
import { pageIndex, PAGE_PARAM, writtenPage } from './paging';

export type SortDir = 'asc' | 'desc';

/** The search box applies itself this long after the last keystroke (docs/requirements.md#constants-sorting). */
export const SEARCH_DEBOUNCE_MS = 300;

/** What every back-office list's query holds (its own filter comes on top). */
export interface BaseListQuery<F extends string> {
  /** 0-based (the address shows it 1-based). */
  page: number;
  size: number;
  sortBy: F;
  sortDir: SortDir;
  search: string;
}

/** A list's choices and defaults, for reading its query from an address. */
export interface ListQuerySpec<F extends string> {
  sizes: readonly number[];
  sortFields: readonly { value: F }[];
  defaults: { size: number; sortBy: F; sortDir: SortDir };
  /** The longest search kept. */
  searchMax: number;
}

/** The shared part of a list's query from an address: anything unknown takes the default. */
export function listQueryFrom<F extends string>(params: URLSearchParams, spec: ListQuerySpec<F>): BaseListQuery<F> {
  const size = Number(params.get('size'));
  const sortBy = params.get('sortBy') as F | null;
  const sortDir = params.get('sortDir');
  return {
    page: pageIndex(params),
    size: spec.sizes.includes(size) ? size : spec.defaults.size,
    sortBy: sortBy && spec.sortFields.some((field) => field.value === sortBy) ? sortBy : spec.defaults.sortBy,
    sortDir: sortDir === 'asc' || sortDir === 'desc' ? sortDir : spec.defaults.sortDir,
    search: (params.get('search') ?? '').trim().slice(0, spec.searchMax),
  };
}

/**
 * The values a list's address keeps, in this order: search, the list's own filter values
 * (`filters`, undefined ones left out), then sort, size and the 1-based page, each only when it
 * is not the default. With `sortPair` the sort field and direction are written together when
 * either is not its default (the users list's addresses).
 */
export function listQueryParams<F extends string>(
  query: BaseListQuery<F>,
  defaults: ListQuerySpec<F>['defaults'],
  filters: Record<string, string | undefined>,
  { sortPair = false }: { sortPair?: boolean } = {},
): Record<string, string> {
  const values: Record<string, string> = {};
  if (query.search) values.search = query.search;
  for (const [name, value] of Object.entries(filters)) if (value !== undefined) values[name] = value;
  const sorted = query.sortBy !== defaults.sortBy || query.sortDir !== defaults.sortDir;
  if (sortPair ? sorted : query.sortBy !== defaults.sortBy) values.sortBy = query.sortBy;
  if (sortPair ? sorted : query.sortDir !== defaults.sortDir) values.sortDir = query.sortDir;
  if (query.size !== defaults.size) values.size = String(query.size);
  const page = writtenPage(query.page);
  if (page) values[PAGE_PARAM] = page;
  return values;
}

/** What every list's API read sends: the 0-based page, size, sort, and the search when there is one. */
export function listApiQuery<F extends string>(query: BaseListQuery<F>) {
  return { page: query.page, size: query.size, sortBy: query.sortBy, sortDir: query.sortDir, search: query.search || undefined };
}

/** A list's address: `path` with the values (defaults already left out), or `path` alone. */
export function listHref(path: string, values: Record<string, string>): string {
  const search = new URLSearchParams(values).toString();
  return search ? `${path}?${search}` : path;
}
