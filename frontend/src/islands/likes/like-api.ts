/**
 * The like calls of spec 001 §7 / 000 §7 through the session-aware client (a 401 waits for the
 * shared token refresh and is retried once): the public count, the viewer's status and the toggle.
 */
import { unwrap } from '../../lib/api/errors';
import { sessionApi } from '../../lib/session-browser';

export interface LikeState {
  liked: boolean;
  count: number;
}

// Until the likes module is in openapi.json the paths are not in the generated types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const api = () => sessionApi() as any;

const count = (data: unknown): number | undefined => {
  if (typeof data === 'number') return data;
  const record = data as Record<string, unknown> | null;
  for (const key of ['count', 'likeCount', 'totalLikes']) if (typeof record?.[key] === 'number') return record[key] as number;
  return undefined;
};

/** GET /likes/post/{id}/count (public). */
export async function fetchLikeCount(postId: number): Promise<number | undefined> {
  return count(await unwrap(api().GET('/api/v1/likes/post/{id}/count', { params: { path: { id: postId } } })));
}

/** GET /likes/post/{id}/status (signed in): whether the viewer likes the post (and the count when it says). */
export async function fetchLikeStatus(postId: number): Promise<Partial<LikeState>> {
  const data = (await unwrap(api().GET('/api/v1/likes/post/{id}/status', { params: { path: { id: postId } } }))) as Record<string, unknown>;
  return { liked: typeof data?.liked === 'boolean' ? data.liked : data?.isLiked === true, count: count(data) };
}

/** POST /likes/post/{id}/toggle: the server says whether the post is now liked, and its count. */
export async function toggleLike(postId: number): Promise<Partial<LikeState>> {
  const data = (await unwrap(api().POST('/api/v1/likes/post/{id}/toggle', { params: { path: { id: postId } } }))) as Record<string, unknown>;
  return { liked: typeof data?.liked === 'boolean' ? data.liked : data?.isLiked === true, count: count(data) };
}
