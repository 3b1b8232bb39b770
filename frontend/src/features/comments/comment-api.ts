/**
 * The comment calls of docs/requirements.md#api-comments ('Comments service') through the session-aware
 * client (typed from openapi.json; `unwrap` gives the envelope's data, typed by the operation):
 * a page of a post's comments with their threads (public), the live count, a comment's replies,
 * add, edit and delete.
 */
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { components } from '@inkwell/client/schema';
import { COMMENT_PAGE_SIZE, type ReportReason } from './texts';

/** A comment as the API answers it: `replies` holds its whole thread (oldest first), `author` null when deleted or gone. */
export type CommentNode = components['schemas']['CommentResponseDto'];

export interface CommentPage {
  comments: CommentNode[];
  last: boolean;
}

/** GET /comments/post/{postId}?page&size: a page of the post's top-level comments (newest first), each with its thread. */
export async function fetchComments(postId: number, page: number): Promise<CommentPage> {
  const data = await unwrap(
    browserApi().GET('/api/v1/comments/post/{postId}', { params: { path: { postId }, query: { page, size: COMMENT_PAGE_SIZE } } }),
  );
  return { comments: data.content, last: data.last };
}

/** GET /comments/post/{postId}?commentId: the page that holds that comment's thread (a link to #comment-{id}), and its number. */
export async function fetchCommentsAround(postId: number, commentId: number): Promise<CommentPage & { page: number }> {
  const data = await unwrap(
    browserApi().GET('/api/v1/comments/post/{postId}', { params: { path: { postId }, query: { size: COMMENT_PAGE_SIZE, commentId } } }),
  );
  return { comments: data.content, last: data.last, page: data.number };
}

/** GET /comments/stats/post/{postId} (public): the post's live comment count. */
export async function fetchCommentCount(postId: number): Promise<number> {
  return (await unwrap(browserApi().GET('/api/v1/comments/stats/post/{postId}', { params: { path: { postId } } }))).totalComments;
}

/** GET /comments/{id}/replies: the thread below one comment. */
export async function fetchReplies(comment: CommentNode): Promise<CommentNode[]> {
  return unwrap(browserApi().GET('/api/v1/comments/{id}/replies', { params: { path: { id: comment.id } } }));
}

/** POST /comments {postId, content, parentId}; a reply to a level-3 comment comes back beside it (same parent). */
export async function addComment(postId: number, content: string, parent?: CommentNode): Promise<CommentNode> {
  return unwrap(browserApi().POST('/api/v1/comments', { body: { postId, content, parentId: parent?.id ?? null } }));
}

/** PUT /comments/{id} {content}. */
export async function updateComment(comment: CommentNode, content: string): Promise<CommentNode> {
  return unwrap(browserApi().PUT('/api/v1/comments/{id}', { params: { path: { id: comment.id } }, body: { content } }));
}

/** DELETE /comments/{id} (204). */
export async function deleteComment(comment: CommentNode): Promise<void> {
  await unwrap(browserApi().DELETE('/api/v1/comments/{id}', { params: { path: { id: comment.id } } }));
}

/** POST /comments/{id}/reports {reason, details?} (201; 409 already reported, 403 one's own comment, 429 over the limit). */
export async function reportComment(comment: CommentNode, reason: ReportReason, details: string): Promise<void> {
  await unwrap(
    browserApi().POST('/api/v1/comments/{id}/reports', {
      params: { path: { id: comment.id } },
      body: details ? { reason, details } : { reason },
    }),
  );
}

/** POST /comments/{id}/hide {reason}: the post's author or an admin hides it (readers see the placeholder; replies stay). */
export async function hideComment(comment: { id: number }, reason: string): Promise<void> {
  await unwrap(browserApi().POST('/api/v1/comments/{id}/hide', { params: { path: { id: comment.id } }, body: { reason } }));
}
