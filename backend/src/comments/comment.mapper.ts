import { toPage } from '../common/pagination/page';
import { CommentsMessages } from './comments.messages';
import { CommentModeration, RemoteCommentAuthor } from './entities/comment.entity';
import { CommentActivityDto, CommentAuthorDto, CommentResponseDto } from './dto/comment-response.dto';

/** A comment row with its author's public columns (comments.repository.ts selects these). */
export interface CommentRow {
  id: number;
  post_id: number;
  parent_id: number | null;
  content: string;
  level: number;
  reply_count: number;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
  author_id: number | null;
  author_name: string | null;
  author_avatar: string | null;
  author_verified: boolean | null;
  moderation: CommentModeration;
  /** Set on a reply from the fediverse (docs/federation.md). */
  remote_author?: RemoteCommentAuthor | null;
}

/**
 * Who reads the comments, for `canHide` and `canReport`: the caller's id (null when anonymous),
 * whether they moderate this post (its author or an admin) and which comments they have reported.
 */
export interface CommentViewer {
  userId: number | null;
  moderates: boolean;
  reported: ReadonlySet<number>;
}

export const ANONYMOUS_VIEWER: CommentViewer = { userId: null, moderates: false, reported: new Set() };

/** … with its post (lists outside a thread). */
export interface CommentActivityRow extends CommentRow {
  post_slug: string;
  post_title: string;
}

function authorOf(row: CommentRow): CommentAuthorDto | null {
  if (row.deleted_at || row.author_id === null) return null;
  return { id: row.author_id, fullName: row.author_name ?? '', avatar: row.author_avatar, isVerified: row.author_verified ?? false };
}

/**
 * Content as stored (plain text, never HTML), or the placeholder of a deleted or hidden comment:
 * a hidden comment's text leaves the server only in the moderation queue.
 */
const contentOf = (row: CommentRow): string =>
  row.deleted_at
    ? CommentsMessages.DELETED_MARKER
    : row.moderation === CommentModeration.HIDDEN
      ? CommentsMessages.HIDDEN_MARKER
      : row.content;

export function toCommentResponse(
  row: CommentRow,
  replies: CommentResponseDto[] = [],
  viewer: CommentViewer = ANONYMOUS_VIEWER,
): CommentResponseDto {
  const live = !row.deleted_at && row.moderation === CommentModeration.VISIBLE;
  return {
    id: row.id,
    postId: row.post_id,
    parentId: row.parent_id,
    content: contentOf(row),
    author: authorOf(row),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    level: row.level,
    replyCount: row.reply_count,
    deleted: row.deleted_at !== null,
    replies,
    moderation: row.moderation,
    canHide: live && viewer.moderates,
    canReport: live && viewer.userId !== null && row.author_id !== viewer.userId && !viewer.reported.has(row.id),
    ...(row.remote_author && !row.deleted_at
      ? {
          remoteAuthor: {
            name: row.remote_author.name,
            handle: row.remote_author.handle,
            avatar: row.remote_author.avatar,
            url: row.remote_author.url,
          },
        }
      : {}),
  };
}

/**
 * Builds the threads below `parentIds` from their descendants (any order): each comment gets its
 * replies, oldest first. Returns the direct replies per parent id.
 */
export function buildThreads(descendants: CommentRow[], viewer: CommentViewer = ANONYMOUS_VIEWER): Map<number, CommentResponseDto[]> {
  const sorted = [...descendants].sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id - b.id);
  const children = new Map<number, CommentRow[]>();
  for (const row of sorted) {
    if (row.parent_id === null) continue;
    const list = children.get(row.parent_id) ?? [];
    list.push(row);
    children.set(row.parent_id, list);
  }
  const build = (row: CommentRow): CommentResponseDto => toCommentResponse(row, (children.get(row.id) ?? []).map(build), viewer);
  const result = new Map<number, CommentResponseDto[]>();
  for (const [parentId, rows] of children) result.set(parentId, rows.map(build));
  return result;
}

export function toCommentActivity(row: CommentActivityRow): CommentActivityDto {
  return {
    id: row.id,
    content: contentOf(row),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    level: row.level,
    parentId: row.parent_id,
    root: row.parent_id === null,
    replyCount: row.reply_count,
    postId: row.post_id,
    postSlug: row.post_slug,
    postTitle: row.post_title,
    post: { id: row.post_id, slug: row.post_slug, title: row.post_title },
    author: authorOf(row),
    moderation: row.moderation,
  };
}

/** The spec's page fields plus `currentPage` (docs/requirements.md#data-comment). */
export function toCommentPage<T>(content: T[], total: number, page: number, size: number) {
  const result = toPage(content, total, page, size);
  return { ...result, currentPage: result.number };
}
