import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SortDirection } from '../common/pagination/sort';
import { containsPattern, countRows } from '../common/sql-patterns';

const SORT_COLUMNS: Record<string, string> = {
  name: 't.name',
  createdAt: 't.created_at',
  updatedAt: 't.updated_at',
  postCount: 'post_count',
};

/** Counts posts per tag: published ones only, unless the caller may see every post (admins). */
function postCountSql(allStatuses: boolean): string {
  return allStatuses
    ? `(SELECT count(*)::int FROM post_tags pt WHERE pt.tag_id = t.id)`
    : `(SELECT count(*)::int FROM post_tags pt JOIN posts p ON p.id = pt.post_id WHERE pt.tag_id = t.id AND p.status = 'PUBLISHED')`;
}

export interface TagListFilter {
  /** true: active tags only, false: inactive ones only, undefined: every tag. */
  active?: boolean;
  search?: string;
  sortBy: string;
  direction: SortDirection;
  /** Count posts of any status (admins) instead of published ones. */
  allStatuses: boolean;
  limit: number;
  offset: number;
}

/** The tags SQL by name; the rules (uniqueness messages, caching, who counts what) stay in TagsService. */
@Injectable()
export class TagsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One page of tag ids with their post counts, and the total of the filter. */
  async page(filter: TagListFilter): Promise<{ rows: { id: number; post_count: number }[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.active !== undefined) where.push(`t.is_active = ${filter.active ? 'true' : 'false'}`);
    if (filter.search) {
      params.push(containsPattern(filter.search));
      where.push(`(t.name ILIKE $${params.length} OR t.slug ILIKE $${params.length})`);
    }
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const dir = filter.direction === 'asc' ? 'ASC' : 'DESC';
    const order = `${SORT_COLUMNS[filter.sortBy] ?? SORT_COLUMNS.name} ${dir}, t.id ${dir}`;
    const total = await countRows(this.dataSource, `FROM tags t ${whereSql}`, params);
    const rows = (await this.dataSource.query(
      `SELECT t.id, ${postCountSql(filter.allStatuses)} AS post_count FROM tags t ${whereSql} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    )) as { id: number; post_count: number }[];
    return { rows, total };
  }

  /** Active tags with published posts and how many. */
  publishedCounts(): Promise<{ id: number; post_count: number }[]> {
    return this.dataSource.query(
      `SELECT pt.tag_id AS id, count(*)::int AS post_count
         FROM post_tags pt JOIN posts p ON p.id = pt.post_id JOIN tags t ON t.id = pt.tag_id
        WHERE p.status = 'PUBLISHED' AND t.is_active = true
        GROUP BY pt.tag_id`,
    ) as Promise<{ id: number; post_count: number }[]>;
  }

  async countPosts(id: number, allStatuses: boolean): Promise<number> {
    const [row] = (await this.dataSource.query(`SELECT ${postCountSql(allStatuses)} AS count FROM tags t WHERE t.id = $1`, [id])) as {
      count: number;
    }[];
    return row?.count ?? 0;
  }

  /** Another tag has this name, compared case-insensitively. */
  async nameTaken(name: string, exceptId = 0): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT id FROM tags WHERE lower(name) = lower($1) AND id <> $2 LIMIT 1`, [
      name,
      exceptId,
    ])) as unknown[];
    return rows.length > 0;
  }

  async slugTaken(slug: string, exceptId = 0): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT id FROM tags WHERE slug = $1 AND id <> $2 LIMIT 1`, [slug, exceptId])) as unknown[];
    return rows.length > 0;
  }

  /** The current slug of the active tag that had `slug` before, if any. */
  async currentSlugOf(slug: string): Promise<string | undefined> {
    const [row] = (await this.dataSource.query(
      `SELECT t.slug FROM tag_slug_history h JOIN tags t ON t.id = h.tag_id WHERE h.slug = $1 AND t.is_active`,
      [slug],
    )) as { slug: string }[];
    return row?.slug;
  }
}
