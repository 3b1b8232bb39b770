import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from '../events/domain-events';
import { DomainEvents, LIVE_ONLY } from '../events/domain-events.service';
import type { NotificationEvent } from './notification.types';
import { NotificationsService } from './notifications.service';

/**
 * The notifications comments cause, written in the change's transaction (they commit or roll back
 * with it): a comment readers can now see tells the author of the comment it answers
 * (COMMENT_REPLY) and the post's author (POST_COMMENT), at its writing or, when it was held, at its
 * approval, never before; a hidden comment's author is told why (COMMENT_HIDDEN); a report tells
 * the admins (COMMENT_REPORTED).
 */
@Injectable()
export class CommentNotificationsSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly notifications: NotificationsService,
  ) {}

  onModuleInit(): void {
    this.events.onRecorded(
      'comment.created',
      ({ data }, manager) =>
        data.visibility === 'VISIBLE' && data.authorId !== null
          ? this.published(manager, data.commentId, data.postId, data.authorId, data.repliedToId)
          : Promise.resolve(),
      LIVE_ONLY,
    );
    // An approved comment: its author is the actor of its notifications; the comment answered is the one it is stored under.
    this.events.onRecorded(
      'comment.approved',
      ({ data }, manager) =>
        data.authorId !== null ? this.published(manager, data.commentId, data.postId, data.authorId, data.parentId) : Promise.resolve(),
      LIVE_ONLY,
    );
    this.events.onRecorded('comment.hidden', (event, manager) => this.hidden(event, manager), LIVE_ONLY);
    this.events.onRecorded(
      'comment.reported',
      ({ actor, data }, manager) =>
        actor
          ? this.notifications.record(manager, {
              type: 'COMMENT_REPORTED',
              actorId: actor.id,
              commentId: data.commentId,
              reason: data.reason,
            })
          : Promise.resolve(),
      LIVE_ONLY,
    );
  }

  private published(manager: EntityManager, commentId: number, postId: number, actorId: number, repliedToId: number | null): Promise<void> {
    const onPost: NotificationEvent = { type: 'POST_COMMENT', actorId, commentId, postId, repliedToId: repliedToId ?? undefined };
    return this.notifications.record(
      manager,
      ...(repliedToId ? [{ type: 'COMMENT_REPLY', actorId, commentId, repliedToId } as const, onPost] : [onPost]),
    );
  }

  private hidden({ actor, data }: DomainEvent<'comment.hidden'>, manager: EntityManager): Promise<void> {
    if (!actor) return Promise.resolve();
    return this.notifications.record(manager, {
      type: 'COMMENT_HIDDEN',
      actorId: actor.id,
      commentId: data.commentId,
      reason: data.reason,
    });
  }
}
