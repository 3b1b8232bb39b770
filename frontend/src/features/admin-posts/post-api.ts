/**
 * The back-office post calls of docs/requirements.md#api-accounts ('Authenticated posts') from the browser, through the
 * session's client (a 401 waits for the shared refresh and retries once): the list, a review
 * (approve or reject, now or at a time), reschedule and cancel a schedule, the review history and
 * the reviewer's diff, a status change through an update, and delete.
 */
import { browserApi } from '../../lib/api/client';
import { unwrap, unwrapWithMessage } from '../../lib/api/errors';
import {
  fetchAdminPosts,
  type ApiPostStatus,
  type PostAdminPage,
  type PostDetail,
  type PostListQuery,
  type PostReview,
  type PostReviewResult,
  type ReviewDiff,
} from './admin-posts';

export function listPosts(query: PostListQuery): Promise<PostAdminPage> {
  return fetchAdminPosts(browserApi(), query);
}

export interface ReviewDecision {
  status: 'APPROVED' | 'REJECTED';
  rejectionReason?: string | null;
  adminNotes?: string | null;
  /** Approve for this time (ISO, UTC) instead of now (scheduled publishing). */
  publishAt?: string;
}

/** PUT /blog/posts/admin/{id}/review: the post and the review as they are now, and the server's message. */
export async function reviewPost(id: number, decision: ReviewDecision): Promise<{ data: PostReviewResult; message: string | undefined }> {
  return unwrapWithMessage(browserApi().PUT('/api/v1/blog/posts/admin/{id}/review', { params: { path: { id } }, body: decision }));
}

/** PUT /blog/posts/admin/{id}/schedule { publishAt }: move a scheduled post's time ('Schedule updated.'). */
export async function reschedulePost(id: number, publishAt: string): Promise<{ data: PostDetail; message: string | undefined }> {
  return unwrapWithMessage(browserApi().PUT('/api/v1/blog/posts/admin/{id}/schedule', { params: { path: { id } }, body: { publishAt } }));
}

/** DELETE /blog/posts/admin/{id}/schedule: back to the review queue, unscheduled ('Schedule cancelled.'). */
export async function cancelSchedule(id: number): Promise<{ data: PostDetail; message: string | undefined }> {
  return unwrapWithMessage(browserApi().DELETE('/api/v1/blog/posts/admin/{id}/schedule', { params: { path: { id } } }));
}

/** GET /blog/posts/{id}/review-diff: the last rejection and what changed since (both null when never rejected). */
export async function reviewDiff(id: number): Promise<ReviewDiff> {
  return unwrap(browserApi().GET('/api/v1/blog/posts/{id}/review-diff', { params: { path: { id } } }));
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
