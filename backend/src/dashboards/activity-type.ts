import { AuditTargetType, AuditType } from '../audit/audit.types';
import { AuthorEventType } from './dashboards.repository';
import { DashboardActivityType } from './dto/dashboard.dto';

const { USER_REGISTERED, USER_UPDATED, USER_BANNED, POST_CREATED, POST_PUBLISHED, TAG_CREATED } = DashboardActivityType;

/**
 * Every audit event as the nearest of the six activity types of docs/requirements.md#activity-types (integrators switch on
 * them; the audit log keeps the exact kind, the title and description say it): an account that
 * came to be is USER_REGISTERED, a ban USER_BANNED, any other account change USER_UPDATED; a
 * publication POST_PUBLISHED, any other post event POST_CREATED; any tag event TAG_CREATED.
 * Typed by AuditType, so a new audit event does not compile until it is mapped here.
 */
export const ACTIVITY_TYPE_OF_AUDIT: Readonly<Record<AuditType, DashboardActivityType>> = {
  [AuditType.USER_REGISTERED]: USER_REGISTERED,
  [AuditType.USER_CREATED]: USER_REGISTERED,
  [AuditType.USER_UPDATED]: USER_UPDATED,
  [AuditType.USER_BANNED]: USER_BANNED,
  [AuditType.USER_UNBANNED]: USER_UPDATED,
  [AuditType.PASSWORD_GENERATED]: USER_UPDATED,
  [AuditType.TWO_FACTOR_RESET]: USER_UPDATED,
  [AuditType.POST_CREATED]: POST_CREATED,
  [AuditType.POST_PUBLISHED]: POST_PUBLISHED,
  [AuditType.POST_REJECTED]: POST_CREATED,
  [AuditType.POST_ARCHIVED]: POST_CREATED,
  [AuditType.POST_DELETED]: POST_CREATED,
  // A schedule is a decision about a post, not yet its publication (the scheduler's publication is POST_PUBLISHED).
  [AuditType.POST_SCHEDULED]: POST_CREATED,
  [AuditType.POST_RESCHEDULED]: POST_CREATED,
  [AuditType.POST_SCHEDULE_CANCELLED]: POST_CREATED,
  [AuditType.TAG_CREATED]: TAG_CREATED,
  [AuditType.TAG_UPDATED]: TAG_CREATED,
  [AuditType.TAG_ACTIVATED]: TAG_CREATED,
  [AuditType.TAG_DEACTIVATED]: TAG_CREATED,
  [AuditType.TAG_DELETED]: TAG_CREATED,
  // Comment moderation happens on a post: the nearest is a post event; a mute is a partial ban, lifting it an account change.
  [AuditType.COMMENT_HIDDEN]: POST_CREATED,
  [AuditType.COMMENT_RESTORED]: POST_CREATED,
  [AuditType.COMMENT_DELETED]: POST_CREATED,
  [AuditType.COMMENT_REPORTS_DISMISSED]: POST_CREATED,
  [AuditType.USER_MUTED]: USER_BANNED,
  [AuditType.USER_UNMUTED]: USER_UPDATED,
  // Sharing or revoking a preview is a post event.
  [AuditType.PREVIEW_LINK_CREATED]: POST_CREATED,
  [AuditType.PREVIEW_LINK_REVOKED]: POST_CREATED,
  // A deletion scheduled or cancelled is an account change; the erasure too (the account is gone, not banned).
  [AuditType.USER_DELETION_SCHEDULED]: USER_UPDATED,
  [AuditType.USER_DELETION_CANCELLED]: USER_UPDATED,
  [AuditType.USER_DELETED]: USER_UPDATED,
  // An administrator's change to the site's integrations, an admin token an account change.
  [AuditType.WEBHOOK_CREATED]: USER_UPDATED,
  [AuditType.WEBHOOK_UPDATED]: USER_UPDATED,
  [AuditType.WEBHOOK_DELETED]: USER_UPDATED,
  [AuditType.ADMIN_TOKEN_CREATED]: USER_UPDATED,
  [AuditType.ADMIN_TOKEN_REVOKED]: USER_UPDATED,
};

/** The author dashboard's events on their own posts, the same way (submitted and rejected are post events, not publications). */
export const ACTIVITY_TYPE_OF_AUTHOR_EVENT: Readonly<Record<AuthorEventType, DashboardActivityType>> = {
  POST_CREATED,
  POST_SUBMITTED: POST_CREATED,
  POST_PUBLISHED,
  POST_REJECTED: POST_CREATED,
};

/** A stored audit row whose type this code no longer knows (rows outlive code) goes by what it is about. */
const ACTIVITY_TYPE_OF_TARGET: Readonly<Record<AuditTargetType, DashboardActivityType>> = {
  user: USER_UPDATED,
  post: POST_CREATED,
  tag: TAG_CREATED,
  comment: POST_CREATED,
  webhook: USER_UPDATED,
};

export function activityTypeOfAudit(type: string, targetType: AuditTargetType): DashboardActivityType {
  return Object.hasOwn(ACTIVITY_TYPE_OF_AUDIT, type) ? ACTIVITY_TYPE_OF_AUDIT[type as AuditType] : ACTIVITY_TYPE_OF_TARGET[targetType];
}
