import { postSlugOf } from './page-cache-policy';

/** Counts post views (PostViewsService.count: by id, or by slug for a cached page). */
export interface PostViewRecorder {
  count(post: number | string): void;
}
export const POST_VIEW_RECORDER = Symbol('POST_VIEW_RECORDER');

/**
 * A page answered from the page cache (PageCacheFastPath before Express, FrontendMiddleware for a
 * hit or a request that waited for another's render; 304s too): when it is a post page (a 200 at
 * /blog/{slug}), one view of that post. A rendered post page is counted where it reads the post
 * (PostsPublicService.bySlug), never here, so each answered post page counts exactly once.
 */
export function countCachedPostView(views: PostViewRecorder | undefined, path: string, status: number): void {
  const slug = status === 200 ? postSlugOf(path) : undefined;
  if (!slug || !views) return;
  try {
    views.count(slug);
  } catch {
    // a view that cannot be counted never fails the page
  }
}
