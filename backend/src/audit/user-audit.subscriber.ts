import { Inject, Injectable } from '@nestjs/common';
import { siteTimeFormatter } from '../common/site-time';
import { APP_CONFIG, type AppConfig } from '../config/env';
import { DomainEvents } from '../events/domain-events.service';
import { AuditWriter } from './audit-writer';
import { AuditLinks, AuditType, excerpt } from './audit.types';

/**
 * The audit entries of the user lifecycle, written in the change's transaction (a change that
 * fails leaves no entry). Sign-ups, the administrators' creations, edits, bans and mutes are
 * logged; the first start, verifications, the owners' own edits and the roles event (its
 * `user.updated` carries the roles) are not.
 */
@Injectable()
export class UserAuditSubscriber {
  constructor(events: DomainEvents, audit: AuditWriter, @Inject(APP_CONFIG) config: AppConfig) {
    const siteTime = siteTimeFormatter(config.siteTimeZone);

    events.onRecorded('user.registered', ({ data }, manager) =>
      audit.record(manager, {
        type: AuditType.USER_REGISTERED,
        actorId: data.userId,
        targetType: 'user',
        targetId: data.userId,
        title: 'New user registered',
        description: `${data.fullName} signed up`,
        link: AuditLinks.user(data.userId),
      }),
    );

    events.onRecorded('user.created', async ({ data, actor }, manager) => {
      if (data.via !== 'admin' || !actor) return;
      await audit.record(manager, {
        type: AuditType.USER_CREATED,
        actorId: actor.id,
        targetType: 'user',
        targetId: data.userId,
        title: 'User created',
        description: `${actor.name} created the account of ${data.fullName}`,
        link: AuditLinks.user(data.userId),
        details: { email: data.email, roles: data.roles, status: data.status, isVerified: data.verified },
      });
    });

    events.onRecorded('user.updated', async ({ data, actor }, manager) => {
      if (data.via !== 'admin' || !actor) return;
      await audit.record(manager, {
        type: AuditType.USER_UPDATED,
        actorId: actor.id,
        targetType: 'user',
        targetId: data.userId,
        title: 'User updated',
        description: `${actor.name} updated ${data.fullName} (${Object.keys(data.changes).join(', ')})`,
        link: AuditLinks.user(data.userId),
        details: { changes: data.changes },
      });
    });

    events.onRecorded('user.banned', ({ data, actor }, manager) =>
      audit.record(manager, {
        type: AuditType.USER_BANNED,
        actorId: actor?.id ?? null,
        targetType: 'user',
        targetId: data.userId,
        title: 'User banned',
        description: `${data.fullName} was banned by ${actor?.name ?? 'the system'}: ${data.reason}`,
        link: AuditLinks.user(data.userId),
        details: { reason: data.reason, adminNote: data.adminNote, previousStatus: data.previousStatus },
      }),
    );

    events.onRecorded('user.unbanned', ({ data, actor }, manager) =>
      audit.record(manager, {
        type: AuditType.USER_UNBANNED,
        actorId: actor?.id ?? null,
        targetType: 'user',
        targetId: data.userId,
        title: 'User unbanned',
        description: `${data.fullName} was unbanned by ${actor?.name ?? 'the system'}: ${data.reason}`,
        link: AuditLinks.user(data.userId),
        details: { reason: data.reason, adminNote: data.adminNote },
      }),
    );

    events.onRecorded('user.muted', ({ data, actor }, manager) => {
      const until = data.until === null ? null : new Date(data.until);
      return audit.record(manager, {
        type: AuditType.USER_MUTED,
        actorId: actor?.id ?? null,
        targetType: 'user',
        targetId: data.userId,
        title: 'User muted',
        description: `Commenting stopped ${until ? `until ${siteTime(until)}` : 'for good'}: ${excerpt(data.reason)}`,
        link: AuditLinks.user(data.userId),
        details: { until: data.until, forever: until === null, reason: data.reason },
      });
    });

    events.onRecorded('user.unmuted', ({ data, actor }, manager) =>
      audit.record(manager, {
        type: AuditType.USER_UNMUTED,
        actorId: actor?.id ?? null,
        targetType: 'user',
        targetId: data.userId,
        title: 'User unmuted',
        description: 'The user can comment again',
        link: AuditLinks.user(data.userId),
        details: { until: data.until, reason: data.reason },
      }),
    );
  }
}
