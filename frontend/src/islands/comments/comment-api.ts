/**
 * The comment calls of spec 001 §7 / 000 §7 ('Comments service') through the session-aware
 * client: a page of a post's comments (public), a comment's replies, add, edit and delete.
 * Answers are normalised to `CommentNode` so the section never depends on optional fields.
 */
import { unwrap } from '../../lib/api/errors';
import { sessionApi } from '../../lib/session-browser';
import { COMMENT_PAGE_SIZE } from '../../lib/texts/comments';

export interface CommentAuthor {
  id: number;
  fullName: string | null;
  avatar: string | null;
}

export interface CommentNode {
  id: number;
  parentId: number | null;
  content: string;
  author: CommentAuthor | null;
  createdAt: string;
  updatedAt: string;
  level: number;
  deleted: boolean;
  replyCount: number;
  /** The replies loaded so far (the list answer may carry them; else GET /comments/{id}/replies). */
  replies: CommentNode[];
}

export interface CommentPage {
  comments: CommentNode[];
  last: boolean;
  totalElements: number;
}

// Until the comments module is in openapi.json the paths are not in the generated types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const api = () => sessionApi() as any;

type Raw = Record<string, unknown>;

export function toCommentNode(raw: Raw, parentLevel = -1): CommentNode {
  const author = raw.author as Raw | null | undefined;
  const replies = Array.isArray(raw.replies) ? (raw.replies as Raw[]) : [];
  const level = typeof raw.level === 'number' ? raw.level : parentLevel + 1;
  return {
    id: raw.id as number,
    parentId: typeof raw.parentId === 'number' ? raw.parentId : null,
    content: typeof raw.content === 'string' ? raw.content : '',
    author: author && typeof author.id === 'number' ? { id: author.id, fullName: typeof author.fullName === 'string' ? author.fullName : null, avatar: typeof author.avatar === 'string' ? author.avatar : null } : null,
    createdAt: String(raw.createdAt ?? ''),
    updatedAt: String(raw.updatedAt ?? raw.createdAt ?? ''),
    level,
    deleted: raw.deleted === true || raw.isDeleted === true,
    replyCount: typeof raw.replyCount === 'number' ? raw.replyCount : replies.length,
    replies: replies.map((reply) => toCommentNode(reply, level)),
  };
}

/** GET /comments/post/{postId}?page&size: a page of the post's top-level comments. */
export async function fetchComments(postId: number, page: number): Promise<CommentPage> {
  const data = (await unwrap(api().GET('/api/v1/comments/post/{postId}', { params: { path: { postId }, query: { page, size: COMMENT_PAGE_SIZE } } }))) as Raw;
  const content = Array.isArray(data?.content) ? (data.content as Raw[]) : [];
  const totalPages = typeof data?.totalPages === 'number' ? data.totalPages : 1;
  return {
    comments: content.map((raw) => toCommentNode(raw)),
    last: typeof data?.last === 'boolean' ? data.last : page + 1 >= totalPages,
    totalElements: typeof data?.totalElements === 'number' ? data.totalElements : content.length,
  };
}

/** GET /comments/{id}/replies. */
export async function fetchReplies(comment: CommentNode): Promise<CommentNode[]> {
  const data = (await unwrap(api().GET('/api/v1/comments/{id}/replies', { params: { path: { id: comment.id } } }))) as unknown;
  const list = Array.isArray(data) ? data : Array.isArray((data as Raw)?.content) ? ((data as Raw).content as Raw[]) : [];
  return list.map((raw) => toCommentNode(raw as Raw, comment.level));
}

/** POST /comments {postId, content, parentId}. */
export async function addComment(postId: number, content: string, parent?: CommentNode): Promise<CommentNode> {
  const data = (await unwrap(api().POST('/api/v1/comments', { body: { postId, content, parentId: parent?.id ?? null } }))) as Raw;
  return toCommentNode(data, parent ? parent.level : -1);
}

/** PUT /comments/{id} {content}. */
export async function updateComment(comment: CommentNode, content: string): Promise<CommentNode> {
  const data = (await unwrap(api().PUT('/api/v1/comments/{id}', { params: { path: { id: comment.id } }, body: { content } }))) as Raw;
  return toCommentNode(data, comment.level - 1);
}

/** DELETE /comments/{id}. */
export async function deleteComment(comment: CommentNode): Promise<void> {
  await unwrap(api().DELETE('/api/v1/comments/{id}', { params: { path: { id: comment.id } } }));
}
