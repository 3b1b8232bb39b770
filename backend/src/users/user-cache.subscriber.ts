import { Injectable } from '@nestjs/common';
import { ContentEvents } from '../common/content-events';
import { DomainEvents } from '../events/domain-events.service';
import { changesProfile } from './user-rules';

/**
 * After a user change commits, before the answer: every instance drops what shows the account
 * (ContentEvents kind 'user'). `profileChanged` when its name, bio or avatar changed (posts and
 * lists show them beside its posts); otherwise only the back office's counts and the authors page
 * (which lists active authors) can change. An owner's own edit of what no page shows (e-mail,
 * website, location), a mute (no cached page shows it), the roles event (its `user.updated`
 * announces it) and the first start (nothing is cached yet) drop nothing.
 */
@Injectable()
export class UserCacheSubscriber {
  constructor(events: DomainEvents, contentEvents: ContentEvents) {
    const changed = (userId: number, profileChanged: boolean) => contentEvents.changed({ kind: 'user', userId, profileChanged });
    events.onCommitted(
      ['user.registered', 'user.verified', 'user.banned', 'user.unbanned', 'user.deletion_scheduled', 'user.deletion_cancelled'],
      (event) => changed(event.data.userId, false),
    );
    // An erasure changes the likes and comments of many posts and may move or delete the author's
    // posts: one notice that drops every cache ('resync') rather than one per post; erasures are rare.
    events.onCommitted('user.deleted', () => contentEvents.changed({ kind: 'resync' }));
    events.onCommitted('user.created', async (event) => {
      if (event.data.via === 'admin') await changed(event.data.userId, false);
    });
    events.onCommitted('user.updated', async (event) => {
      const shown = changesProfile(event.data.changes);
      if (shown || event.data.via === 'admin') await changed(event.data.userId, shown);
    });
  }
}
