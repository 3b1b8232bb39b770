/**
 * The reader's own data (docs/requirements.md#screen-liked-posts, docs/requirements.md#data-reader-stats, docs/requirements.md#api-likes): liked posts, own comments, the reader dashboard
 * and the signed-in home widgets, read through the visitor's session (`Astro.locals.api`), each
 * settled to Loaded for the page's error state; and the list controls those pages share (size
 * and sort from the query string).
 */
import type { ApiClient } from '../../lib/api/client';
import { load } from '../../lib/settle';
import { withQuery } from '../../lib/paging';
import { requireRole, SIGNED_IN } from '../../lib/page-access';

export type LikeSort = 'createdAt' | 'postTitle' | 'userName';
export type SortDirection = 'asc' | 'desc';

export const readerApi = (api: ApiClient) => ({
  myLikes: (page: number, size: number, sortBy: LikeSort, sortDirection: SortDirection) =>
    load(api.GET('/api/v1/likes/user/my-likes', { params: { query: { page, size, sortBy, sortDirection } } })),
  recentLikes: (limit = 3) => load(api.GET('/api/v1/likes/user/my-likes/recent', { params: { query: { limit } } })),
  myComments: (page: number, size: number, sort: 'newest' | 'oldest' = 'newest') =>
    load(
      api.GET('/api/v1/comments/my-comments', {
        params: { query: { page, size, sortBy: 'createdAt', sortDirection: sort === 'oldest' ? 'asc' : 'desc' } },
      }),
    ),
  recentComments: (limit = 3) => load(api.GET('/api/v1/comments/my-recent', { params: { query: { limit } } })),
  userStats: () => load(api.GET('/api/v1/dashboard/user/stats', {})),
  quickStats: () => load(api.GET('/api/v1/dashboard/quick-stats', {})),
});

// ---- list controls --------------------------------------------------------------------------

/** `?size=` when it is one of `options`, else the page's default. */
export function sizeFromQuery(url: URL, options: readonly number[], fallback: number): number {
  const size = Number(url.searchParams.get('size'));
  return options.includes(size) ? size : fallback;
}

/** `?<name>=` when it is one of `options`, else the first option. */
export function choiceFromQuery<T extends string>(url: URL, name: string, options: readonly T[]): T {
  const value = url.searchParams.get(name) as T | null;
  return value && options.includes(value) ? value : options[0];
}

// ---- formatting -----------------------------------------------------------------------------

const VI_ONE_DECIMAL = new Intl.NumberFormat('vi-VN', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Weekly averages with one decimal, the Vietnamese way ('1,5'). */
export function oneDecimal(value: number | null | undefined): string {
  return VI_ONE_DECIMAL.format(Number.isFinite(value) ? (value as number) : 0);
}

/** A comment preview: at most 100 characters, then '...' (docs/requirements.md#constants-comments). */
export function preview(text: string, max = 100): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : text;
}

// ---- page loads -----------------------------------------------------------------------------

/** The Favorite Posts widget's size and the dashboard's comment list step (docs/requirements.md#constants-comments: widgets show 3). */
export const WIDGET_SIZE = 3;
export const DASHBOARD_COMMENTS_STEP = 5;

/**
 * Everything the reader dashboard shows, read in parallel. `?comments=N` (N ≥ 1) is the comment
 * list's 'Load More Comments': N steps of 5 comments.
 */
export async function loadReaderDashboard(api: ApiClient, url: URL) {
  const raw = url.searchParams.get('comments');
  const steps = raw && /^\d{1,3}$/.test(raw) ? Math.min(100, Math.max(1, Number(raw))) : 1;
  const reader = readerApi(api);
  const [stats, quickStats, favorites, comments] = await Promise.all([
    reader.userStats(),
    reader.quickStats(),
    // The Favorite Posts widget (docs/requirements.md#api-likes): the latest likes, newest first; the widget shows no
    // total, so the read that counts them all (my-likes) is not needed.
    reader.recentLikes(WIDGET_SIZE),
    reader.myComments(0, steps * DASHBOARD_COMMENTS_STEP),
  ]);
  const more = comments.ok && comments.data.totalElements > comments.data.content.length;
  return {
    stats,
    quickStats,
    favorites,
    comments: comments.ok ? { ok: true as const, items: comments.data.content, total: comments.data.totalElements } : comments,
    refreshHref: url.pathname,
    loadMoreCommentsHref: more ? `${withQuery(url, { comments: steps + 1 })}#my-comments-widget` : undefined,
  };
}

/**
 * The reader dashboard's page prologue, shared by its two addresses (/dashboard, /user-dashboard,
 * docs/requirements.md#routes-access): the signed-in visitor and the dashboard's data, or the redirect to return; 503
 * when the API could not answer the stats.
 */
export async function readerDashboardPage(
  Astro: Parameters<typeof requireRole>[0] & { locals: { api: ApiClient }; response: { status?: number } },
) {
  const access = requireRole(Astro, SIGNED_IN);
  if (access instanceof Response) return access;
  const dashboard = await loadReaderDashboard(Astro.locals.api, Astro.url);
  if (!dashboard.stats.ok && (dashboard.stats.error.status >= 500 || dashboard.stats.error.status === 0)) Astro.response.status = 503;
  return { user: access.user, dashboard };
}
