import { notificationSentence } from '../../../isomorphic/notification-wording';
import { NotificationType } from './notification.types';

/** What a notification row is joined with to be shown or mailed. */
export interface NotificationContext {
  type: string;
  actorName: string | null;
  postId: number | null;
  postTitle: string | null;
  postSlug: string | null;
  commentId: number | null;
  commentContent: string | null;
  reason: string | null;
  /** POST_APPROVED of a scheduled post: when it will be published. */
  publishAt: Date | null;
}

/** The site-relative address a notification opens (the comment anchor, the post, the review, the admin lists). */
export function notificationLink(
  n: Pick<NotificationContext, 'type' | 'postId' | 'postSlug' | 'commentId'> & { publishAt?: Date | null },
): string {
  const post = n.postSlug ? `/blog/${encodeURIComponent(n.postSlug)}` : '/';
  switch (n.type) {
    case NotificationType.COMMENT_REPLY:
    case NotificationType.POST_COMMENT:
    case NotificationType.COMMENT_HIDDEN:
      return n.commentId ? `${post}#comment-${n.commentId}` : post;
    case NotificationType.POST_APPROVED:
      // A scheduled post is not public before its time: the author's list shows it as scheduled.
      return n.publishAt ? '/author/posts' : post;
    case NotificationType.POST_REJECTED:
      return n.postId ? `/author/posts/${n.postId}/edit` : '/author/posts';
    case NotificationType.POST_SUBMITTED:
      return '/admin/posts';
    case NotificationType.COMMENT_REPORTED:
      return '/admin/comments?filter=reported';
    default:
      return '/notifications';
  }
}

/**
 * One sentence saying what happened: the page's sentence (isomorphic/notification-wording.ts, the one
 * wording of both), ended with a full stop; a publish time is named in `timeZone`.
 */
export function notificationSummary(n: NotificationContext, timeZone: string): string {
  return `${notificationSentence(n, timeZone)}.`;
}

/** The text quoted under the summary: the comment, or the reason given. */
export function notificationQuote(n: NotificationContext): string | null {
  if (n.reason) return `Reason: ${n.reason}`;
  if ((n.type === NotificationType.COMMENT_REPLY || n.type === NotificationType.POST_COMMENT) && n.commentContent) return n.commentContent;
  return null;
}

/** The e-mail subject of a single notification. */
export function notificationSubject(n: NotificationContext): string {
  switch (n.type) {
    case NotificationType.COMMENT_REPLY:
      return 'New reply to your comment';
    case NotificationType.POST_COMMENT:
      return 'New comment on your post';
    case NotificationType.POST_APPROVED:
      return n.publishAt ? 'Your post was approved and scheduled' : 'Your post was published';
    case NotificationType.POST_REJECTED:
      return 'Your post was rejected';
    case NotificationType.COMMENT_HIDDEN:
      return 'Your comment was hidden';
    case NotificationType.POST_SUBMITTED:
      return 'A post is waiting for review';
    case NotificationType.COMMENT_REPORTED:
      return 'A comment was reported';
    default:
      return 'Inkwell notification';
  }
}

/** How a type is named in the e-mail footer ('replies to your comments'). */
export const TYPE_LABELS: Record<NotificationType, string> = {
  COMMENT_REPLY: 'replies to your comments',
  POST_COMMENT: 'comments on your posts',
  POST_APPROVED: 'your published posts',
  POST_REJECTED: 'your rejected posts',
  COMMENT_HIDDEN: 'your hidden comments',
  POST_SUBMITTED: 'posts submitted for review',
  COMMENT_REPORTED: 'reported comments',
};
