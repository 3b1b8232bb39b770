/**
 * The domain event stream (docs/events.md): what happened to a post, a comment, a user or a tag,
 * recorded by the owner of that lifecycle in the same transaction as the change. Caches, the audit
 * log, notifications and search subscribe; webhooks and exports will read the stored stream.
 *
 * Names are `<subject>.<past-tense verb>`, as an integrator reads them. Every payload is plain JSON
 * (ids, texts, ISO times): it is stored as it is (table `domain_events`) and may be sent as it is.
 */

/** Post statuses as stored (kept here as strings: the stream names no entity). */
export type PostStatusName = 'DRAFT' | 'PENDING_REVIEW' | 'PUBLISHED' | 'REJECTED' | 'ARCHIVED' | 'PRIVATE';

/** Who did it: a signed-in person, or null for the system (the scheduler, a start-up seed). */
export interface EventActor {
  id: number;
  name: string;
}

/** A post as every post event names it, after the change. */
export interface PostFacts {
  postId: number;
  title: string;
  slug: string;
  authorId: number;
  status: PostStatusName;
  /** The post's version after the change (an editor holding an older one gets 409 on save). */
  version: number;
}

/** How a post reached its new status. */
/** `import`: written by a site import (historic content, events recorded inside asHistoric). */
export type PostVia = 'update' | 'review' | 'schedule' | 'import';

/** A comment's visibility as stored: VISIBLE (shown and counted), HELD (waiting for a moderator), HIDDEN (by a moderator). */
export type CommentVisibilityName = 'VISIBLE' | 'HELD' | 'HIDDEN';

/** A comment as every comment event names it, after the change. */
export interface CommentFacts {
  commentId: number;
  postId: number;
  /** The post's slug (its public page: /blog/{postSlug}). */
  postSlug: string;
  parentId: number | null;
  /** Null once the author's account is gone. */
  authorId: number | null;
  visibility: CommentVisibilityName;
  deleted: boolean;
}

/** An account's status as stored. */
export type UserStatusName = 'PENDING' | 'ACTIVE' | 'INACTIVE' | 'BANNED';

/** An account as every user event names it, after the change (never a password, a hash or a token). */
export interface UserFacts {
  userId: number;
  email: string;
  fullName: string;
  status: UserStatusName;
  /** The e-mail address is verified. */
  verified: boolean;
  /** The roles held (USER, AUTHOR, ADMIN); the highest counts, none = USER. */
  roles: string[];
}

/** An erased account as `user.deleted` names it: what was done, never who it was. */
export interface UserErasedFacts {
  userId: number;
  /** The roles it held. */
  roles: string[];
  /** Who asked: the owner, or an administrator. */
  via: 'self' | 'admin';
  postsReassigned: number;
  postsDeleted: number;
  /** Comments now shown as '[deleted user]'. */
  commentsAnonymised: number;
  likesRemoved: number;
  /** Image files deleted: the avatar and unused thumbnails (each variant of a thumbnail counts). */
  imagesRemoved: number;
}

/** One field's value before and after a change. */
export interface FieldChange<T> {
  from: T;
  to: T;
}

/** The fields a `user.updated` changed, each with its value before and after, in the order they were compared. */
export interface UserChanges {
  fullName?: FieldChange<string>;
  bio?: FieldChange<string | null>;
  email?: FieldChange<string>;
  website?: FieldChange<string | null>;
  location?: FieldChange<string | null>;
  /** The avatar's address (/images/avatars/...), null when none. */
  avatar?: FieldChange<string | null>;
  status?: FieldChange<UserStatusName>;
  isVerified?: FieldChange<boolean>;
  roles?: FieldChange<string[]>;
}

/**
 * How a password was set on an existing account (the table of what each ends: PASSWORD_RULES in
 * users/user-rules.ts). A new account's first password is written with the account itself
 * (`user.registered`, `user.created`) and records no password event.
 */
export type PasswordVia = 'reset' | 'change' | 'admin';

/** An API token as its events name it: never its value nor its hash. */
export interface ApiTokenFacts {
  tokenId: number;
  /** The owner's label. */
  name: string;
  /** read, write, admin. */
  scopes: string[];
  /** ISO time; null: it never expires. */
  expiresAt: string | null;
}

/**
 * A webhook as its events name it, after the change. Only the receiver's host: the path or query
 * of its address may hold a secret of the receiver's own, and the stream keeps no secret.
 */
export interface WebhookFacts {
  webhookId: number;
  host: string;
  /** The event names it wants. */
  events: string[];
  active: boolean;
  /** User events sent to it carry e-mail addresses. */
  includeEmails: boolean;
}

/** What an edit of a webhook changed: `url` (another address), `events` (the list was sent), `includeEmails`, `active`, `secret` (rotated). */
export type WebhookChange = 'url' | 'events' | 'includeEmails' | 'active' | 'secret';

/** A post's likes after a reader liked or unliked it. */
export interface LikeFacts {
  postId: number;
  /** The post's slug (its public page: /blog/{slug}). */
  slug: string;
  /** The post's like count after the change. */
  likeCount: number;
}

/** A tag as every tag event names it, after the change. */
export interface TagFacts {
  tagId: number;
  name: string;
  slug: string;
  active: boolean;
}

export interface DomainEventMap {
  /** A post was written for the first time. */
  'post.created': PostFacts;
  /** A post's text, tags, images or SEO fields were saved (with or without a status change). */
  'post.updated': PostFacts & { previousSlug: string; previousStatus: PostStatusName };
  /** A post became public; `via` says how, `reviewId` when a review did it, `scheduledAt` when its schedule did. */
  'post.published': PostFacts & {
    previousStatus: PostStatusName | null;
    via: PostVia;
    reviewId?: number;
    scheduledAt?: string;
    scheduledBy?: number | null;
    droppedSchedule?: string;
  };
  /** A public post stopped being public (now DRAFT, PRIVATE or ARCHIVED). */
  'post.unpublished': PostFacts & { previousStatus: PostStatusName; via: PostVia };
  /** Any other status move (e.g. DRAFT → PRIVATE, REJECTED → DRAFT, DRAFT → ARCHIVED). */
  'post.status_changed': PostFacts & { previousStatus: PostStatusName | null; via: PostVia };
  /** An author sent the post for review; `requestedPublishAt` when they asked for a time. */
  'post.submitted': PostFacts & { previousStatus: PostStatusName; requestedPublishAt: string | null };
  /** A reviewer approved the post to be published at `publishAt` (it waits, PENDING_REVIEW). */
  'post.scheduled': PostFacts & { previousStatus: PostStatusName; publishAt: string; reviewId: number; requestedPublishAt: string | null };
  /** A scheduled post's time moved. */
  'post.rescheduled': PostFacts & { publishAt: string; previousPublishAt: string };
  /** A schedule was dropped: cancelled (back in the review queue) or by another decision (`via`). */
  'post.unscheduled': PostFacts & { scheduledAt: string; via: 'cancel' | 'update'; to?: PostStatusName };
  /** A reviewer rejected the post with a reason. */
  'post.rejected': PostFacts & { previousStatus: PostStatusName; reviewId: number; reason: string; droppedSchedule?: string };
  /** A post was deleted (its facts as they were). */
  'post.deleted': PostFacts;
  /** A shareable preview link was created or revoked. */
  'post.preview_link_created': PostFacts & { linkId: number; expiresAt: string };
  'post.preview_link_revoked': PostFacts & { linkId: number; expiresAt: string };

  // Comments (owner: comment visibility, backend/src/comments/)
  /**
   * A comment or reply was written; `visibility` HELD when a hold rule kept it for review
   * (`holdReason`). `repliedToId`: the comment answered (a reply to a level-3 comment is stored
   * under that comment's parent, so it may differ from `parentId`).
   */
  'comment.created': CommentFacts & { repliedToId: number | null; holdReason?: string };
  /** Its author edited it; `holdReason` when the edit made a VISIBLE comment HELD. */
  'comment.updated': CommentFacts & { holdReason?: string };
  /** A held comment was approved by a moderator (now VISIBLE). */
  'comment.approved': CommentFacts;
  /** A moderator (`by` ADMIN) or the post's author (`by` POST_AUTHOR) hid it, with a reason. */
  'comment.hidden': CommentFacts & { reason: string; by: 'ADMIN' | 'POST_AUTHOR'; previousVisibility: CommentVisibilityName };
  /** A moderator showed a hidden comment again. */
  'comment.restored': CommentFacts;
  /**
   * Its author or an admin deleted it (`via` thread), or an admin from the moderation queue (`via`
   * moderation-queue: then `content` is the text it had, which the audit log keeps).
   * `placeholder`: its row stays, text wiped, for the replies under it; otherwise the row is gone.
   */
  'comment.deleted': CommentFacts & {
    previousVisibility: CommentVisibilityName;
    placeholder: boolean;
    via: 'thread' | 'moderation-queue';
    content?: string;
  };
  /** A reader reported it. */
  'comment.reported': CommentFacts & { reportId: number; reason: string };
  /** A moderator dismissed its open reports (`dismissed` of them). */
  'comment.reports_dismissed': CommentFacts & { dismissed: number };

  // Users (owner: UsersService.create and the user lifecycle, backend/src/users/)
  /** Someone signed up (PENDING and not yet verified; the actor is the new account). */
  'user.registered': UserFacts;
  /** An account was created by an administrator (`admin`), by a site import run by an administrator (`import`), at the first start (`first-admin`, no actor) or as a placeholder of erased accounts (`placeholder`, no actor). */
  'user.created': UserFacts & { via: 'admin' | 'first-admin' | 'placeholder' | 'import' };
  /** The owner verified the e-mail address with the code (now ACTIVE). */
  'user.verified': UserFacts;
  /** Profile or administrative fields changed: by the owner (`self`) or an administrator (`admin`); `changes` names each with its values before and after. */
  'user.updated': UserFacts & { via: 'self' | 'admin'; changes: UserChanges };
  /** The roles held changed (an administrator's edit, which also records `user.updated`, or the first start making an existing account the administrator). */
  'user.roles_changed': UserFacts & { previousRoles: string[] };
  /** An administrator banned the account: its sessions end, it cannot sign in. `adminNote` is the administrators' own. */
  'user.banned': UserFacts & { reason: string; adminNote: string | null; previousStatus: UserStatusName };
  /** An administrator lifted the ban (now ACTIVE), with a reason. */
  'user.unbanned': UserFacts & { reason: string; adminNote: string | null };
  /** An administrator stopped the account commenting until `until` (null: for good). */
  'user.muted': UserFacts & { reason: string; until: string | null };
  /** An administrator lifted the mute in force (`reason` and `until` are the lifted mute's). */
  'user.unmuted': UserFacts & { reason: string; until: string | null };
  /**
   * The account will be erased at `dueAt`, asked by its owner (`self`) or an administrator
   * (`admin`): from now on it cannot be used (its sessions end with this event).
   */
  'user.deletion_scheduled': UserFacts & { via: 'self' | 'admin'; dueAt: string };
  /** The owner signed in with their password and cancelled the pending deletion. */
  'user.deletion_cancelled': UserFacts & { dueAt: string };
  /**
   * The account was erased (UserErasedFacts: no name, no address). Its comments now belong to the
   * '[deleted user]' placeholder, its likes are gone, its published posts were given to the
   * 'Former author' placeholder or deleted (the site setting), its other posts deleted.
   */
  'user.deleted': UserErasedFacts;
  /**
   * The password of an existing account was set: through a reset link (`reset`), by its owner
   * with the current one (`change`) or generated by an administrator (`admin`). Sessions end
   * with it (PASSWORD_RULES): all of them, or all but `keptSessionId` (the owner's own, on a change).
   */
  'user.password_changed': UserFacts & { via: PasswordVia; keptSessionId: string | null };
  /**
   * The owner turned two-factor sign-in on (the first right code of the set-up); with
   * `signOutOtherSessions` every session but `keptSessionId` (the one that turned it on) ends.
   */
  'user.two_factor_enabled': UserFacts & { signOutOtherSessions: boolean; keptSessionId: string | null };
  /** Two-factor sign-in was turned off: by the owner (password and code, `self`) or reset by an administrator (`admin`: the owner is e-mailed). */
  'user.two_factor_disabled': UserFacts & { via: 'self' | 'admin' };
  /** The owner made new recovery codes (the old ones stopped working). */
  'user.recovery_codes_renewed': UserFacts;
  /** The owner made a personal API token (`apiToken`: its name and scopes, never its value). */
  'user.api_token_created': UserFacts & { apiToken: ApiTokenFacts };
  /** The owner revoked one of their API tokens. */
  'user.api_token_revoked': UserFacts & { apiToken: ApiTokenFacts };

  // Tags (owner: TagsService, backend/src/tags/)
  'tag.created': TagFacts;
  /** Renamed, described anew or (de)activated through an edit; `changed` names the fields the edit set, `previousSlug` for redirects. */
  'tag.updated': TagFacts & { previousSlug: string; changed: string[] };
  'tag.activated': TagFacts;
  'tag.deactivated': TagFacts;
  /** A tag was deleted (its facts as they were). */
  'tag.deleted': TagFacts;

  // Likes (owner: LikesService, backend/src/likes/; the actor is the reader)
  'post.liked': LikeFacts;
  'post.unliked': LikeFacts;

  // Webhooks (owner: WebhooksService, backend/src/webhooks/; the actor is the administrator)
  'webhook.created': WebhookFacts;
  /** An edit changed something (`changed`, in this order: url, events, includeEmails, active, secret). */
  'webhook.updated': WebhookFacts & { changed: WebhookChange[] };
  /** Deleted (its facts as they were). */
  'webhook.deleted': WebhookFacts;

  // Backups (owner: BackupService, backend/src/backup/; the system acts, actor null)
  /** A scheduled backup failed (the administrators are e-mailed). */
  'backup.failed': BackupFacts;
}

/** A backup run as its events name it. */
export interface BackupFacts {
  backupId: number;
  trigger: 'schedule' | 'command';
  startedAt: string;
  error: string;
}

export type DomainEventName = keyof DomainEventMap;

/** One event: its name, who did it, and its payload. */
export type DomainEvent<N extends DomainEventName = DomainEventName> = {
  [K in N]: { name: K; actor: EventActor | null; data: DomainEventMap[K] };
}[N];

/** The subject an event is about, for the stored stream's index (`post` 12, `comment` 7, ...). */
export function subjectOf(event: DomainEvent): { type: string; id: number } {
  const data = event.data as unknown as Record<string, unknown>;
  const [type] = event.name.split('.');
  const id = data[`${type}Id`];
  return { type, id: typeof id === 'number' ? id : 0 };
}
