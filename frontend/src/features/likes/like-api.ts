/**
 * The like calls of docs/requirements.md#api-likes through the session-aware client (a 401 waits for the
 * shared token refresh and is retried once): the public count, the viewer's state and the toggle.
 */
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { components } from '@inkwell/client/schema';

export type LikeStateAnswer = components['schemas']['LikeStateDto'];

export interface LikeState {
  liked: boolean;
  count: number;
}

const toState = (answer: LikeStateAnswer): LikeState => ({ liked: answer.liked, count: answer.likeCount });

/** GET /likes/post/{id}/count (public): the live count, whatever the cached page says. */
export async function fetchLikeCount(id: number): Promise<number> {
  return (await unwrap(browserApi().GET('/api/v1/likes/post/{id}/count', { params: { path: { id } } }))).likeCount;
}

/** GET /likes/post/{id}/status (signed in): whether the viewer likes the post, and its count. */
export async function fetchLikeStatus(id: number): Promise<LikeState> {
  return toState(await unwrap(browserApi().GET('/api/v1/likes/post/{id}/status', { params: { path: { id } } })));
}

/** POST /likes/post/{id}/toggle: whether the post is now liked, and its count. */
export async function toggleLike(id: number): Promise<LikeState> {
  return toState(await unwrap(browserApi().POST('/api/v1/likes/post/{id}/toggle', { params: { path: { id } } })));
}
