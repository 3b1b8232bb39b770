import { Inject, Injectable } from '@nestjs/common';
import { siteTimeFormatter } from '../common/site-time';
import { APP_CONFIG, type AppConfig } from '../config/env';
import { DomainEvents } from '../events/domain-events.service';
import { AuditWriter } from './audit-writer';
import { AuditLinks, AuditType } from './audit.types';

/**
 * The audit entries of account deletion, in the change's transaction. They name the
 * account by its id only: no name, no e-mail address, not in the description nor in the details,
 * so what the log keeps after the erasure is that it happened, when, asked by whom. The erasure
 * also wipes the descriptions of the account's earlier entries (AuditWriter.forgetUser).
 */
@Injectable()
export class AccountDeletionAuditSubscriber {
  constructor(events: DomainEvents, audit: AuditWriter, @Inject(APP_CONFIG) config: AppConfig) {
    const siteTime = siteTimeFormatter(config.siteTimeZone);

    events.onRecorded('user.deletion_scheduled', ({ data, actor }, manager) =>
      audit.record(manager, {
        type: AuditType.USER_DELETION_SCHEDULED,
        actorId: actor?.id ?? null,
        targetType: 'user',
        targetId: data.userId,
        title: 'Account deletion scheduled',
        description: `Account #${data.userId} will be erased on ${siteTime(new Date(data.dueAt))} (${data.via === 'self' ? 'asked by its owner' : 'by an administrator'})`,
        link: AuditLinks.user(data.userId),
        details: { via: data.via, dueAt: data.dueAt, roles: data.roles },
      }),
    );

    events.onRecorded('user.deletion_cancelled', ({ data }, manager) =>
      audit.record(manager, {
        type: AuditType.USER_DELETION_CANCELLED,
        actorId: data.userId,
        targetType: 'user',
        targetId: data.userId,
        title: 'Account deletion cancelled',
        description: `Account #${data.userId} signed in and cancelled its deletion`,
        link: AuditLinks.user(data.userId),
        details: { dueAt: data.dueAt },
      }),
    );

    events.onRecorded('user.deleted', async ({ data }, manager) => {
      await audit.forgetUser(manager, data.userId);
      await audit.record(manager, {
        type: AuditType.USER_DELETED,
        actorId: null,
        targetType: 'user',
        targetId: data.userId,
        title: 'Account erased',
        description: `Account #${data.userId} was erased (${data.via === 'self' ? 'asked by its owner' : 'deleted by an administrator'})`,
        link: null,
        details: {
          via: data.via,
          roles: data.roles,
          postsReassigned: data.postsReassigned,
          postsDeleted: data.postsDeleted,
          commentsAnonymised: data.commentsAnonymised,
          likesRemoved: data.likesRemoved,
          imagesRemoved: data.imagesRemoved,
        },
      });
    });
  }
}
