/**
 * The back-office post list (/admin/posts; docs/requirements.md#screen-admin-posts, docs/requirements.md#data-post, docs/requirements.md#states, docs/requirements.md#api-posts, docs/requirements.md#constants-sorting): its query (search,
 * status, sort field and direction, page size, 1-based page in the address), the addresses the
 * list's links point to, the read through the session's client and which actions each status
 * offers. Used by the page on the server and by its island in the browser (no server-only code).
 */
import {
  listApiQuery,
  listHref,
  listQueryFrom,
  listQueryParams,
  type BaseListQuery,
  type ListQuerySpec,
  type SortDir,
} from '../../lib/admin-list';
import type { ApiClient } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { components } from '@inkwell/client/schema';
import { load, settleRead, type Loaded } from '../../lib/settle';
import { POST_STATUS_LABELS, POST_STATUSES } from '../../lib/texts/post-status';
import { titleCaseSlug } from '../../lib/format';
import { allows, type Post, type PostListItem, type PostReview, type PostStatus, type Tag } from '../../lib/api/schema';

type Schemas = components['schemas'];
export type { PostListItem };
export type PostAdminPage = Schemas['PostAdminPageDto'];
export type PostDetail = Post;
export type { PostReview };
export type PostReviewResult = Schemas['PostReviewResultDto'];
export type ApiPostStatus = PostStatus;
export type AdminTag = Tag;
/** GET /blog/posts/{id}/review-diff: the last rejection and the diff since it. */
export type ReviewDiff = Schemas['ReviewDiffDto'];

// ---- the query -----------------------------------------------------------------------------

/** Status filter values as the address carries them (the client's lowercase statuses). */
export type StatusFilter = 'draft' | 'pending_review' | 'published' | 'rejected' | 'archived' | 'private';
export type PostSortField = 'createdAt' | 'updatedAt' | 'publishedAt' | 'title' | 'viewCount';
export type { SortDir };

/** Every status an admin can filter by; pending_review and rejected are admin-only options (docs/requirements.md#permissions). */
export const STATUS_FILTERS: { value: StatusFilter; label: string }[] = POST_STATUSES.map((status) => ({
  value: status.toLowerCase() as StatusFilter,
  label: POST_STATUS_LABELS[status],
}));

export const SORT_FIELDS: { value: PostSortField; label: string }[] = [
  { value: 'createdAt', label: 'Created' },
  { value: 'updatedAt', label: 'Updated' },
  { value: 'publishedAt', label: 'Published' },
  { value: 'title', label: 'Title' },
  { value: 'viewCount', label: 'Views' },
];

export const PAGE_SIZES = [5, 10, 20, 50] as const;
export const DEFAULT_SIZE = 10;
export const DEFAULT_SORT: PostSortField = 'createdAt';
export const DEFAULT_DIR: SortDir = 'desc';
export const LIST_PATH = '/admin/posts';

export interface PostListQuery extends BaseListQuery<PostSortField> {
  status?: StatusFilter;
}

export const DEFAULT_QUERY: PostListQuery = { page: 0, size: DEFAULT_SIZE, sortBy: DEFAULT_SORT, sortDir: DEFAULT_DIR, search: '' };

const QUERY_SPEC: ListQuerySpec<PostSortField> = {
  sizes: PAGE_SIZES,
  sortFields: SORT_FIELDS,
  defaults: { size: DEFAULT_SIZE, sortBy: DEFAULT_SORT, sortDir: DEFAULT_DIR },
  searchMax: 200,
};

/** The list's query from an address; anything unknown falls back to the default. */
export function postQueryFrom(params: URLSearchParams): PostListQuery {
  const status = params.get('status')?.toLowerCase() as StatusFilter | undefined;
  return {
    ...listQueryFrom(params, QUERY_SPEC),
    status: status && STATUS_FILTERS.some((filter) => filter.value === status) ? status : undefined,
  };
}

/** The query values an address keeps: defaults are left out, the page is 1-based. */
export function postQueryParams(query: PostListQuery): Record<string, string> {
  return listQueryParams(query, QUERY_SPEC.defaults, { status: query.status || undefined });
}

export function postListHref(query: PostListQuery): string {
  return listHref(LIST_PATH, postQueryParams(query));
}

/** A column header's sort link: the current field flips its direction, another starts descending. */
export function sortedBy(query: PostListQuery, field: PostSortField): PostListQuery {
  const sortDir: SortDir = query.sortBy === field ? (query.sortDir === 'desc' ? 'asc' : 'desc') : field === 'title' ? 'asc' : 'desc';
  return { ...query, sortBy: field, sortDir, page: 0 };
}

export interface FilterChip {
  key: 'search' | 'status' | 'sort' | 'size';
  label: string;
  /** The query without this filter. */
  without: PostListQuery;
}

/** The active filters as removable chips (search, status, a sort or size other than the default). */
export function activeChips(query: PostListQuery): FilterChip[] {
  const chips: FilterChip[] = [];
  const reset = { ...query, page: 0 };
  if (query.search) chips.push({ key: 'search', label: `Search: "${query.search}"`, without: { ...reset, search: '' } });
  if (query.status) chips.push({ key: 'status', label: `Status: ${statusLabel(query.status)}`, without: { ...reset, status: undefined } });
  if (query.sortBy !== DEFAULT_SORT || query.sortDir !== DEFAULT_DIR) {
    const field = SORT_FIELDS.find((item) => item.value === query.sortBy)?.label ?? query.sortBy;
    chips.push({
      key: 'sort',
      label: `Sort: ${field} ${query.sortDir === 'asc' ? 'ascending' : 'descending'}`,
      without: { ...reset, sortBy: DEFAULT_SORT, sortDir: DEFAULT_DIR },
    });
  }
  if (query.size !== DEFAULT_SIZE) chips.push({ key: 'size', label: `${query.size} per page`, without: { ...reset, size: DEFAULT_SIZE } });
  return chips;
}

// ---- statuses and actions (docs/requirements.md#post-statuses) ------------------------------------------------------

export function toApiStatus(status: StatusFilter): ApiPostStatus {
  return status.toUpperCase() as ApiPostStatus;
}

/** A post status ('PENDING_REVIEW' or 'pending_review' → 'Pending Review'), or a review's decision ('APPROVED' → 'Approved'). */
export function statusLabel(status: string): string {
  return POST_STATUS_LABELS[status.toUpperCase() as PostStatus] ?? titleCaseSlug(status);
}

/** Badge colours per status (text contrast checked in both themes). */
export function statusTone(status: string): string {
  switch (status.toUpperCase()) {
    case 'PUBLISHED':
      return 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200';
    case 'PENDING_REVIEW':
      return 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100';
    case 'REJECTED':
      return 'bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200';
    case 'ARCHIVED':
      return 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100';
    case 'PRIVATE':
      return 'bg-violet-100 text-violet-800 dark:bg-violet-900/60 dark:text-violet-200';
    default:
      return 'bg-sky-100 text-sky-800 dark:bg-sky-900/60 dark:text-sky-200';
  }
}

/** A row's buttons (the lifecycle's `allowedActions` name what is allowed; these name the buttons). */
export type PostRowAction =
  'approve' | 'schedule' | 'reject' | 'review' | 'approveNow' | 'publish' | 'archive' | 'reschedule' | 'cancelSchedule';

/**
 * The status buttons a row offers (docs/requirements.md#post-transitions, docs/requirements.md#permissions), chosen from what the post's answer allows:
 * pending_review → Approve, Schedule, Reject, Detailed Review; a scheduled post → Reschedule and
 * Cancel schedule instead of a second review; rejected (approvable, not rejectable) → Approve Now,
 * Detailed Review; draft → Publish; published → Archive. Edit, Preview and Delete are on every row.
 */
export function postActions(post: Pick<PostListItem, 'status' | 'allowedActions'>): PostRowAction[] {
  if (allows(post, 'reschedule')) return ['reschedule', 'cancelSchedule'];
  if (allows(post, 'reject')) return ['approve', 'schedule', 'reject', 'review'];
  if (allows(post, 'approve')) return ['approveNow', 'review'];
  if (post.status === 'DRAFT' && allows(post, 'setStatus:PUBLISHED')) return ['publish'];
  if (post.status === 'PUBLISHED' && allows(post, 'setStatus:ARCHIVED')) return ['archive'];
  return [];
}

// ---- reads ---------------------------------------------------------------------------------

/** GET /blog/posts/admin/all ?page&size&sortBy&sortDir&status&search. */
export async function fetchAdminPosts(api: ApiClient, query: PostListQuery): Promise<PostAdminPage> {
  return unwrap(
    api.GET('/api/v1/blog/posts/admin/all', {
      params: { query: { ...listApiQuery(query), status: query.status ? toApiStatus(query.status) : undefined } },
    }),
  );
}

export function loadAdminPosts(api: ApiClient, query: PostListQuery): Promise<Loaded<PostAdminPage>> {
  return settleRead(() => fetchAdminPosts(api, query));
}

/** GET /blog/posts/{id}: the whole post, any status. */
export function loadAdminPost(api: ApiClient, id: number): Promise<Loaded<PostDetail>> {
  return load(api.GET('/api/v1/blog/posts/{id}', { params: { path: { id } } }));
}

/** The editor's tag list: up to 100 active tags by name (docs/requirements.md#constants-paging). */
export function loadEditorTags(api: ApiClient): Promise<Loaded<AdminTag[]>> {
  return settleRead(async () => {
    const page = await unwrap(
      api.GET('/api/v1/blog/tags', { params: { query: { page: 0, size: 100, sortBy: 'name', sortDir: 'asc', activeOnly: true } } }),
    );
    return page.content;
  });
}

/**
 * The editor's tags for a post: the 100 active ones, plus the post's own tags outside them read
 * one by one (an admin sees inactive tags), so the picker can say which selected tags are
 * inactive and will not be sent.
 */
export async function loadEditorTagsFor(api: ApiClient, post: PostDetail | undefined): Promise<Loaded<AdminTag[]>> {
  const active = await loadEditorTags(api);
  if (!active.ok || !post) return active;
  const known = new Set(active.data.map((tag) => tag.id));
  const missing = post.tags.filter((tag) => !known.has(tag.id));
  const extra = await Promise.all(
    missing.map(async (tag) => {
      try {
        return unwrap(api.GET('/api/v1/blog/tags/{id}', { params: { path: { id: tag.id } } }));
      } catch {
        return undefined;
      }
    }),
  );
  return { ok: true, data: [...active.data, ...extra.filter((tag): tag is AdminTag => tag !== undefined)] };
}

// ---- formatting ------------------------------------------------------------------------------

/** 'Nov 22, 2026' and 'Nov 22, 2026, 3:04 PM GMT+7' (admin screens use en-US dates, docs/requirements.md#dates); '' when missing. */
export { formatShortDate as adminDate, formatShortDateTime as adminDateTime } from '../../lib/dates';
