import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { countedComment } from '../comments/visibility/counted-comment';

export interface ActivityRow {
  type: 'LIKE' | 'COMMENT';
  post_id: number;
  title: string;
  slug: string;
  /** Epoch milliseconds. */
  at: number;
}

export interface ReaderDashboardRow {
  join_date: Date;
  display_name: string;
  total_likes: number;
  total_comments: number;
  total_posts_commented: number;
  /** The last days' activity, newest first. */
  recent: ActivityRow[];
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

export interface AuthorTotalsRow {
  total_posts: number;
  my_posts: number;
  published_posts: number;
  my_drafts: number;
  total_tags: number;
}

export const AUTHOR_EVENT_TYPES = ['POST_CREATED', 'POST_SUBMITTED', 'POST_PUBLISHED', 'POST_REJECTED'] as const;
export type AuthorEventType = (typeof AUTHOR_EVENT_TYPES)[number];

export interface AuthorEventRow {
  type: AuthorEventType;
  post_id: number;
  title: string;
  slug: string;
  /** The post's status now (decides the entry's link). */
  status: string;
  at: Date;
  /** A rejection's reason. */
  reason: string | null;
  /** A submitted post approved with a publish time: when it will be published. */
  scheduled_at: Date | null;
}

export interface ActivityDayRow {
  date: string;
  users: number;
  posts: number;
  comments: number;
  likes: number;
}

/** 00:00 UTC of the current day ("today" of the quick stats, the same on every server). */
const TODAY = `(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/**
 * The dashboards' aggregates in SQL, by name: each answer is one round trip, read through the
 * indexes of its rows (reader_like_counts, IDX_comments_user_counted, IDX_likes_user_created,
 * IDX_comments_user_created for a reader;
 * IDX_likes_created, IDX_comments_live_created, IDX_users_created_at, IDX_posts_status_published
 * for today's figures).
 */
@Injectable()
export class DashboardsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A reader's dashboard in one round trip: totals (likes of published posts, from the count the
   * like writes and the post lifecycle keep; comments not deleted and VISIBLE, and the posts they
   * are on, from IDX_comments_user_counted alone) and the activity since `since` (likes of
   * published posts and counted comments, newest first, at most `limit`; times in epoch ms).
   */
  async readerDashboard(userId: number, since: Date, limit: number): Promise<ReaderDashboardRow | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT u.created_at AS join_date, u.full_name AS display_name,
              COALESCE((SELECT r.published_likes FROM reader_like_counts r WHERE r.user_id = u.id), 0) AS total_likes,
              c.total_comments, c.total_posts_commented,
              (SELECT COALESCE(json_agg(json_build_object('type', a.type, 'post_id', a.post_id, 'title', a.title, 'slug', a.slug,
                                                          'at', floor(extract(epoch FROM a.at) * 1000)) ORDER BY a.at DESC), '[]')
                 FROM ((SELECT 'LIKE' AS type, l.post_id, p.title, p.slug, l.created_at AS at
                          FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED'
                         WHERE l.user_id = u.id AND l.created_at >= $2
                         ORDER BY l.created_at DESC, l.id DESC LIMIT $3)
                       UNION ALL
                       (SELECT 'COMMENT' AS type, c.post_id, p.title, p.slug, c.created_at AS at
                          FROM comments c JOIN posts p ON p.id = c.post_id
                         WHERE c.user_id = u.id AND c.created_at >= $2 AND ${countedComment('c')}
                         ORDER BY c.created_at DESC, c.id DESC LIMIT $3)
                       ORDER BY at DESC LIMIT $3) a) AS recent
         FROM users u
        CROSS JOIN LATERAL (SELECT count(*)::int AS total_comments, count(DISTINCT post_id)::int AS total_posts_commented
                              FROM comments WHERE user_id = u.id AND ${countedComment()}) c
        WHERE u.id = $1`,
      [userId, since, limit],
    )) as ReaderDashboardRow[];
    return rows[0];
  }

  /** Site totals and today's figures (published posts only). */
  async quickStats(): Promise<QuickStatsRow> {
    const [row] = (await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM users) AS total_users,
              (SELECT count(*)::int FROM posts WHERE status = 'PUBLISHED') AS total_posts,
              (SELECT count(*)::int FROM comments c JOIN posts p ON p.id = c.post_id AND p.status = 'PUBLISHED' WHERE ${countedComment('c')}) AS total_comments,
              (SELECT count(*)::int FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED') AS total_likes,
              (SELECT count(*)::int FROM users WHERE created_at >= ${TODAY}) AS new_users,
              (SELECT count(*)::int FROM posts WHERE status = 'PUBLISHED' AND published_at >= ${TODAY}) AS new_posts,
              (SELECT count(*)::int FROM comments c JOIN posts p ON p.id = c.post_id AND p.status = 'PUBLISHED'
                WHERE ${countedComment('c')} AND c.created_at >= ${TODAY}) AS new_comments,
              (SELECT count(*)::int FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED' WHERE l.created_at >= ${TODAY}) AS new_likes`,
    )) as QuickStatsRow[];
    return row;
  }

  /** Every post, the author's posts by status, and the active tags. */
  async authorTotals(authorId: number): Promise<AuthorTotalsRow> {
    const [row] = (await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM posts) AS total_posts,
              count(*)::int AS my_posts,
              (count(*) FILTER (WHERE status = 'PUBLISHED'))::int AS published_posts,
              (count(*) FILTER (WHERE status = 'DRAFT'))::int AS my_drafts,
              (SELECT count(*)::int FROM tags WHERE is_active) AS total_tags
         FROM posts WHERE author_id = $1`,
      [authorId],
    )) as AuthorTotalsRow[];
    return row;
  }

  /**
   * The newest `limit` events on the author's posts, newest first: each post's creation, its
   * publication (published_at), its waiting for review (posts now PENDING_REVIEW, at updated_at:
   * the submission is the last change an author can make to them) and every rejecting review.
   * Each branch reads at most `limit` rows; ties keep a fixed order (created before submitted
   * before the decision).
   */
  authorEvents(authorId: number, limit: number): Promise<AuthorEventRow[]> {
    return this.dataSource.query(
      `SELECT type, post_id, title, slug, status, at, reason, scheduled_at FROM (
         (SELECT 'POST_CREATED' AS type, 0 AS rank, p.id AS post_id, p.title, p.slug, p.status, p.created_at AS at, NULL::varchar AS reason, NULL::timestamptz AS scheduled_at
            FROM posts p WHERE p.author_id = $1 ORDER BY p.created_at DESC, p.id DESC LIMIT $2)
         UNION ALL
         (SELECT 'POST_SUBMITTED', 1, p.id, p.title, p.slug, p.status, p.updated_at, NULL, p.scheduled_at
            FROM posts p WHERE p.author_id = $1 AND p.status = 'PENDING_REVIEW' ORDER BY p.updated_at DESC, p.id DESC LIMIT $2)
         UNION ALL
         (SELECT 'POST_PUBLISHED', 2, p.id, p.title, p.slug, p.status, p.published_at, NULL, NULL
            FROM posts p WHERE p.author_id = $1 AND p.published_at IS NOT NULL ORDER BY p.published_at DESC, p.id DESC LIMIT $2)
         UNION ALL
         (SELECT 'POST_REJECTED', 2, p.id, p.title, p.slug, p.status, r.created_at, r.rejection_reason, NULL
            FROM post_reviews r JOIN posts p ON p.id = r.post_id
           WHERE p.author_id = $1 AND r.status = 'REJECTED' ORDER BY r.created_at DESC, r.id DESC LIMIT $2)
       ) events
       ORDER BY at DESC, rank DESC, post_id DESC LIMIT $2`,
      [authorId, limit],
    ) as Promise<AuthorEventRow[]>;
  }

  /**
   * New users, posts (created, any status), comments (not deleted) and likes per UTC day over the
   * last `days` days, today included, oldest first, zeros for quiet days: one grouped count per
   * table over its created_at index (IDX_users_created_at, IDX_posts_created,
   * IDX_comments_live_created, IDX_likes_created), joined to generate_series.
   */
  activityByDay(days: number): Promise<ActivityDayRow[]> {
    return this.dataSource.query(
      `WITH span AS (SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AS last_day,
                            date_trunc('day', now() AT TIME ZONE 'UTC') - ($1::int - 1) * interval '1 day' AS first_day),
            since AS (SELECT first_day AT TIME ZONE 'UTC' AS at FROM span),
            u AS (SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*)::int AS n
                    FROM users WHERE created_at >= (SELECT at FROM since) GROUP BY 1),
            p AS (SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*)::int AS n
                    FROM posts WHERE created_at >= (SELECT at FROM since) GROUP BY 1),
            c AS (SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*)::int AS n
                    FROM comments WHERE created_at >= (SELECT at FROM since) AND ${countedComment()} GROUP BY 1),
            l AS (SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*)::int AS n
                    FROM likes WHERE created_at >= (SELECT at FROM since) GROUP BY 1)
       SELECT to_char(d.day, 'YYYY-MM-DD') AS date, coalesce(u.n, 0) AS users, coalesce(p.n, 0) AS posts,
              coalesce(c.n, 0) AS comments, coalesce(l.n, 0) AS likes
         FROM span CROSS JOIN LATERAL generate_series(span.first_day, span.last_day, interval '1 day') AS d(day)
         LEFT JOIN u ON u.day = d.day LEFT JOIN p ON p.day = d.day LEFT JOIN c ON c.day = d.day LEFT JOIN l ON l.day = d.day
        ORDER BY d.day`,
      [days],
    ) as Promise<ActivityDayRow[]>;
  }
}
