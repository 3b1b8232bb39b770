import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainEvents, LIVE_ONLY } from '../events/domain-events.service';
import { FederationService } from './federation.service';

/**
 * What the fediverse hears (docs/federation.md#what-is-sent), in the change's transaction (the
 * activity and its deliveries commit with it) and live only: an import's historic posts are never
 * sent. Nothing is sent while federation is off or unavailable (Node < 22).
 */
@Injectable()
export class FederationEventsSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly federation: FederationService,
  ) {}

  onModuleInit(): void {
    const on = async (manager: EntityManager): Promise<boolean> => this.federation.available && (await this.federation.enabled(manager));
    this.events.onRecorded(
      'post.published',
      async (event, manager) => {
        if (await on(manager)) await this.federation.postPublished(manager, event.data.postId);
      },
      LIVE_ONLY,
    );
    this.events.onRecorded(
      'post.updated',
      async (event, manager) => {
        // A save of a post public before and after: Update. (A save that publishes records post.published too.)
        if (event.data.previousStatus === 'PUBLISHED' && event.data.status === 'PUBLISHED' && (await on(manager)))
          await this.federation.postUpdated(manager, event.data.postId);
      },
      LIVE_ONLY,
    );
    this.events.onRecorded(
      ['post.unpublished', 'post.deleted'],
      async (event, manager) => {
        const wasPublic = event.name === 'post.unpublished' || event.data.status === 'PUBLISHED';
        if (wasPublic && event.data.authorId !== null && (await on(manager)))
          await this.federation.postWithdrawn(manager, event.data.postId, event.data.authorId);
      },
      LIVE_ONLY,
    );
    this.events.onRecorded(
      'user.updated',
      async (event, manager) => {
        const changes = event.data.changes as Record<string, unknown> | undefined;
        if (changes && ('fullName' in changes || 'bio' in changes || 'avatar' in changes) && (await on(manager)))
          await this.federation.profileChanged(manager, event.data.userId);
      },
      LIVE_ONLY,
    );
    this.events.onRecorded(
      ['comment.created', 'comment.approved'],
      async (event, manager) => {
        if (event.data.visibility === 'VISIBLE' && event.data.authorId !== null && event.data.parentId !== null && (await on(manager)))
          await this.federation.replyWritten(manager, event.data.commentId);
      },
      LIVE_ONLY,
    );
  }
}
