import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import type { AuthUser } from '../common/auth-user';
import { toActivity } from './admin-user.mapper';
import { AdminStatsDto } from './dto/admin-user-response.dto';

interface StatsRow {
  total_users: number;
  active_users: number;
  pending_users: number;
  inactive_users: number;
  banned_users: number;
  total_posts: number;
  published_posts: number;
  my_posts: number;
  my_drafts: number;
  total_views: number;
  total_likes: number;
  total_comments: number;
  total_tags: number;
}

/** Number of audit entries the dashboard's Recent Activity shows. */
export const RECENT_ACTIVITY_LIMIT = 10;

/**
 * The admin dashboard's numbers, all real: user counts by status (one pass over users), post
 * counts and the engagement counters kept on the posts (views, likes, live comments: one pass
 * over posts), tags, and the latest audit entries.
 */
@Injectable()
export class AdminStatsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  async stats(actor: AuthUser): Promise<AdminStatsDto> {
    const [rows, activities] = await Promise.all([
      this.dataSource.query(
        `SELECT u.*, p.*, (SELECT count(*)::int FROM tags) AS total_tags
           FROM (SELECT count(*)::int AS total_users,
                        count(*) FILTER (WHERE status = 'ACTIVE')::int AS active_users,
                        count(*) FILTER (WHERE status = 'PENDING')::int AS pending_users,
                        count(*) FILTER (WHERE status = 'INACTIVE')::int AS inactive_users,
                        count(*) FILTER (WHERE status = 'BANNED')::int AS banned_users
                   FROM users) u,
                (SELECT count(*)::int AS total_posts,
                        count(*) FILTER (WHERE status = 'PUBLISHED')::int AS published_posts,
                        count(*) FILTER (WHERE author_id = $1)::int AS my_posts,
                        count(*) FILTER (WHERE author_id = $1 AND status = 'DRAFT')::int AS my_drafts,
                        coalesce(sum(view_count), 0)::float8 AS total_views,
                        coalesce(sum(like_count), 0)::float8 AS total_likes,
                        coalesce(sum(comment_count), 0)::float8 AS total_comments
                   FROM posts) p`,
        [actor.id],
      ) as Promise<StatsRow[]>,
      this.audit.recent(RECENT_ACTIVITY_LIMIT),
    ]);
    const row = rows[0];
    return {
      totalUsers: row.total_users,
      totalPosts: row.total_posts,
      totalTags: row.total_tags,
      activeUsers: row.active_users,
      pendingUsers: row.pending_users,
      bannedUsers: row.banned_users,
      inactiveUsers: row.inactive_users,
      publishedPosts: row.published_posts,
      myPosts: row.my_posts,
      myDrafts: row.my_drafts,
      totalViews: row.total_views,
      totalLikes: row.total_likes,
      totalComments: row.total_comments,
      recentActivities: activities.map(toActivity),
      lastUpdated: new Date().toISOString(),
    };
  }
}
