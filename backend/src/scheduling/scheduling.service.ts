import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { CLOCK, Clock } from '../common/clock';
import { PostResponseDto } from '../posts/dto/post-response.dto';
import { LifecycleMessages } from '../posts/lifecycle/lifecycle.messages';
import { PostLifecycle } from '../posts/lifecycle/post-lifecycle.service';
import { parsePublishTime } from '../posts/lifecycle/publish-time';
import { PostsService } from '../posts/posts.service';

/** Due posts read at once by a sweep (a backlog after downtime is read again until it is done). */
const DUE_BATCH = 500;

/** A post the scheduler published: its id and slug (for the caches). */
export interface PublishedBySchedule {
  id: number;
  slug: string;
}

/**
 * Scheduled publishing. A scheduled post is an approved post waiting for its time: it
 * stays PENDING_REVIEW (never public before the time) with `scheduled_at`; the sweep makes it
 * PUBLISHED with published_at = scheduled_at. Admins reschedule or cancel; each change is audited.
 */
@Injectable()
export class SchedulingService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly posts: PostsService,
    private readonly lifecycle: PostLifecycle,
  ) {}

  /** A publish time sent to the API, checked against the clock (400 naming `field`). */
  publishTime(text: string, field = 'publishAt', label: string = LifecycleMessages.PUBLISH_AT_LABEL): Date {
    return parsePublishTime(text, this.clock.now(), field, label);
  }

  /** Moves a scheduled post's time (409 when it is not scheduled). */
  async reschedule(postId: number, publishAtText: string, admin: AuthUser): Promise<PostResponseDto> {
    const publishAt = this.publishTime(publishAtText);
    await this.lifecycle.apply(postId, { type: 'reschedule' }, { kind: 'admin', user: admin }, { publishAt });
    return this.posts.toResponse(await this.posts.findOrFail(postId), admin);
  }

  /** Cancels a schedule: the post stays PENDING_REVIEW, back in the review queue (409 when it is not scheduled). */
  async cancel(postId: number, admin: AuthUser): Promise<PostResponseDto> {
    await this.lifecycle.apply(postId, { type: 'cancelSchedule' }, { kind: 'admin', user: admin });
    return this.posts.toResponse(await this.posts.findOrFail(postId), admin);
  }

  /** The ids of the posts due at the clock's now, the earliest first (the partial index IDX_posts_scheduled_due). */
  async duePostIds(limit = DUE_BATCH): Promise<number[]> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM posts WHERE status = 'PENDING_REVIEW' AND scheduled_at IS NOT NULL AND scheduled_at <= $1 ORDER BY scheduled_at, id LIMIT $2`,
      [this.clock.now(), limit],
    )) as { id: number }[];
    return rows.map((row) => row.id);
  }

  /**
   * Publishes one due post in a transaction of its own, through the post lifecycle: it locks the
   * row and checks the post is still scheduled and due under the lock (a post cancelled, rejected or
   * published meanwhile, or by another instance, is left alone: each post is published once), bumps
   * its version (an editor opened before now gets 409 on save) and pins the published revision;
   * the audit entry and every instance's caches, feeds, sitemap and search follow its event.
   * Undefined when there was nothing to publish.
   */
  async publishIfDue(postId: number): Promise<PublishedBySchedule | undefined> {
    const published = await this.lifecycle.apply(postId, { type: 'publishDue' }, { kind: 'system', user: null });
    return published && { id: published.id, slug: published.slug };
  }

  /** Publishes every post due now, one at a time; returns what it published. */
  async publishDue(): Promise<PublishedBySchedule[]> {
    const published: PublishedBySchedule[] = [];
    for (;;) {
      const ids = await this.duePostIds();
      let progressed = false;
      for (const id of ids) {
        const post = await this.publishIfDue(id);
        if (post) {
          published.push(post);
          progressed = true;
        }
      }
      // Another batch only when this one was full and published something (a backlog after downtime).
      if (ids.length < DUE_BATCH || !progressed) return published;
    }
  }
}
