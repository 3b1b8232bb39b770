import { Injectable } from '@nestjs/common';
import { ContentEvents } from '../common/content-events';
import { DomainEvents } from '../events/domain-events.service';

/**
 * After a tag change commits, before the answer: every instance drops what shows the tag
 * (ContentEvents kind 'tag', with the old slug too when it moved). A new tag shows nowhere until
 * a post carries it (the post's own change announces that), so creating one drops nothing.
 */
@Injectable()
export class TagCacheSubscriber {
  constructor(events: DomainEvents, contentEvents: ContentEvents) {
    events.onCommitted('tag.updated', ({ data }) =>
      contentEvents.changed({
        kind: 'tag',
        tagId: data.tagId,
        slugs: data.previousSlug !== data.slug ? [data.previousSlug, data.slug] : [data.slug],
      }),
    );
    events.onCommitted(['tag.activated', 'tag.deactivated', 'tag.deleted'], ({ data }) =>
      contentEvents.changed({ kind: 'tag', tagId: data.tagId, slugs: [data.slug] }),
    );
  }
}
