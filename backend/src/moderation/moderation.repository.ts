import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { toPage } from '../common/pagination/page';
import { containsPattern } from '../common/sql-patterns';
import { CommentsMessages } from '../comments/comments.messages';
import { CommentModeration, RemoteCommentAuthor } from '../comments/entities/comment.entity';
import { QueueFilter, QueueSort } from './dto/moderation-input.dto';
import { CommentReportDto, ModerationQueueItemDto, ModerationQueuePageDto } from './dto/moderation-response.dto';
import { ReportReason } from './entities/comment-report.entity';
import { activeMute, type ActiveMute } from '../users/active-mute';

interface QueueRow {
  id: number;
  content: string;
  moderation: CommentModeration;
  hidden_reason: string | null;
  hidden_at: Date | null;
  created_at: Date;
  report_count: number;
  author_id: number | null;
  author_name: string | null;
  author_email: string | null;
  hidden_by_id: number | null;
  hidden_by_name: string | null;
  post_id: number;
  post_slug: string;
  post_title: string;
  parent_id: number | null;
  parent_content: string | null;
  parent_deleted: boolean | null;
  parent_author_id: number | null;
  parent_author_name: string | null;
  remote_author: RemoteCommentAuthor | null;
}

interface ReportRow {
  comment_id: number;
  reason: ReportReason;
  details: string | null;
  reporter_id: number;
  reporter_name: string;
  created_at: Date;
}

const FILTER_WHERE: Record<QueueFilter, string> = {
  reported: 'c.report_count > 0',
  hidden: `c.moderation = 'HIDDEN'`,
  held: `c.moderation = 'HELD'`,
  all: 'TRUE',
};

/**
 * The moderation SQL. The queue picks a page of ids from an index that covers its order
 * (IDX_comments_reported for the most reported, IDX_comments_moderated_created for hidden and
 * held, IDX_comments_live_created for all), then loads those rows with their author, post,
 * parent and hider in one statement, and their open reports in a second: two queries per page.
 */
@Injectable()
export class ModerationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The reader's reports in the last `hours`, and the seconds until the oldest of them leaves that window. */
  async reportsSince(manager: EntityManager, reporterId: number, hours: number): Promise<{ count: number; oldestLeavesInSeconds: number }> {
    const [row] = (await manager.query(
      `SELECT count(*)::int AS n,
              GREATEST(1, CEIL(EXTRACT(EPOCH FROM (min(created_at) + make_interval(hours => $2) - now()))))::int AS wait
         FROM comment_reports WHERE reporter_id = $1 AND created_at > now() - make_interval(hours => $2)`,
      [reporterId, hours],
    )) as { n: number; wait: number | null }[];
    return { count: row.n, oldestLeavesInSeconds: row.wait ?? 1 };
  }

  /** The report row and the comment's open-report count, together; undefined when this reader has reported it already. */
  async insertReport(
    manager: EntityManager,
    commentId: number,
    reporterId: number,
    reason: ReportReason,
    details: string | null,
  ): Promise<{ id: number; createdAt: Date } | undefined> {
    const [row] = (await manager.query(
      `INSERT INTO comment_reports (comment_id, reporter_id, reason, details) VALUES ($1, $2, $3, $4)
       ON CONFLICT (comment_id, reporter_id) DO NOTHING RETURNING id, created_at`,
      [commentId, reporterId, reason, details],
    )) as { id: number; created_at: Date }[];
    if (!row) return undefined;
    await manager.query('UPDATE comments SET report_count = report_count + 1 WHERE id = $1', [commentId]);
    return { id: row.id, createdAt: row.created_at };
  }

  async reportCount(id: number): Promise<number> {
    const rows = (await this.dataSource.query('SELECT report_count FROM comments WHERE id = $1', [id])) as { report_count: number }[];
    return rows[0]?.report_count ?? 0;
  }

  async hiddenReason(id: number): Promise<string | null> {
    const rows = (await this.dataSource.query('SELECT hidden_reason FROM comments WHERE id = $1', [id])) as {
      hidden_reason: string | null;
    }[];
    return rows[0]?.hidden_reason ?? null;
  }

  /** The user's mute in force now, read outside any transaction. */
  activeMute(userId: number): Promise<ActiveMute | undefined> {
    return activeMute(this.dataSource.manager, userId);
  }

  /** Deletes a reporter's reports, lowering report_count by their open ones (comments locked in id order); answers how many went. */
  async withdrawReportsOf(manager: EntityManager, reporterId: number): Promise<number> {
    await manager.query(
      `WITH open AS (SELECT comment_id FROM comment_reports WHERE reporter_id = $1 AND dismissed_at IS NULL),
            locked AS (SELECT c.id FROM comments c WHERE c.id IN (SELECT comment_id FROM open) ORDER BY c.id FOR NO KEY UPDATE)
       UPDATE comments c SET report_count = GREATEST(c.report_count - 1, 0) FROM locked WHERE c.id = locked.id`,
      [reporterId],
    );
    const [, removed] = (await manager.query(`DELETE FROM comment_reports WHERE reporter_id = $1`, [reporterId])) as [unknown, number];
    return removed;
  }

  /** Marks the open reports dismissed; returns how many there were. */
  async dismissReports(manager: EntityManager, id: number): Promise<number> {
    const [, affected] = (await manager.query(
      `UPDATE comment_reports SET dismissed_at = now() WHERE comment_id = $1 AND dismissed_at IS NULL`,
      [id],
    )) as [unknown, number];
    await manager.query('UPDATE comments SET report_count = 0 WHERE id = $1', [id]);
    return affected;
  }

  async queue(
    filter: QueueFilter,
    sort: QueueSort,
    search: string | undefined,
    page: number,
    size: number,
  ): Promise<ModerationQueuePageDto> {
    const params: unknown[] = [];
    const clauses = ['c.deleted_at IS NULL', FILTER_WHERE[filter]];
    if (search !== undefined) {
      params.push(containsPattern(search));
      const n = params.length;
      clauses.push(
        `(c.content ILIKE $${n} OR EXISTS (SELECT 1 FROM users a WHERE a.id = c.user_id AND (a.full_name ILIKE $${n} OR a.email ILIKE $${n})))`,
      );
    }
    const where = clauses.join(' AND ');
    const order = sort === 'reports' ? 'c.report_count DESC, c.id DESC' : 'c.created_at DESC, c.id DESC';
    const n = params.length;
    const [rows, [count]] = await Promise.all([
      this.dataSource.query(
        `WITH page AS (SELECT c.id FROM comments c WHERE ${where} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2})
         SELECT c.id, c.content, c.moderation, c.hidden_reason, c.hidden_at, c.created_at, c.report_count, c.post_id, c.parent_id, c.remote_author,
                u.id AS author_id, u.full_name AS author_name, u.email AS author_email,
                h.id AS hidden_by_id, h.full_name AS hidden_by_name,
                p.slug AS post_slug, p.title AS post_title,
                pc.content AS parent_content, pc.deleted_at IS NOT NULL AS parent_deleted, pu.id AS parent_author_id, pu.full_name AS parent_author_name
           FROM page JOIN comments c ON c.id = page.id JOIN posts p ON p.id = c.post_id
           LEFT JOIN users u ON u.id = c.user_id LEFT JOIN users h ON h.id = c.hidden_by
           LEFT JOIN comments pc ON pc.id = c.parent_id LEFT JOIN users pu ON pu.id = pc.user_id
          ORDER BY ${order}`,
        [...params, size, page * size],
      ) as Promise<QueueRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM comments c WHERE ${where}`, params) as Promise<{ total: number }[]>,
    ]);
    const reports = await this.openReports(rows.map((row) => row.id));
    const content = rows.map((row): ModerationQueueItemDto => ({
      id: row.id,
      content: row.content,
      moderation: row.moderation,
      hiddenReason: row.hidden_reason,
      hiddenBy: row.hidden_by_id !== null ? { id: row.hidden_by_id, fullName: row.hidden_by_name ?? '' } : null,
      hiddenAt: row.hidden_at?.toISOString() ?? null,
      createdAt: row.created_at.toISOString(),
      author: row.author_id !== null ? { id: row.author_id, fullName: row.author_name ?? '', email: row.author_email ?? '' } : null,
      post: { id: row.post_id, slug: row.post_slug, title: row.post_title },
      parent:
        row.parent_id !== null
          ? {
              id: row.parent_id,
              content: row.parent_deleted ? CommentsMessages.DELETED_MARKER : (row.parent_content ?? ''),
              author:
                row.parent_author_id !== null && !row.parent_deleted
                  ? { id: row.parent_author_id, fullName: row.parent_author_name ?? '' }
                  : null,
            }
          : null,
      reportCount: row.report_count,
      reports: reports.get(row.id) ?? [],
      ...(row.remote_author
        ? {
            remoteAuthor: {
              name: row.remote_author.name,
              handle: row.remote_author.handle,
              avatar: row.remote_author.avatar,
              url: row.remote_author.url,
            },
          }
        : {}),
    }));
    const result = toPage(content, count.total, page, size);
    return { ...result, currentPage: result.number };
  }

  /** The open reports of these comments, newest first (with their reporters). */
  private async openReports(ids: number[]): Promise<Map<number, CommentReportDto[]>> {
    const byComment = new Map<number, CommentReportDto[]>();
    if (!ids.length) return byComment;
    const rows = (await this.dataSource.query(
      `SELECT r.comment_id, r.reason, r.details, r.created_at, u.id AS reporter_id, u.full_name AS reporter_name
         FROM comment_reports r JOIN users u ON u.id = r.reporter_id
        WHERE r.comment_id = ANY($1::int[]) AND r.dismissed_at IS NULL
        ORDER BY r.created_at DESC, r.id DESC`,
      [ids],
    )) as ReportRow[];
    for (const row of rows) {
      const list = byComment.get(row.comment_id) ?? [];
      list.push({
        reason: row.reason,
        details: row.details,
        reporter: { id: row.reporter_id, fullName: row.reporter_name },
        createdAt: row.created_at.toISOString(),
      });
      byComment.set(row.comment_id, list);
    }
    return byComment;
  }
}
