/**
 * The back-office post calls of spec 001 §7 ('Authenticated posts') from the browser, through the
 * session's client (a 401 waits for the shared refresh and retries once): the list, a review
 * (approve or reject), the review history, a status change through an update, and delete.
 */
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { fetchAdminPosts, type ApiPostStatus, type PostAdminPage, type PostDetail, type PostListQuery, type PostReview, type PostReviewResult } from './admin-posts';

export function listPosts(query: PostListQuery): Promise<PostAdminPage> {
  return fetchAdminPosts(browserApi(), query);
}

export interface ReviewDecision {
  status: 'APPROVED' | 'REJECTED';
  rejectionReason?: string | null;
  adminNotes?: string | null;
}

/** PUT /blog/posts/admin/{id}/review: the post and the review as they are now. */
export async function reviewPost(id: number, decision: ReviewDecision): Promise<PostReviewResult> {
  return unwrap(browserApi().PUT('/api/v1/blog/posts/admin/{id}/review', { params: { path: { id } }, body: decision }));
}

/** GET /blog/post-reviews/{id}/history: newest first, with the internal notes (admins). */
export async function reviewHistory(id: number): Promise<PostReview[]> {
  return unwrap(browserApi().GET('/api/v1/blog/post-reviews/{id}/history', { params: { path: { id } } }));
}

/** PUT /blog/posts/{id} { status }: Publish (draft → published) and Archive (published → archived). */
export async function changeStatus(id: number, status: ApiPostStatus): Promise<PostDetail> {
  return unwrap(browserApi().PUT('/api/v1/blog/posts/{id}', { params: { path: { id } }, body: { status } }));
}

/** DELETE /blog/posts/{id} (204). */
export async function deletePost(id: number): Promise<void> {
  await unwrap(browserApi().DELETE('/api/v1/blog/posts/{id}', { params: { path: { id } } }));
}
