/**
 * What can happen that someone is told about. The recipients are worked out by
 * NotificationsService.record from the ids; they never include the actor.
 */
export enum NotificationType {
  /** Someone replied to my comment. */
  COMMENT_REPLY = 'COMMENT_REPLY',
  /** Someone commented on my post. */
  POST_COMMENT = 'POST_COMMENT',
  /** My post was approved and published. */
  POST_APPROVED = 'POST_APPROVED',
  /** My post was rejected (with the reason and the reviewer). */
  POST_REJECTED = 'POST_REJECTED',
  /** A moderator hid my comment (with the reason). */
  COMMENT_HIDDEN = 'COMMENT_HIDDEN',
  /** Admins: a post was submitted for review. */
  POST_SUBMITTED = 'POST_SUBMITTED',
  /** Admins: a comment was reported. */
  COMMENT_REPORTED = 'COMMENT_REPORTED',
}

export const NOTIFICATION_TYPES: readonly NotificationType[] = Object.values(NotificationType);

/**
 * An event, keyed by `type`: ids only; `record()` reads the rest in the caller's transaction.
 * - COMMENT_REPLY: `commentId` is the new reply, `repliedToId` the comment it answers (its author is told).
 * - POST_COMMENT: `commentId` is the new comment (on `postId`, so it can be planned before the comment is written); the post's author is told (unless the same
 *   comment already tells them as a reply to their own comment).
 * - POST_APPROVED / POST_REJECTED: the post's author is told; `actorId` is the reviewer; `publishAt` when the approval scheduled the post.
 * - COMMENT_HIDDEN: the comment's author is told, with the moderator's reason.
 * - POST_SUBMITTED / COMMENT_REPORTED: every active admin but the actor is told.
 */
export type NotificationEvent =
  | { type: 'COMMENT_REPLY'; actorId: number; commentId: number; repliedToId: number }
  | { type: 'POST_COMMENT'; actorId: number; commentId: number; postId: number; repliedToId?: number }
  | { type: 'POST_APPROVED'; actorId: number; postId: number; publishAt?: Date }
  | { type: 'POST_REJECTED'; actorId: number; postId: number; reason: string }
  | { type: 'COMMENT_HIDDEN'; actorId: number; commentId: number; reason: string }
  | { type: 'POST_SUBMITTED'; actorId: number; postId: number }
  | { type: 'COMMENT_REPORTED'; actorId: number; commentId: number; reason: string };

/** The channels a preference switches. */
export interface ChannelChoice {
  inApp: boolean;
  email: boolean;
}

/** Defaults: replies and review outcomes by e-mail; everything in-app. */
export const DEFAULT_CHANNELS: Record<NotificationType, ChannelChoice> = {
  COMMENT_REPLY: { inApp: true, email: true },
  POST_COMMENT: { inApp: true, email: false },
  POST_APPROVED: { inApp: true, email: true },
  POST_REJECTED: { inApp: true, email: true },
  COMMENT_HIDDEN: { inApp: true, email: false },
  POST_SUBMITTED: { inApp: true, email: false },
  COMMENT_REPORTED: { inApp: true, email: false },
};

/** Which roles can receive a type (the preferences list only these). */
export const TYPES_FOR_ROLE = {
  USER: [NotificationType.COMMENT_REPLY, NotificationType.COMMENT_HIDDEN],
  AUTHOR: [
    NotificationType.COMMENT_REPLY,
    NotificationType.COMMENT_HIDDEN,
    NotificationType.POST_COMMENT,
    NotificationType.POST_APPROVED,
    NotificationType.POST_REJECTED,
  ],
  ADMIN: NOTIFICATION_TYPES,
} as const satisfies Record<'USER' | 'AUTHOR' | 'ADMIN', readonly NotificationType[]>;

export enum DeliveryStatus {
  PENDING = 'PENDING',
  SENT = 'SENT',
  FAILED = 'FAILED',
  /** Not sent on purpose: the recipient was banned or unverified at send time, or unsubscribed. */
  SKIPPED = 'SKIPPED',
}
