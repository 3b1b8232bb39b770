import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { AuditLinks, AuditType } from '../audit/audit.types';
import type { AuthUser } from '../auth/auth-user';
import { CLOCK, Clock } from '../common/clock';
import { siteTimeFormatter } from '../common/site-time';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PostResponseDto } from '../posts/dto/post-response.dto';
import { Post, PostStatus } from '../posts/entities/post.entity';
import { PostsService } from '../posts/posts.service';
import { parsePublishTime } from './publish-time';
import { SchedulingMessages } from './scheduling.messages';

/** Due posts read at once by a sweep (a backlog after downtime is read again until it is done). */
const DUE_BATCH = 500;

/** A post the scheduler published: its id and slug (for the caches). */
export interface PublishedBySchedule {
  id: number;
  slug: string;
}

/**
 * Scheduled publishing (issue 20). A scheduled post is an approved post waiting for its time: it
 * stays PENDING_REVIEW (never public before the time) with `scheduled_at`; the sweep makes it
 * PUBLISHED with published_at = scheduled_at. Admins reschedule or cancel; each change is audited.
 */
@Injectable()
export class SchedulingService {
  /** Times in audit descriptions as the pages show them (the site's zone, named). */
  private readonly siteTime: (date: Date) => string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly posts: PostsService,
    private readonly audit: AuditService,
  ) {
    this.siteTime = siteTimeFormatter(config.siteTimeZone);
  }

  /** A publish time sent to the API, checked against the clock (400 naming `field`). */
  publishTime(text: string, field = 'publishAt', label: string = SchedulingMessages.PUBLISH_AT_LABEL): Date {
    return parsePublishTime(text, this.clock.now(), field, label);
  }

  /** Moves a scheduled post's time (409 when it is not scheduled). */
  async reschedule(postId: number, publishAtText: string, admin: AuthUser): Promise<PostResponseDto> {
    const publishAt = this.publishTime(publishAtText);
    await this.dataSource.transaction(async (manager) => {
      const post = await this.lockScheduled(manager, postId);
      await manager.update(Post, { id: postId }, { scheduledAt: publishAt, scheduledBy: admin.id });
      await this.audit.record(manager, {
        type: AuditType.POST_RESCHEDULED,
        actorId: admin.id,
        targetType: 'post',
        targetId: postId,
        title: 'Post rescheduled',
        description: `"${post.title}" will be published at ${this.siteTime(publishAt)} instead of ${this.siteTime(post.scheduledAt!)}`,
        link: AuditLinks.adminPost(postId),
        details: { from: post.scheduledAt!.toISOString(), to: publishAt.toISOString() },
      });
    });
    return this.posts.toResponse(await this.posts.findOrFail(postId));
  }

  /** Cancels a schedule: the post stays PENDING_REVIEW, back in the review queue (409 when it is not scheduled). */
  async cancel(postId: number, admin: AuthUser): Promise<PostResponseDto> {
    await this.dataSource.transaction(async (manager) => {
      const post = await this.lockScheduled(manager, postId);
      await manager.update(Post, { id: postId }, { scheduledAt: null, scheduledBy: null });
      await this.audit.record(manager, {
        type: AuditType.POST_SCHEDULE_CANCELLED,
        actorId: admin.id,
        targetType: 'post',
        targetId: postId,
        title: 'Post schedule cancelled',
        description: `"${post.title}" will not be published at ${this.siteTime(post.scheduledAt!)}; it is back in the review queue`,
        link: AuditLinks.adminPost(postId),
        details: { scheduledAt: post.scheduledAt!.toISOString(), via: 'cancel' },
      });
    });
    return this.posts.toResponse(await this.posts.findOrFail(postId));
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
   * Publishes one due post in a transaction of its own: one conditional UPDATE (it takes the row's
   * lock and checks the post is still scheduled and due under it, so a post cancelled, rejected or
   * published meanwhile, or by another instance, is left alone: each post is published once), the
   * audit entry, then, after the commit, every instance's caches, feeds, sitemap and search drop
   * what the publication changes. Undefined when there was nothing to publish.
   */
  async publishIfDue(postId: number): Promise<PublishedBySchedule | undefined> {
    const published = await this.dataSource.transaction(async (manager) => {
      const [rows] = (await manager.query(
        `WITH locked AS (SELECT id, scheduled_by FROM posts WHERE id = $1 FOR UPDATE)
         UPDATE posts p SET status = 'PUBLISHED', published_at = p.scheduled_at, scheduled_at = NULL, requested_publish_at = NULL, scheduled_by = NULL, updated_at = now()
           FROM locked
          WHERE p.id = locked.id AND p.status = 'PENDING_REVIEW' AND p.scheduled_at IS NOT NULL AND p.scheduled_at <= $2
          RETURNING p.id, p.slug, p.title, p.published_at, locked.scheduled_by`,
        [postId, this.clock.now()],
      )) as [{ id: number; slug: string; title: string; published_at: Date; scheduled_by: number | null }[], number];
      const post = rows[0];
      if (!post) return undefined;
      await this.audit.record(manager, {
        type: AuditType.POST_PUBLISHED,
        actorId: null,
        targetType: 'post',
        targetId: post.id,
        title: 'Post published',
        description: `"${post.title}" was published at its scheduled time`,
        link: AuditLinks.publicPost(post.slug),
        details: { from: PostStatus.PENDING_REVIEW, via: 'schedule', scheduledAt: post.published_at.toISOString(), scheduledBy: post.scheduled_by },
      });
      return { id: post.id, slug: post.slug };
    });
    if (published) await this.posts.notifyChanged(published.id, { status: PostStatus.PENDING_REVIEW, slug: published.slug }, { status: PostStatus.PUBLISHED, slug: published.slug });
    return published;
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

  /** Locks the post's row; 404 when it does not exist, 409 when it is not an approved post waiting for its time. */
  private async lockScheduled(manager: EntityManager, postId: number) {
    const post = await this.posts.lockForUpdate(manager, postId);
    if (post.status !== PostStatus.PENDING_REVIEW || !post.scheduledAt) throw new ConflictException(SchedulingMessages.NOT_SCHEDULED);
    return post;
  }
}
