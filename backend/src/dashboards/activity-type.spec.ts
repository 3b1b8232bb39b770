import { AUDIT_TARGET_TYPES, AuditType } from '../audit/audit.types';
import { ACTIVITY_TYPE_OF_AUDIT, ACTIVITY_TYPE_OF_AUTHOR_EVENT, activityTypeOfAudit } from './activity-type';
import { AUTHOR_EVENT_TYPES } from './dashboards.repository';
import { DashboardActivityType } from './dto/dashboard.dto';

/** docs/requirements.md#data-admin-stats: the activity types integrators switch on. */
const SPEC_TYPES = ['USER_REGISTERED', 'POST_PUBLISHED', 'POST_CREATED', 'TAG_CREATED', 'USER_UPDATED', 'USER_BANNED'];

describe('dashboard activity types (docs/requirements.md#activity-types: six types, nothing else)', () => {
  it('the API enum is exactly the six', () => {
    expect(Object.values(DashboardActivityType).sort()).toEqual([...SPEC_TYPES].sort());
  });

  it.each(Object.values(AuditType))('audit event %s maps to one of the six', (type) => {
    expect(Object.keys(ACTIVITY_TYPE_OF_AUDIT)).toContain(type);
    for (const target of AUDIT_TARGET_TYPES) expect(SPEC_TYPES).toContain(activityTypeOfAudit(type, target));
  });

  it.each([...AUTHOR_EVENT_TYPES])("the author dashboard's event %s maps to one of the six", (type) => {
    expect(SPEC_TYPES).toContain(ACTIVITY_TYPE_OF_AUTHOR_EVENT[type]);
  });

  it('maps each event to the nearest type: creation is a registration, other account changes updates, post events but publication creations', () => {
    expect(activityTypeOfAudit(AuditType.USER_CREATED, 'user')).toBe('USER_REGISTERED');
    expect(activityTypeOfAudit(AuditType.USER_UNBANNED, 'user')).toBe('USER_UPDATED');
    expect(activityTypeOfAudit(AuditType.PASSWORD_GENERATED, 'user')).toBe('USER_UPDATED');
    expect(activityTypeOfAudit(AuditType.USER_BANNED, 'user')).toBe('USER_BANNED');
    expect(activityTypeOfAudit(AuditType.POST_PUBLISHED, 'post')).toBe('POST_PUBLISHED');
    expect(activityTypeOfAudit(AuditType.POST_REJECTED, 'post')).toBe('POST_CREATED');
    expect(activityTypeOfAudit(AuditType.TAG_DELETED, 'tag')).toBe('TAG_CREATED');
    expect(activityTypeOfAudit(AuditType.COMMENT_HIDDEN, 'comment')).toBe('POST_CREATED');
    expect(activityTypeOfAudit(AuditType.USER_MUTED, 'user')).toBe('USER_BANNED');
    expect(activityTypeOfAudit(AuditType.USER_UNMUTED, 'user')).toBe('USER_UPDATED');
    expect(ACTIVITY_TYPE_OF_AUTHOR_EVENT.POST_REJECTED).toBe('POST_CREATED');
  });

  it('a stored type this code does not know goes by its target', () => {
    expect(activityTypeOfAudit('USER_MERGED', 'user')).toBe('USER_UPDATED');
    expect(activityTypeOfAudit('POST_PINNED', 'post')).toBe('POST_CREATED');
    expect(activityTypeOfAudit('TAG_MERGED', 'tag')).toBe('TAG_CREATED');
    expect(activityTypeOfAudit('COMMENT_HIDDEN', 'comment')).toBe('POST_CREATED');
    expect(activityTypeOfAudit('toString', 'user')).toBe('USER_UPDATED');
  });
});
