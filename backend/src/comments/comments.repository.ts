import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SortDirection } from '../common/pagination/sort';
import type { CommentActivityRow, CommentRow } from './comment.mapper';
import { CommentModeration, RemoteCommentAuthor } from './entities/comment.entity';
import { countedComment } from './visibility/counted-comment';

/** A comment's columns and its author's public ones (`c` = comments, `u` = users, left-joined). */
const COMMENT_COLUMNS = `c.id, c.post_id, c.parent_id, c.content, c.level, c.reply_count, c.deleted_at, c.created_at, c.updated_at, c.moderation, c.remote_author,
  u.id AS author_id, u.full_name AS author_name, u.avatar AS author_avatar, u.is_verified AS author_verified`;

const LOCK_COLUMNS = 'id, post_id, user_id, parent_id, level, reply_count, deleted_at, moderation, content';

/** What a write needs to know about a comment (read under its row lock). */
export interface CommentLockRow {
  id: number;
  post_id: number;
  user_id: number | null;
  parent_id: number | null;
  level: number;
  reply_count: number;
  deleted_at: Date | null;
  moderation: CommentModeration;
  content: string;
}

export interface PostRef {
  id: number;
  status: string;
  slug: string;
  author_id: number | null;
}

/**
 * Who reads a thread: HELD comments are shown to their own author only. `$n` is the parameter
 * holding the viewer's id (null for anonymous readers).
 */
const shownTo = (n: number) => `(c.moderation <> 'HELD' OR c.user_id = $${n})`;

/** Which comments a list outside a thread shows (always live comments only). */
export interface ActivityFilter {
  userId?: number;
  postId?: number;
  /** Only comments on PUBLISHED posts (public lists). */
  publishedOnly?: boolean;
  /** Full-text keyword ('simple' configuration: whole words, the last one as a prefix). */
  keyword?: string;
  /** Only VISIBLE comments (lists of other people's comments: no hidden or held text leaks). */
  visibleOnly?: boolean;
}

const dirOf = (dir: SortDirection): 'ASC' | 'DESC' => (dir === 'asc' ? 'ASC' : 'DESC');

/**
 * The comments SQL by name; the rules (who may, 404s, counters, caches) are CommentsService's.
 * Pages pick their ids from an index that covers the ORDER BY (index-only scans on
 * IDX_comments_post_root_created, IDX_comments_user_created, IDX_comments_live_created), then
 * load just those rows with their authors in the same statement: no query per comment.
 */
@Injectable()
export class CommentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private db(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async findPost(postId: number, manager?: EntityManager): Promise<PostRef | undefined> {
    const rows = (await this.db(manager).query('SELECT id, status, slug, author_id FROM posts WHERE id = $1', [postId])) as PostRef[];
    return rows[0];
  }

  /**
   * The post, locked until the transaction ends with the lock its counter update needs anyway
   * (FOR NO KEY UPDATE): it cannot be deleted meanwhile (no foreign-key failure), and a comment
   * write never has to strengthen a lock it holds. Comment writes take it first, as a post's
   * deletion does, so the two never wait on each other in a circle (a KEY SHARE lock upgraded by
   * the counter UPDATE deadlocked with a concurrent DELETE of the post).
   */
  async lockPost(manager: EntityManager, postId: number): Promise<PostRef | undefined> {
    const rows = (await manager.query('SELECT id, status, slug, author_id FROM posts WHERE id = $1 FOR NO KEY UPDATE', [
      postId,
    ])) as PostRef[];
    return rows[0];
  }

  /**
   * Adds to the post's comment_count (one atomic UPDATE, never below 0; updated_at untouched).
   * Only CommentVisibility calls it, under the post's lock (lockPost).
   */
  async addToPostComments(manager: EntityManager, postId: number, delta: number): Promise<void> {
    await manager.query(`UPDATE posts SET comment_count = GREATEST(comment_count + $2, 0) WHERE id = $1`, [postId, delta]);
  }

  async postIdOf(manager: EntityManager, id: number): Promise<number | undefined> {
    const rows = (await manager.query('SELECT post_id FROM comments WHERE id = $1', [id])) as { post_id: number }[];
    return rows[0]?.post_id;
  }

  async userExists(userId: number): Promise<boolean> {
    const rows = (await this.dataSource.query('SELECT 1 FROM users WHERE id = $1', [userId])) as unknown[];
    return rows.length > 0;
  }

  /**
   * A page of the post's top-level comments (deleted placeholders included) and every comment
   * below them, in one round trip: the page's ids from IDX_comments_post_root_created, then the
   * roots (`position` 0, 1, ... in the list's order) and their descendants (`position` null; a
   * bounded recursion on IDX_comments_parent_created, rows by primary key as `descendants` reads
   * them) with their authors.
   */
  async threadsPage(
    postId: number,
    viewerId: number | null,
    dir: SortDirection,
    limit: number,
    offset: number,
  ): Promise<{ roots: CommentRow[]; below: CommentRow[] }> {
    const order = `c.created_at ${dirOf(dir)}, c.id ${dirOf(dir)}`;
    const rows = (await this.dataSource.query(
      `WITH RECURSIVE page AS (SELECT c.id FROM comments c WHERE c.post_id = $1 AND c.parent_id IS NULL AND ${shownTo(4)} ORDER BY ${order} LIMIT $2 OFFSET $3),
            below AS (SELECT id FROM comments WHERE parent_id IN (SELECT id FROM page)
                      UNION ALL
                      SELECT c.id FROM comments c JOIN below b ON c.parent_id = b.id)
       SELECT (row_number() OVER (ORDER BY ${order}) - 1)::int AS position, ${COMMENT_COLUMNS}
         FROM page JOIN comments c ON c.id = page.id LEFT JOIN users u ON u.id = c.user_id
       UNION ALL
       SELECT NULL, ${COMMENT_COLUMNS} FROM comments c LEFT JOIN users u ON u.id = c.user_id
        WHERE c.id = ANY (ARRAY(SELECT id FROM below)) AND ${shownTo(4)}`,
      [postId, limit, offset, viewerId],
    )) as (CommentRow & { position: number | null })[];
    const roots: CommentRow[] = [];
    const below: CommentRow[] = [];
    for (const { position, ...row } of rows) {
      if (position === null) below.push(row);
      else roots[position] = row;
    }
    return { roots, below };
  }

  /**
   * How many of the post's top-level comments come before the thread that holds comment `id`, in
   * the list's order (so its page is that number divided by the page size); undefined when `id` is
   * not a comment of this post. Walks up at most 3 levels to the thread's root.
   */
  async rootPosition(postId: number, id: number, viewerId: number | null, dir: SortDirection): Promise<number | undefined> {
    const before = dir === 'asc' ? '<' : '>';
    const rows = (await this.dataSource.query(
      `WITH RECURSIVE up AS (
          SELECT c.id, c.parent_id FROM comments c WHERE c.id = $2 AND c.post_id = $1 AND ${shownTo(3)}
          UNION ALL
          SELECT c.id, c.parent_id FROM comments c JOIN up ON c.id = up.parent_id),
        root AS (SELECT c.id, c.created_at FROM up JOIN comments c ON c.id = up.id WHERE up.parent_id IS NULL)
       SELECT (SELECT count(*)::int FROM comments c WHERE c.post_id = $1 AND c.parent_id IS NULL AND ${shownTo(3)}
                  AND (c.created_at, c.id) ${before} (root.created_at, root.id)) AS position
         FROM root`,
      [postId, id, viewerId],
    )) as { position: number }[];
    return rows[0]?.position;
  }

  /**
   * The post's top-level comments shown to the viewer (shownTo, split in two disjoint parts): those
   * not HELD, counted from IDX_comments_post_root_shown alone (an index-only scan: 1,500 entries of
   * the busiest post without reading its rows), and the viewer's own HELD ones (few).
   */
  async countRoots(postId: number, viewerId: number | null): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT ((SELECT count(*) FROM comments c WHERE c.post_id = $1 AND c.parent_id IS NULL AND c.moderation <> 'HELD')
             + (SELECT count(*) FROM comments c WHERE c.post_id = $1 AND c.parent_id IS NULL AND c.moderation = 'HELD' AND c.user_id = $2))::int AS total`,
      [postId, viewerId],
    )) as { total: number }[];
    return row.total;
  }

  /** Every comment below these comments (at most 3 levels: a bounded recursion on IDX_comments_parent_created). */
  async descendants(parentIds: number[], viewerId: number | null): Promise<CommentRow[]> {
    if (!parentIds.length) return [];
    // The rows by primary key from an array of the ids: joined to the recursive CTE, whose size
    // the planner overestimates (~1,700 rows for a page's ten threads), the rows came from a hash
    // join over a sequential scan of the whole comments table (50,000 seeded comments: ~50 ms
    // per page of a post's comments instead of ~0.4 ms).
    return (await this.dataSource.query(
      `WITH RECURSIVE below AS (
          SELECT id FROM comments WHERE parent_id = ANY($1::int[])
          UNION ALL
          SELECT c.id FROM comments c JOIN below b ON c.parent_id = b.id)
       SELECT ${COMMENT_COLUMNS} FROM comments c LEFT JOIN users u ON u.id = c.user_id
        WHERE c.id = ANY (ARRAY(SELECT id FROM below)) AND ${shownTo(2)}
        ORDER BY c.created_at, c.id`,
      [parentIds, viewerId],
    )) as CommentRow[];
  }

  async findOne(id: number, manager?: EntityManager): Promise<CommentRow | undefined> {
    const rows = (await this.db(manager).query(
      `SELECT ${COMMENT_COLUMNS} FROM comments c LEFT JOIN users u ON u.id = c.user_id WHERE c.id = $1`,
      [id],
    )) as CommentRow[];
    return rows[0];
  }

  /** Locks the comment's row until the transaction ends and returns it. */
  async lock(manager: EntityManager, id: number): Promise<CommentLockRow | undefined> {
    const rows = (await manager.query(`SELECT ${LOCK_COLUMNS} FROM comments WHERE id = $1 FOR UPDATE`, [id])) as CommentLockRow[];
    return rows[0];
  }

  /** The comment as `lock` returns it, without the lock (read again under it before any write). */
  async peek(manager: EntityManager, id: number): Promise<CommentLockRow | undefined> {
    const rows = (await manager.query(`SELECT ${LOCK_COLUMNS} FROM comments WHERE id = $1`, [id])) as CommentLockRow[];
    return rows[0];
  }

  /**
   * Locks the comment replied to for its reply_count (FOR NO KEY UPDATE, the lock of the counter's
   * UPDATE: the foreign-key checks of other replies go on) and returns it.
   */
  async lockReplyTarget(manager: EntityManager, id: number): Promise<CommentLockRow | undefined> {
    const rows = (await manager.query(`SELECT ${LOCK_COLUMNS} FROM comments WHERE id = $1 FOR NO KEY UPDATE`, [id])) as CommentLockRow[];
    return rows[0];
  }

  /** Adds to a comment's reply count (locks its row); returns the row after the change. Only CommentVisibility calls it. */
  async addToReplyCount(manager: EntityManager, id: number, delta: number): Promise<CommentLockRow | undefined> {
    const [rows] = (await manager.query(
      `UPDATE comments SET reply_count = GREATEST(reply_count + $2, 0) WHERE id = $1
        RETURNING ${LOCK_COLUMNS}`,
      [id, delta],
    )) as [CommentLockRow[], number];
    return rows[0];
  }

  /** Writes a comment and returns it as `findOne` does (one statement). Only CommentVisibility calls it. */
  async insert(
    manager: EntityManager,
    values: {
      postId: number;
      userId: number | null;
      parentId: number | null;
      level: number;
      content: string;
      moderation: CommentModeration;
      createdAt?: Date;
      remote?: { uri: string; author: RemoteCommentAuthor };
    },
  ): Promise<CommentRow> {
    const [row] = (await manager.query(
      `WITH c AS (INSERT INTO comments (post_id, user_id, parent_id, level, content, moderation, created_at, updated_at, remote_uri, remote_author)
                  VALUES ($1, $2, $3, $4, $5, $6, coalesce($7::timestamptz, now()), coalesce($7::timestamptz, now()), $8, $9::jsonb) RETURNING *)
       SELECT ${COMMENT_COLUMNS} FROM c LEFT JOIN users u ON u.id = c.user_id`,
      [
        values.postId,
        values.userId,
        values.parentId,
        values.level,
        values.content,
        values.moderation,
        values.createdAt ?? null,
        values.remote?.uri ?? null,
        values.remote ? JSON.stringify(values.remote.author) : null,
      ],
    )) as CommentRow[];
    return row;
  }

  /** New content of a live comment; updated_at marks the edit. False when it is gone or deleted. */
  async updateContent(id: number, content: string, manager?: EntityManager): Promise<boolean> {
    const [, affected] = (await this.db(manager).query(
      'UPDATE comments SET content = $2, updated_at = now() WHERE id = $1 AND deleted_at IS NULL',
      [id, content],
    )) as [unknown, number];
    return affected > 0;
  }

  /** Held by the holding rules (an edit of a visible comment). */
  async setHeld(manager: EntityManager, id: number): Promise<void> {
    await manager.query(`UPDATE comments SET moderation = 'HELD' WHERE id = $1`, [id]);
  }

  async setHidden(manager: EntityManager, id: number, reason: string, by: number | null): Promise<void> {
    await manager.query(`UPDATE comments SET moderation = 'HIDDEN', hidden_reason = $2, hidden_by = $3, hidden_at = now() WHERE id = $1`, [
      id,
      reason,
      by,
    ]);
  }

  /** VISIBLE again (approved or restored): the hiding's reason, moderator and time go. */
  async setVisible(manager: EntityManager, id: number): Promise<void> {
    await manager.query(
      `UPDATE comments SET moderation = 'VISIBLE', hidden_reason = NULL, hidden_by = NULL, hidden_at = NULL WHERE id = $1`,
      [id],
    );
  }

  /** Moves every comment of one account to another (the erasure's '[deleted user]'); answers how many. */
  async reassignAuthor(manager: EntityManager, fromUserId: number, toUserId: number): Promise<number> {
    const [, moved] = (await manager.query(`UPDATE comments SET user_id = $2 WHERE user_id = $1`, [fromUserId, toUserId])) as [
      unknown,
      number,
    ];
    return moved;
  }

  /** Keeps the row as a placeholder for its replies; the text is wiped. */
  async markDeleted(manager: EntityManager, id: number): Promise<void> {
    await manager.query(`UPDATE comments SET deleted_at = now(), content = '' WHERE id = $1`, [id]);
  }

  async deleteRow(manager: EntityManager, id: number): Promise<void> {
    await manager.query('DELETE FROM comments WHERE id = $1', [id]);
  }

  /** Whether any reply row is under the comment, whatever its moderation (a HIDDEN or HELD reply keeps its parent's row too). */
  async hasReplies(manager: EntityManager, id: number): Promise<boolean> {
    const rows = (await manager.query('SELECT 1 FROM comments WHERE parent_id = $1 LIMIT 1', [id])) as unknown[];
    return rows.length > 0;
  }

  /** Which of these comments the user has reported (dismissed reports included: once per comment per reader). */
  async reportedBy(userId: number, ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = (await this.dataSource.query(
      'SELECT comment_id FROM comment_reports WHERE reporter_id = $1 AND comment_id = ANY($2::int[])',
      [userId, ids],
    )) as { comment_id: number }[];
    return new Set(rows.map((row) => row.comment_id));
  }

  /** Live comments with their posts, newest (or oldest) first, one page; and their total. */
  async activityPage(
    filter: ActivityFilter,
    dir: SortDirection,
    limit: number,
    offset: number,
  ): Promise<{ rows: CommentActivityRow[]; total: number }> {
    const { where, params } = this.activityWhere(filter);
    const order = `c.created_at ${dirOf(dir)}, c.id ${dirOf(dir)}`;
    const n = params.length;
    const [rows, [count]] = await Promise.all([
      this.dataSource.query(
        `WITH page AS (SELECT c.id FROM comments c WHERE ${where} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2})
         SELECT ${COMMENT_COLUMNS}, p.slug AS post_slug, p.title AS post_title
           FROM page JOIN comments c ON c.id = page.id JOIN posts p ON p.id = c.post_id LEFT JOIN users u ON u.id = c.user_id
          ORDER BY ${order}`,
        [...params, limit, offset],
      ) as Promise<CommentActivityRow[]>,
      limit === 0
        ? Promise.resolve([{ total: 0 }])
        : (this.dataSource.query(`SELECT count(*)::int AS total FROM comments c WHERE ${where}`, params) as Promise<{ total: number }[]>),
    ]);
    return { rows, total: count.total };
  }

  /** Live comments with their posts, newest first, at most `limit` (no total). */
  async recentActivity(filter: ActivityFilter, limit: number): Promise<CommentActivityRow[]> {
    const { where, params } = this.activityWhere(filter);
    const n = params.length;
    return (await this.dataSource.query(
      `SELECT ${COMMENT_COLUMNS}, p.slug AS post_slug, p.title AS post_title
         FROM comments c JOIN posts p ON p.id = c.post_id LEFT JOIN users u ON u.id = c.user_id
        WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT $${n + 1}`,
      [...params, limit],
    )) as CommentActivityRow[];
  }

  async postStats(postId: number): Promise<{ totalComments: number; uniqueCommenters: number }> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS total, count(DISTINCT user_id)::int AS commenters FROM comments WHERE post_id = $1 AND ${countedComment()}`,
      [postId],
    )) as { total: number; commenters: number }[];
    return { totalComments: row.total, uniqueCommenters: row.commenters };
  }

  private activityWhere(filter: ActivityFilter): { where: string; params: unknown[] } {
    const clauses = [filter.visibleOnly ? countedComment('c') : 'c.deleted_at IS NULL'];
    const params: unknown[] = [];
    if (filter.userId !== undefined) {
      params.push(filter.userId);
      clauses.push(`c.user_id = $${params.length}`);
    }
    if (filter.postId !== undefined) {
      params.push(filter.postId);
      clauses.push(`c.post_id = $${params.length}`);
    }
    // A semi-join per row, so the page's ids still come off the index in order (no join and sort of every row before the OFFSET).
    if (filter.publishedOnly) clauses.push(`EXISTS (SELECT 1 FROM posts p WHERE p.id = c.post_id AND p.status = 'PUBLISHED')`);
    if (filter.keyword !== undefined) {
      params.push(filter.keyword);
      // plainto_tsquery accepts any text; its canonical output gets ':*' after each lexeme (prefix match).
      clauses.push(
        `to_tsvector('simple', c.content) @@ to_tsquery('simple', regexp_replace(plainto_tsquery('simple', $${params.length})::text, '''( &|$)', ''':*\\1', 'g'))`,
      );
    }
    return { where: clauses.join(' AND '), params };
  }
}
