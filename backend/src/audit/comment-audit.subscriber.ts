import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CommentFacts, DomainEvent, EventActor } from '../events/domain-events';
import { DomainEvents } from '../events/domain-events.service';
import { AuditWriter } from './audit-writer';
import { AuditLinks, AuditRecord, AuditType, excerpt } from './audit.types';
import { countNoun, englishNoun } from '../../../isomorphic/plural';

/** An entry about the event's comment, by the event's actor. */
const aboutComment = (
  { actor, data }: { actor: EventActor | null; data: CommentFacts },
  type: AuditType,
  entry: Pick<AuditRecord, 'title' | 'description' | 'link' | 'details'>,
): AuditRecord => ({ type, actorId: actor?.id ?? null, targetType: 'comment', targetId: data.commentId, ...entry });

/**
 * The audit entries of comment moderation, written in the move's transaction (an action that fails
 * leaves no entry): hiding, approving or restoring, deleting from the moderation queue and
 * dismissing reports. A reader's own delete, or an admin's in a thread, has none (as before).
 */
@Injectable()
export class CommentAuditSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly audit: AuditWriter,
  ) {}

  onModuleInit(): void {
    this.events.onRecorded('comment.hidden', (event, manager) => this.hidden(event, manager));
    this.events.onRecorded(['comment.approved', 'comment.restored'], (event, manager) => this.visibleAgain(event, manager));
    this.events.onRecorded('comment.deleted', (event, manager) => this.deleted(event, manager));
    this.events.onRecorded('comment.reports_dismissed', (event, manager) => this.reportsDismissed(event, manager));
  }

  private hidden(event: DomainEvent<'comment.hidden'>, manager: EntityManager): Promise<void> {
    const { data } = event;
    return this.audit.record(
      manager,
      aboutComment(event, AuditType.COMMENT_HIDDEN, {
        title: 'Comment hidden',
        description: `A comment on '${data.postSlug}' was hidden by ${data.by === 'ADMIN' ? 'an admin' : "the post's author"}: ${excerpt(data.reason)}`,
        link: AuditLinks.comment(data.commentId),
        details: { postId: data.postId, reason: data.reason, by: data.by, before: data.previousVisibility },
      }),
    );
  }

  private visibleAgain(event: DomainEvent<'comment.approved' | 'comment.restored'>, manager: EntityManager): Promise<void> {
    const { name, data } = event;
    const wasHeld = name === 'comment.approved';
    return this.audit.record(
      manager,
      aboutComment(event, AuditType.COMMENT_RESTORED, {
        title: wasHeld ? 'Held comment approved' : 'Comment restored',
        description: `A ${wasHeld ? 'held' : 'hidden'} comment on '${data.postSlug}' is visible again`,
        link: AuditLinks.comment(data.commentId),
        details: { postId: data.postId, before: wasHeld ? 'HELD' : 'HIDDEN' },
      }),
    );
  }

  private async deleted(event: DomainEvent<'comment.deleted'>, manager: EntityManager): Promise<void> {
    const { data } = event;
    if (data.via !== 'moderation-queue') return;
    const content = data.content ?? '';
    await this.audit.record(
      manager,
      aboutComment(event, AuditType.COMMENT_DELETED, {
        title: 'Comment deleted',
        description: `A comment was deleted from the moderation queue: ${excerpt(content)}`,
        link: null,
        details: { postId: data.postId, authorId: data.authorId, moderation: data.previousVisibility, content },
      }),
    );
  }

  private reportsDismissed(event: DomainEvent<'comment.reports_dismissed'>, manager: EntityManager): Promise<void> {
    const { data } = event;
    return this.audit.record(
      manager,
      aboutComment(event, AuditType.COMMENT_REPORTS_DISMISSED, {
        title: 'Comment reports dismissed',
        description: `${countNoun(data.dismissed, englishNoun('report'))} of a comment on '${data.postSlug}' dismissed`,
        link: AuditLinks.comment(data.commentId),
        details: { postId: data.postId, dismissed: data.dismissed },
      }),
    );
  }
}
