import { Injectable } from '@nestjs/common';
import { DomainEvents, LIVE_ONLY } from '../events/domain-events.service';
import { NotificationsService } from './notifications.service';

/**
 * Who is told about a post's moves (docs/notifications.md), in the change's transaction: admins
 * of a submission; the author of an approval (published now or scheduled, with the time) or a
 * rejection (with the reason). A publication by a save or by the scheduler tells no one.
 */
@Injectable()
export class PostNotificationsSubscriber {
  constructor(events: DomainEvents, notifications: NotificationsService) {
    events.onRecorded(
      'post.submitted',
      (event, manager) => notifications.record(manager, { type: 'POST_SUBMITTED', actorId: event.actor!.id, postId: event.data.postId }),
      LIVE_ONLY,
    );
    events.onRecorded(
      'post.published',
      async (event, manager) => {
        if (event.data.via === 'review')
          await notifications.record(manager, { type: 'POST_APPROVED', actorId: event.actor!.id, postId: event.data.postId });
      },
      LIVE_ONLY,
    );
    events.onRecorded(
      'post.scheduled',
      (event, manager) =>
        notifications.record(manager, {
          type: 'POST_APPROVED',
          actorId: event.actor!.id,
          postId: event.data.postId,
          publishAt: new Date(event.data.publishAt),
        }),
      LIVE_ONLY,
    );
    events.onRecorded(
      'post.rejected',
      (event, manager) =>
        notifications.record(manager, {
          type: 'POST_REJECTED',
          actorId: event.actor!.id,
          postId: event.data.postId,
          reason: event.data.reason,
        }),
      LIVE_ONLY,
    );
  }
}
