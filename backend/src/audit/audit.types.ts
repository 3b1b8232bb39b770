/**
 * What the audit log records (docs/requirements.md#activity-types "Activity types" plus the back-office actions). Stored
 * as text, so a new type needs no migration; readers must tolerate types they do not know.
 */
export enum AuditType {
  USER_REGISTERED = 'USER_REGISTERED',
  USER_CREATED = 'USER_CREATED',
  USER_UPDATED = 'USER_UPDATED',
  USER_BANNED = 'USER_BANNED',
  USER_UNBANNED = 'USER_UNBANNED',
  PASSWORD_GENERATED = 'PASSWORD_GENERATED',
  POST_CREATED = 'POST_CREATED',
  POST_PUBLISHED = 'POST_PUBLISHED',
  POST_REJECTED = 'POST_REJECTED',
  POST_ARCHIVED = 'POST_ARCHIVED',
  POST_DELETED = 'POST_DELETED',
  /** Approved with a publish time (the post waits, still PENDING_REVIEW). */
  POST_SCHEDULED = 'POST_SCHEDULED',
  POST_RESCHEDULED = 'POST_RESCHEDULED',
  /** The schedule was cancelled (the post is back in the review queue) or dropped by a status change. */
  POST_SCHEDULE_CANCELLED = 'POST_SCHEDULE_CANCELLED',
  TAG_CREATED = 'TAG_CREATED',
  TAG_UPDATED = 'TAG_UPDATED',
  TAG_ACTIVATED = 'TAG_ACTIVATED',
  TAG_DEACTIVATED = 'TAG_DEACTIVATED',
  TAG_DELETED = 'TAG_DELETED',
  COMMENT_HIDDEN = 'COMMENT_HIDDEN',
  COMMENT_RESTORED = 'COMMENT_RESTORED',
  COMMENT_DELETED = 'COMMENT_DELETED',
  COMMENT_REPORTS_DISMISSED = 'COMMENT_REPORTS_DISMISSED',
  USER_MUTED = 'USER_MUTED',
  USER_UNMUTED = 'USER_UNMUTED',
  PREVIEW_LINK_CREATED = 'PREVIEW_LINK_CREATED',
  PREVIEW_LINK_REVOKED = 'PREVIEW_LINK_REVOKED',
  // ---- two-factor sign-in ----
  /** An administrator turned off a user's two-factor sign-in (a lost authenticator). */
  TWO_FACTOR_RESET = 'TWO_FACTOR_RESET',

  // Your data: deletion (entries name the account by id only, never by name or address)
  USER_DELETION_SCHEDULED = 'USER_DELETION_SCHEDULED',
  USER_DELETION_CANCELLED = 'USER_DELETION_CANCELLED',
  USER_DELETED = 'USER_DELETED',

  // Integrations: who can send the site's data elsewhere, or act as an administrator without a session
  WEBHOOK_CREATED = 'WEBHOOK_CREATED',
  WEBHOOK_UPDATED = 'WEBHOOK_UPDATED',
  WEBHOOK_DELETED = 'WEBHOOK_DELETED',
  /** An API token with the `admin` scope (tokens without it are the owner's business: /account lists them). */
  ADMIN_TOKEN_CREATED = 'ADMIN_TOKEN_CREATED',
  ADMIN_TOKEN_REVOKED = 'ADMIN_TOKEN_REVOKED',
}

export const AUDIT_TARGET_TYPES = ['user', 'post', 'tag', 'comment', 'webhook'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** One thing that happened, as a subscriber hands it to `AuditWriter.record`. */
export interface AuditRecord {
  type: AuditType;
  /** Who did it; null for the system or an anonymous sign-up. */
  actorId: number | null;
  targetType: AuditTargetType;
  targetId: number;
  /** Short, shown as the activity's title (≤ 200 characters, cut when longer). */
  title: string;
  /** One sentence for the activity list (≤ 1000 characters, cut when longer). */
  description?: string;
  /** A site-relative page about the target, when there is one. */
  link?: string | null;
  /** Machine-readable facts (reasons, before/after values). Never secrets. */
  details?: Record<string, unknown>;
}

/** A quoted text (a reason, a comment) inside a description: at most 80 characters. */
export const excerpt = (text: string): string => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/** Site-relative links the activities point to: the back-office page of the record. */
export const AuditLinks = {
  user: (id: number) => `/admin/users/${id}`,
  adminPost: (id: number) => `/admin/posts/${id}/preview`,
  publicPost: (slug: string) => `/blog/${slug}`,
  tag: (id: number) => `/admin/tags/${id}/edit`,
  /** The moderation queue, on one comment. */
  comment: (id: number) => `/admin/comments?filter=all&comment=${id}`,
  webhooks: () => '/admin/integrations',
} as const;
