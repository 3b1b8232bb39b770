import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../events/domain-events.service';
import { lostAccess } from '../users/user-rules';
import { SessionsService } from './sessions.service';

/**
 * An account that loses access loses its sessions in the same transaction: a ban, a scheduled deletion, or an
 * administrator's edit that leaves it inactive or unverified (its refresh tokens stop working at
 * once; its access tokens at the next request, which checks the account).
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
  }
}
