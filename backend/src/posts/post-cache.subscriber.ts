import { Injectable } from '@nestjs/common';
import { ContentEvents } from '../common/content-events';
import { DomainEvent, DomainEventName } from '../events/domain-events';
import { DomainEvents } from '../events/domain-events.service';
import { PostStatus } from './entities/post.entity';
import { PostsRepository } from './posts.repository';

type PostSide = { status: string; slug: string } | null;

/** The post events that change what a page or a back-office count shows. */
const CACHE_EVENTS = [
  'post.created',
  'post.updated',
  'post.deleted',
  'post.published',
  'post.unpublished',
  'post.status_changed',
  'post.submitted',
  'post.scheduled',
  'post.rejected',
] as const satisfies readonly DomainEventName[];

/**
 * After a post's change commits, before the answer: every cache drops what shows the post
 * (docs/architecture.md#cache-invalidation). Public pages show it (or did before the change): a `post` notice; otherwise only
 * the back office's post counts and lists show it (per status, per search of titles and
 * summaries): an `unpublished-post` notice for every change of it. A post becoming
 * public also names its earlier slugs: their pages, kept as 404s, now redirect.
 */
@Injectable()
export class PostCacheSubscriber {
  constructor(
    events: DomainEvents,
    private readonly contentEvents: ContentEvents,
    private readonly repository: PostsRepository,
  ) {
    events.onCommitted(CACHE_EVENTS, (event) => this.changed(event));
  }

  private async changed(event: DomainEvent<(typeof CACHE_EVENTS)[number]>): Promise<void> {
    const { data } = event;
    // A save's (or an imported post's) status move is told by its post.created or post.updated (one notice per save).
    if (
      (event.name === 'post.published' || event.name === 'post.unpublished' || event.name === 'post.status_changed') &&
      (event.data.via === 'update' || event.data.via === 'import')
    )
      return;
    const after: PostSide = event.name === 'post.deleted' ? null : { status: data.status, slug: data.slug };
    const before: PostSide =
      event.name === 'post.created'
        ? null
        : event.name === 'post.deleted'
          ? { status: data.status, slug: data.slug }
          : {
              status: 'previousStatus' in event.data && event.data.previousStatus ? event.data.previousStatus : data.status,
              slug: event.name === 'post.updated' ? event.data.previousSlug : data.slug,
            };
    await this.notify(data.postId, before, after);
  }

  private async notify(id: number, before: PostSide, after: PostSide): Promise<void> {
    const visible = [before, after].some((state) => state?.status === PostStatus.PUBLISHED);
    if (!visible) return this.contentEvents.changed({ kind: 'unpublished-post', postId: id });
    const earlier =
      after?.status === PostStatus.PUBLISHED && before?.status !== PostStatus.PUBLISHED ? await this.repository.earlierSlugs(id) : [];
    await this.contentEvents.changed({
      kind: 'post',
      postId: id,
      slugs: [...new Set([before?.slug, after?.slug, ...earlier].filter((s): s is string => !!s))],
    });
  }
}
