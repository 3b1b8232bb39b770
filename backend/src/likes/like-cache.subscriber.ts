import { Injectable } from '@nestjs/common';
import { ContentEvents } from '../common/content-events';
import { DomainEvents } from '../events/domain-events.service';

/**
 * After a like or an unlike commits, before the answer: every cache drops what shows the post's
 * like count (ContentEvents `post-counters`); this instance drops the post's held answers
 * synchronously, so the liker's next read shows the new count.
 */
@Injectable()
export class LikeCacheSubscriber {
  constructor(events: DomainEvents, contentEvents: ContentEvents) {
    events.onCommitted(['post.liked', 'post.unliked'], ({ data }) =>
      contentEvents.changed({ kind: 'post-counters', postId: data.postId, slug: data.slug, counter: 'likes' }),
    );
  }
}
