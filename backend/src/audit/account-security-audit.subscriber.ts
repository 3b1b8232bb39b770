import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../events/domain-events.service';
import { AuditWriter } from './audit-writer';
import { AuditLinks, AuditType } from './audit.types';

/**
 * The audit entries of an account's sign-in secrets, written in the change's transaction: an
 * administrator's generated password (never the password), an administrator's reset of two-factor
 * sign-in, and API tokens with the `admin` scope made or revoked (by their name, never their
 * value). The owners' own password changes and resets, their two-factor set-up and recovery codes
 * and tokens without the admin scope are theirs alone: no entry.
 */
@Injectable()
export class AccountSecurityAuditSubscriber {
  constructor(events: DomainEvents, audit: AuditWriter) {
    events.onRecorded('user.password_changed', async ({ data, actor }, manager) => {
      if (data.via !== 'admin' || !actor) return;
      await audit.record(manager, {
        type: AuditType.PASSWORD_GENERATED,
        actorId: actor.id,
        targetType: 'user',
        targetId: data.userId,
        title: 'Password generated',
        description: `${actor.name} generated a new password for ${data.fullName}`,
        link: AuditLinks.user(data.userId),
      });
    });

    events.onRecorded('user.two_factor_disabled', async ({ data, actor }, manager) => {
      if (data.via !== 'admin' || !actor) return;
      await audit.record(manager, {
        type: AuditType.TWO_FACTOR_RESET,
        actorId: actor.id,
        targetType: 'user',
        targetId: data.userId,
        title: 'Two-factor sign-in reset',
        description: `${actor.name} reset two-factor sign-in for ${data.fullName}`,
        link: AuditLinks.user(data.userId),
      });
    });

    events.onRecorded(['user.api_token_created', 'user.api_token_revoked'], async ({ name, data, actor }, manager) => {
      if (!data.apiToken.scopes.includes('admin')) return;
      const created = name === 'user.api_token_created';
      await audit.record(manager, {
        type: created ? AuditType.ADMIN_TOKEN_CREATED : AuditType.ADMIN_TOKEN_REVOKED,
        actorId: actor?.id ?? data.userId,
        targetType: 'user',
        targetId: data.userId,
        title: created ? 'Admin API token created' : 'Admin API token revoked',
        description: `${actor?.name ?? data.fullName} ${created ? 'created' : 'revoked'} the API token "${data.apiToken.name}" with the admin scope`,
        link: AuditLinks.user(data.userId),
      });
    });
  }
}
