import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../events/domain-events.service';
import { lostAccess, PASSWORD_RULES } from '../users/user-rules';
import { SessionsService } from './sessions.service';

/**
 * An account that loses access loses its sessions in the same transaction: a ban, a scheduled deletion, or an
 * administrator's edit that leaves it inactive or unverified (its refresh tokens stop working at
 * once; its access tokens at the next request, which checks the account). A new password ends the
 * sessions its rule names (PASSWORD_RULES in users/user-rules.ts: all, or all but the one that
 * changed it). Turning two-factor sign-in on ends the other sessions when its owner asks
 * ('Sign out my other sessions', checked by default): all but the one that turned it on.
 */
@Injectable()
export class UserSessionsSubscriber {
  constructor(events: DomainEvents, sessions: SessionsService) {
    events.onRecorded('user.banned', (event, manager) => sessions.revokeAllOfUser(event.data.userId, undefined, manager));
    // An account waiting to be erased cannot be used from the moment it is scheduled.
    events.onRecorded('user.deletion_scheduled', (event, manager) => sessions.revokeAllOfUser(event.data.userId, undefined, manager));
    events.onRecorded('user.updated', async (event, manager) => {
      if (lostAccess(event.data, event.data.changes)) await sessions.revokeAllOfUser(event.data.userId, undefined, manager);
    });
    events.onRecorded('user.password_changed', async ({ data }, manager) => {
      const rule = PASSWORD_RULES[data.via].sessions;
      if (rule === 'none') return;
      await sessions.revokeAllOfUser(data.userId, rule === 'all-but-current' ? (data.keptSessionId ?? undefined) : undefined, manager);
    });
    events.onRecorded('user.two_factor_enabled', async ({ data }, manager) => {
      // Older stored events carry neither field: nothing was asked then.
      if (data.signOutOtherSessions) await sessions.revokeAllOfUser(data.userId, data.keptSessionId ?? undefined, manager);
    });
  }
}
