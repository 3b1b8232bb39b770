import type { IncomingMessage } from 'node:http';

/**
 * The one recorder of page views (analytics/page-view-recorder.service.ts): told of every public
 * page the frontend layer answers, it counts the post's view (PostViewsService) and the
 * analytics view. Only pushes to memory: the work happens when it writes, once a second.
 */
export interface PostViewRecorder {
  /** `path` without the query; `status` the page's (a 304 of a kept 200 page is 200); `cached` when the page cache answered. */
  pageServed(req: IncomingMessage, path: string, status: number, cached: boolean): void;
}
export const POST_VIEW_RECORDER = Symbol('POST_VIEW_RECORDER');

/**
 * A public page answered: from the page cache (PageCacheFastPath before Express, FrontendMiddleware
 * for a hit or a request that waited for another's render; 304s too) or just rendered. A rendered
 * post page's `viewCount` is counted where it reads the post (PostsPublicService.bySlug), a cached
 * one's by the recorder, so each answered post page counts exactly once.
 */
export function recordPageView(
  views: PostViewRecorder | undefined,
  req: IncomingMessage,
  path: string,
  status: number,
  cached: boolean,
): void {
  if (!views) return;
  try {
    views.pageServed(req, path, status, cached);
  } catch {
    // a view that cannot be counted never fails the page
  }
}
