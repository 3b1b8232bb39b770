import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditReader } from '../audit/audit-reader';
import type { AuthUser } from '../auth/auth-user';
import { ContentEvents } from '../common/content-events';
import { MicroCache } from '../common/micro-cache';
import { toActivity } from './admin-user.mapper';
import { AdminStatsDto } from './dto/admin-user-response.dto';

interface TotalsRow {
  total_users: number;
  active_users: number;
  pending_users: number;
  inactive_users: number;
  banned_users: number;
  total_posts: number;
  published_posts: number;
  total_views: number;
  total_likes: number;
  total_comments: number;
}

interface LiveRow {
  my_posts: number;
  my_drafts: number;
  total_tags: number;
}

/** Number of audit entries the dashboard's Recent Activity shows. */
export const RECENT_ACTIVITY_LIMIT = 10;
/** How long the site-wide totals are reused (dropped at once on every content or user notice). */
export const ADMIN_STATS_TTL_MS = 5_000;

/**
 * The admin dashboard's numbers, all real: user counts by status (one pass over users), post
 * counts and the engagement counters kept on the posts (views, likes, live comments: one pass
 * over posts), held 5 s for every administrator and dropped on every ContentEvents notice
 * but a tag's (published posts, likes, comments, users; from this instance or, through the Redis relay,
 * another). Read live: the caller's own posts and drafts (IDX_posts_author_status_created), the
 * tags (a few rows; a new tag sends no notice) and the latest audit entries (newest
 * first on the audit index), so an action shows in Recent Activity at once.
 */
@Injectable()
export class AdminStatsService implements OnModuleDestroy {
  private readonly totals = new MicroCache<TotalsRow>(ADMIN_STATS_TTL_MS, 1);
  private readonly stopListening: () => void;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditReader,
    contentEvents: ContentEvents,
  ) {
    // Users by status, posts, likes and comments: every change but a tag's (the tag count is read live).
    this.stopListening = contentEvents.onChange((change) => {
      if (change.kind !== 'tag') this.totals.clear();
    });
  }

  onModuleDestroy(): void {
    this.stopListening();
  }

  async stats(actor: AuthUser): Promise<AdminStatsDto> {
    const [row, [live], activities] = await Promise.all([
      this.totals.remember('all', () => this.readTotals()),
      this.dataSource.query(
        `SELECT count(*)::int AS my_posts, count(*) FILTER (WHERE status = 'DRAFT')::int AS my_drafts, (SELECT count(*)::int FROM tags) AS total_tags
           FROM posts WHERE author_id = $1`,
        [actor.id],
      ) as Promise<LiveRow[]>,
      this.audit.recent(RECENT_ACTIVITY_LIMIT),
    ]);
    return {
      totalUsers: row.total_users,
      totalPosts: row.total_posts,
      totalTags: live.total_tags,
      activeUsers: row.active_users,
      pendingUsers: row.pending_users,
      bannedUsers: row.banned_users,
      inactiveUsers: row.inactive_users,
      publishedPosts: row.published_posts,
      myPosts: live.my_posts,
      myDrafts: live.my_drafts,
      totalViews: row.total_views,
      totalLikes: row.total_likes,
      totalComments: row.total_comments,
      recentActivities: activities.map(toActivity),
      lastUpdated: new Date().toISOString(),
    };
  }

  private async readTotals(): Promise<TotalsRow> {
    const rows = (await this.dataSource.query(
      `SELECT u.*, p.*
         FROM (SELECT count(*)::int AS total_users,
                      count(*) FILTER (WHERE status = 'ACTIVE')::int AS active_users,
                      count(*) FILTER (WHERE status = 'PENDING')::int AS pending_users,
                      count(*) FILTER (WHERE status = 'INACTIVE')::int AS inactive_users,
                      count(*) FILTER (WHERE status = 'BANNED')::int AS banned_users
                 FROM users) u,
              (SELECT count(*)::int AS total_posts,
                      count(*) FILTER (WHERE status = 'PUBLISHED')::int AS published_posts,
                      coalesce(sum(view_count), 0)::float8 AS total_views,
                      coalesce(sum(like_count), 0)::float8 AS total_likes,
                      coalesce(sum(comment_count), 0)::float8 AS total_comments
                 FROM posts) p`,
    )) as TotalsRow[];
    return rows[0];
  }
}
