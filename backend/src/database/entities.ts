import { UserBan } from '../users/entities/user-ban.entity';
import { AuditEntry } from '../audit/entities/audit-entry.entity';
import { AttemptCounterRow } from '../auth/entities/attempt-counter.entity';
import { EmailVerificationCode } from '../auth/entities/email-verification-code.entity';
import { PasswordResetToken } from '../auth/entities/password-reset-token.entity';
import { KnownDevice } from '../sessions/entities/known-device.entity';
import { RefreshSession } from '../sessions/entities/refresh-session.entity';
import { SignInAlertSetting } from '../sessions/entities/sign-in-alert-setting.entity';
import { ApiToken } from '../api-tokens/entities/api-token.entity';
import { TwoFactorChallenge } from '../two-factor/entities/two-factor-challenge.entity';
import { TwoFactorRecoveryCode } from '../two-factor/entities/two-factor-recovery-code.entity';
import { UserTwoFactor } from '../two-factor/entities/user-two-factor.entity';
import { Comment } from '../comments/entities/comment.entity';
import { Thumbnail } from '../images/entities/thumbnail.entity';
import { Like } from '../likes/entities/like.entity';
import { ReaderLikeCount } from '../likes/entities/reader-like-count.entity';
import { DomainEventRow } from '../events/entities/domain-event.entity';
import { CommentReport } from '../moderation/entities/comment-report.entity';
import { UserMute } from '../users/entities/user-mute.entity';
import { Notification } from '../notifications/entities/notification.entity';
import { NotificationCounter } from '../notifications/entities/notification-counter.entity';
import { NotificationDelivery } from '../notifications/entities/notification-delivery.entity';
import { NotificationPreference } from '../notifications/entities/notification-preference.entity';
import { NotificationSettings } from '../notifications/entities/notification-settings.entity';
import { PostTag } from '../posts/entities/post-tag.entity';
import { Post } from '../posts/entities/post.entity';
import { PostSlugHistory } from '../posts/entities/post-slug-history.entity';
import { PostPathRedirect } from '../posts/entities/post-path-redirect.entity';
import { ImportItem } from '../imports/entities/import-item.entity';
import { SiteImport } from '../imports/entities/site-import.entity';
import { PostRevision } from '../revisions/entities/post-revision.entity';
import { PostPreviewLink } from '../previews/entities/post-preview-link.entity';
import { PostReview } from '../reviews/entities/post-review.entity';
import { Tag } from '../tags/entities/tag.entity';
import { TagSlugHistory } from '../tags/entities/tag-slug-history.entity';
import { Role } from '../users/entities/role.entity';
import { SiteSetting } from '../settings/entities/site-setting.entity';
import { User } from '../users/entities/user.entity';
import { AccountExport } from '../account-data/entities/account-export.entity';
import { UserRole } from '../users/entities/user-role.entity';
import { WebhookAttempt } from '../webhooks/entities/webhook-attempt.entity';
import { WebhookDelivery } from '../webhooks/entities/webhook-delivery.entity';
import { Webhook } from '../webhooks/entities/webhook.entity';
import { NewsletterDelivery } from '../newsletter/entities/newsletter-delivery.entity';
import { NewsletterDigestDelivery } from '../newsletter/entities/newsletter-digest-delivery.entity';
import { NewsletterFollow } from '../newsletter/entities/newsletter-follow.entity';
import { NewsletterPostSend } from '../newsletter/entities/newsletter-post-send.entity';
import { NewsletterSubscriber } from '../newsletter/entities/newsletter-subscriber.entity';
import { NewsletterSuppression } from '../newsletter/entities/newsletter-suppression.entity';

/**
 * Every TypeORM entity of the app, listed once: the app, the migration generator and the tests
 * all load this list (no path globs, so compiled and transpiled code behave the same).
 */
export const ENTITIES: Function[] = [
  User,
  Role,
  UserRole,
  Post,
  Tag,
  PostTag,
  PostReview,
  RefreshSession,
  EmailVerificationCode,
  PasswordResetToken,
  AttemptCounterRow,
  Comment,
  Like,
  AuditEntry,
  Thumbnail,
  UserBan,
  PostSlugHistory,
  TagSlugHistory,
  CommentReport,
  UserMute,
  Notification,
  NotificationPreference,
  NotificationSettings,
  NotificationDelivery,
  NotificationCounter,
  PostRevision,
  PostPreviewLink,
  DomainEventRow,
  ReaderLikeCount,
  SiteSetting,
  KnownDevice,
  SignInAlertSetting,
  ApiToken,
  UserTwoFactor,
  TwoFactorRecoveryCode,
  TwoFactorChallenge,
  AccountExport,
  Webhook,
  WebhookDelivery,
  WebhookAttempt,
  PostPathRedirect,
  SiteImport,
  ImportItem,
  NewsletterSubscriber,
  NewsletterFollow,
  NewsletterSuppression,
  NewsletterPostSend,
  NewsletterDelivery,
  NewsletterDigestDelivery,
];
