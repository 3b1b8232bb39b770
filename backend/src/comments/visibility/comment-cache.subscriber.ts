import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContentEvents } from '../../common/content-events';
import type { CommentFacts } from '../../events/domain-events';
import { DomainEvents } from '../../events/domain-events.service';

/**
 * After the commit, before the answer: every cache drops what a comment's move made stale (this
 * instance synchronously, so the writer's next read shows it). A move that may change the post's
 * comment count (or hides, approves, restores or deletes) drops what shows the count
 * ('post-counters'); a write that changes no count drops only what shows the post's first
 * comments ('post-comments'): a held comment, an edit.
 */
@Injectable()
export class CommentCacheSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly contentEvents: ContentEvents,
  ) {}

  onModuleInit(): void {
    this.events.onCommitted('comment.created', (event) =>
      event.data.visibility === 'VISIBLE' ? this.counters(event.data) : this.comments(event.data),
    );
    this.events.onCommitted('comment.updated', (event) => (event.data.holdReason ? this.counters(event.data) : this.comments(event.data)));
    this.events.onCommitted(['comment.approved', 'comment.restored', 'comment.hidden', 'comment.deleted'], (event) =>
      this.counters(event.data),
    );
  }

  private counters(comment: CommentFacts): Promise<void> {
    return this.contentEvents.changed({ kind: 'post-counters', postId: comment.postId, slug: comment.postSlug, counter: 'comments' });
  }

  private comments(comment: CommentFacts): Promise<void> {
    return this.contentEvents.changed({ kind: 'post-comments', postId: comment.postId, slug: comment.postSlug });
  }
}
