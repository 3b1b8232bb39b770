import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface ReaderTotalsRow {
  join_date: Date;
  display_name: string;
  total_likes: number;
  total_comments: number;
  total_posts_commented: number;
}

export interface ActivityRow {
  type: 'LIKE' | 'COMMENT';
  post_id: number;
  title: string;
  slug: string;
  at: Date;
}

export interface QuickStatsRow {
  total_users: number;
  total_posts: number;
  total_comments: number;
  total_likes: number;
  new_users: number;
  new_posts: number;
  new_comments: number;
  new_likes: number;
}

/** 00:00 UTC of the current day ("today" of the quick stats, the same on every server). */
const TODAY = `(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/**
 * The dashboards' aggregates in SQL, by name: each answer is one round trip, read through the
 * indexes of its rows (IDX_likes_user_created, IDX_comments_user_created for a reader;
 * IDX_likes_created, IDX_comments_live_created, IDX_users_created_at, IDX_posts_status_published
 * for today's figures).
 */
@Injectable()
export class DashboardsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A reader's totals: likes of published posts; comments not deleted, and the posts they are on. */
  async readerTotals(userId: number): Promise<ReaderTotalsRow | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT u.created_at AS join_date, u.full_name AS display_name,
              (SELECT count(*)::int FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED' WHERE l.user_id = u.id) AS total_likes,
              c.total_comments, c.total_posts_commented
         FROM users u
        CROSS JOIN LATERAL (SELECT count(*)::int AS total_comments, count(DISTINCT post_id)::int AS total_posts_commented
                              FROM comments WHERE user_id = u.id AND deleted_at IS NULL) c
        WHERE u.id = $1`,
      [userId],
    )) as ReaderTotalsRow[];
    return rows[0];
  }

  /** The reader's likes (of published posts) and comments (not deleted) since `since`, newest first. */
  recentActivity(userId: number, since: Date, limit: number): Promise<ActivityRow[]> {
    return this.dataSource.query(
      `(SELECT 'LIKE' AS type, l.post_id, p.title, p.slug, l.created_at AS at
          FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED'
         WHERE l.user_id = $1 AND l.created_at >= $2
         ORDER BY l.created_at DESC, l.id DESC LIMIT $3)
       UNION ALL
       (SELECT 'COMMENT' AS type, c.post_id, p.title, p.slug, c.created_at AS at
          FROM comments c JOIN posts p ON p.id = c.post_id
         WHERE c.user_id = $1 AND c.created_at >= $2 AND c.deleted_at IS NULL
         ORDER BY c.created_at DESC, c.id DESC LIMIT $3)
       ORDER BY at DESC LIMIT $3`,
      [userId, since, limit],
    ) as Promise<ActivityRow[]>;
  }

  /** Site totals and today's figures (published posts only). */
  async quickStats(): Promise<QuickStatsRow> {
    const [row] = (await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM users) AS total_users,
              (SELECT count(*)::int FROM posts WHERE status = 'PUBLISHED') AS total_posts,
              (SELECT count(*)::int FROM comments c JOIN posts p ON p.id = c.post_id AND p.status = 'PUBLISHED' WHERE c.deleted_at IS NULL) AS total_comments,
              (SELECT count(*)::int FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED') AS total_likes,
              (SELECT count(*)::int FROM users WHERE created_at >= ${TODAY}) AS new_users,
              (SELECT count(*)::int FROM posts WHERE status = 'PUBLISHED' AND published_at >= ${TODAY}) AS new_posts,
              (SELECT count(*)::int FROM comments c JOIN posts p ON p.id = c.post_id AND p.status = 'PUBLISHED'
                WHERE c.deleted_at IS NULL AND c.created_at >= ${TODAY}) AS new_comments,
              (SELECT count(*)::int FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED' WHERE l.created_at >= ${TODAY}) AS new_likes`,
    )) as QuickStatsRow[];
    return row;
  }
}
