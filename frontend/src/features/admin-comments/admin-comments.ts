/**
 * The moderation queue of /admin/comments: the API's answers (generated types),
 * the page's read through the session, and the list's query (filter, search, sort, size, page),
 * which is the address (read and written as the other back-office lists do: lib/admin-list,
 * lib/paging). Used on the server and in the island.
 */
import { listHref } from '../../lib/admin-list';
import type { ApiClient } from '../../lib/api/client';
import { pageIndex, PAGE_PARAM, writtenPage } from '../../lib/paging';
import { load } from '../../lib/settle';
import type { DataOf } from '../../lib/api/schema';

export type ModerationPage = DataOf<'/api/v1/admin/comments'>;
export type ModerationComment = ModerationPage['content'][number];
export type ModerationReport = ModerationComment['reports'][number];

export const COMMENTS_PATH = '/admin/comments';
export const MODERATION_FILTERS = ['reported', 'hidden', 'held', 'all'] as const;
export type ModerationFilter = (typeof MODERATION_FILTERS)[number];
export const MODERATION_SORTS = ['newest', 'reports'] as const;
export type ModerationSort = (typeof MODERATION_SORTS)[number];
export const MODERATION_PAGE_SIZES = [10, 20, 50] as const;
/** What a bulk action does to each selected comment (POST /admin/comments/bulk `action`). */
export type BulkAction = 'hide' | 'restore' | 'delete' | 'dismiss';
export const SEARCH_MAX = 100;

export interface ModerationQuery {
  filter: ModerationFilter;
  search: string;
  sort: ModerationSort;
  size: number;
  /** 0-based (the address shows it 1-based). */
  page: number;
}

/** The queue opens on the reported comments, newest first. */
export const DEFAULT_MODERATION_QUERY: ModerationQuery = { filter: 'reported', search: '', sort: 'newest', size: 10, page: 0 };

const oneOf = <T extends string>(value: string | null, options: readonly T[], fallback: T): T =>
  value && (options as readonly string[]).includes(value) ? (value as T) : fallback;

/** The query of an address; anything unknown takes the default. */
export function moderationQuery(params: URLSearchParams): ModerationQuery {
  const size = Number(params.get('size'));
  return {
    filter: oneOf(params.get('filter'), MODERATION_FILTERS, DEFAULT_MODERATION_QUERY.filter),
    search: (params.get('search') ?? '').trim().slice(0, SEARCH_MAX),
    sort: oneOf(params.get('sort'), MODERATION_SORTS, DEFAULT_MODERATION_QUERY.sort),
    size: (MODERATION_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_MODERATION_QUERY.size,
    page: pageIndex(params),
  };
}

/** The values the address keeps (defaults left out), in a fixed order. */
export function moderationParams(query: ModerationQuery): Record<string, string> {
  const values: Record<string, string> = {};
  if (query.filter !== DEFAULT_MODERATION_QUERY.filter) values.filter = query.filter;
  if (query.search) values.search = query.search;
  if (query.sort !== DEFAULT_MODERATION_QUERY.sort) values.sort = query.sort;
  if (query.size !== DEFAULT_MODERATION_QUERY.size) values.size = String(query.size);
  const page = writtenPage(query.page);
  if (page) values[PAGE_PARAM] = page;
  return values;
}

export const moderationHref = (query: ModerationQuery): string => listHref(COMMENTS_PATH, moderationParams(query));

/** GET /admin/comments's query (0-based page; the search only when there is one). */
export function moderationApiQuery(query: ModerationQuery) {
  return { filter: query.filter, sort: query.sort, page: query.page, size: query.size, ...(query.search ? { search: query.search } : {}) };
}

/** The page's read through the session, settled. */
export const moderationApi = (api: ApiClient) => ({
  queue: (query: ModerationQuery) => load(api.GET('/api/v1/admin/comments', { params: { query: moderationApiQuery(query) } })),
});
