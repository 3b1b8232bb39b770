import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SortDirection } from '../common/pagination/sort';
import { containsPattern, countRows } from '../common/sql-patterns';
import type { TagRefDto } from '../tags/dto/tag-response.dto';
import { RoleName } from '../users/roles';
import { SITEMAP_FILE_SIZE, sitemapIdRange, type SitemapEntryKind } from '../../../isomorphic/sitemap';
import type { PostCardWithTags, PostForAnswer, PostListRow } from './post.mapper';

const CARD_COLUMNS = `p.id, p.title, p.slug, p.summary, p.thumbnail, p.like_count, p.view_count, p.comment_count, p.is_featured,
  p.published_at, p.reading_time, p.author_id, u.full_name AS author_name, u.avatar AS author_avatar, u.slug AS author_slug, p.canonical_url`;

/** The version and SEO fields of posts `p` under the entity's property names. */
const VERSION_SEO_COLUMNS = `p.version, p.meta_title AS "metaTitle", p.meta_description AS "metaDescription", p.canonical_url AS "canonicalUrl",
  p.noindex, p.social_image AS "socialImage"`;

/**
 * The whole post as the public page shows it, under the entity's property names (so the same
 * mapper serves it), with the author's public columns: never the e-mail.
 */
const POST_COLUMNS = `p.id, p.title, p.slug, p.summary, p.content, p.content_html AS "contentHtml", p.status, p.thumbnail,
  p.published_at AS "publishedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt", p.author_id AS "authorId",
  p.like_count AS "likeCount", p.view_count AS "viewCount", p.comment_count AS "commentCount", p.is_featured AS "isFeatured",
  p.reading_time AS "readingTime", p.word_count AS "wordCount", ${VERSION_SEO_COLUMNS},
  p.scheduled_at AS "scheduledAt", p.requested_publish_at AS "requestedPublishAt", json_build_object('id', u.id, 'slug', u.slug, 'fullName', u.full_name, 'avatar', u.avatar, 'bio', u.bio) AS author`;

/** A back-office or author list row under the entity's property names: no body; the author's name and e-mail. */
const LIST_COLUMNS = `p.id, p.title, p.slug, p.summary, p.status, p.thumbnail,
  p.published_at AS "publishedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt", p.author_id AS "authorId",
  p.like_count AS "likeCount", p.view_count AS "viewCount", p.comment_count AS "commentCount", p.is_featured AS "isFeatured",
  p.reading_time AS "readingTime", p.word_count AS "wordCount", ${VERSION_SEO_COLUMNS},
  p.scheduled_at AS "scheduledAt", p.requested_publish_at AS "requestedPublishAt", json_build_object('fullName', u.full_name, 'email', u.email) AS author`;

/**
 * The latest rejecting review of a REJECTED post `p` (its reason, reviewer and time), else null:
 * what its author needs to revise it, on the list row itself.
 */
const LAST_REJECTION_JSON = `CASE WHEN p.status = 'REJECTED' THEN (
    SELECT json_build_object('reason', r.rejection_reason, 'reviewerName', ru.full_name, 'reviewedAt', r.created_at)
      FROM post_reviews r LEFT JOIN users ru ON ru.id = r.reviewer_id
     WHERE r.post_id = p.id AND r.status = 'REJECTED'
     ORDER BY r.created_at DESC, r.id DESC LIMIT 1) END`;

/** The tags of post `p` as a JSON array of tag chips, alphabetical: active ones only (public answers) or all (the back office). */
function tagsJson(activeOnly: boolean): string {
  return `COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug, 'color', t.color) ORDER BY t.name)
    FROM post_tags pt JOIN tags t ON t.id = pt.tag_id
   WHERE pt.post_id = p.id${activeOnly ? ' AND t.is_active = true' : ''}), '[]'::json)`;
}
const ACTIVE_TAGS_JSON = tagsJson(true);
const ALL_TAGS_JSON = tagsJson(false);

/** Sort fields of the post lists (public tag pages, back office, author) → columns of posts `p`. */
const POST_SORT_COLUMNS: Record<string, string> = {
  createdAt: 'p.created_at',
  updatedAt: 'p.updated_at',
  publishedAt: 'p.published_at',
  title: 'p.title',
  viewCount: 'p.view_count',
};

/** The back-office and author lists' filters: any status unless given, an author's own posts, a search in title, slug and excerpt. */
export interface PostListFilter {
  status?: string;
  authorId?: number;
  search?: string;
}
export type PostWithTags = PostForAnswer & { tags: TagRefDto[] };
export interface SitemapRow {
  slug: string;
  updated_at: Date;
}
/** A numbered sitemap file and the last change of its rows. */
export interface SitemapFileRow {
  number: number;
  lastmod: Date;
}
/** The public author columns both author queries read (PublicAuthorDto's, in SQL names). */
export interface PublicAuthorRow {
  id: number;
  slug: string;
  full_name: string;
  avatar: string | null;
  bio: string | null;
  post_count: number;
  total_likes: number;
}
export interface AuthorProfileRow extends PublicAuthorRow {
  created_at: Date;
}
export interface AuthorSummaryRow extends PublicAuthorRow {
  latest_post_at: Date | null;
}

/**
 * Who counts as a public author: an account of user `u` holding one of the roles `$1` (text[]),
 * active or pending (an imported author's account waits for its invitation, and its published
 * posts are public already); an inactive or banned one is not listed. The /authors list (spec)
 * names AUTHOR only; author pages admit AUTHOR and ADMIN (an administrator's published posts link
 * to their page too: ADMIN outranks AUTHOR). What is shown is the public profile (name, bio,
 * avatar, counts), never the e-mail address.
 */
const PUBLIC_AUTHOR = `u.status IN ('ACTIVE', 'PENDING')
  AND EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id AND r.name = ANY($1::text[]))`;
const LISTED_AUTHOR_ROLES = [RoleName.AUTHOR];
/** Posts `p` the sitemap lists (`$1`: PUBLIC_URL/blog/): published, indexable, canonical here. */
const SITEMAP_POST = `p.status = 'PUBLISHED' AND NOT p.noindex AND (p.canonical_url IS NULL OR p.canonical_url = $1 || p.slug)`;
/** The sitemap file an id falls in (isomorphic/sitemap.ts sitemapIdRange). */
const SITEMAP_FILE_OF = (id: string) => `((${id} - 1) / ${SITEMAP_FILE_SIZE} + 1)::int`;
const AUTHOR_PAGE_ROLES = [RoleName.AUTHOR, RoleName.ADMIN];

/**
 * The posts queries written in SQL (public lists, counters), by name. Rules (who sees what,
 * caching, 404s) stay in the services. Lists first pick the page's ids from an index
 * (index-only scans on IDX_posts_status_published / IDX_post_tags_tag_post), then load just
 * those rows, so deep pages cost about as much as the first.
 */
@Injectable()
export class PostsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Published posts' cards, newest first. */
  publishedCards(limit: number, offset: number): Promise<PostCardWithTags[]> {
    return this.cardsPage(`FROM posts p WHERE p.status = 'PUBLISHED'`, 'p.published_at DESC, p.id DESC', [], limit, offset);
  }

  /** Published cards of one tag, sorted by a POST_SORT_COLUMNS field (unknown → publishedAt). */
  publishedCardsOfTag(tagId: number, sortBy: string, direction: SortDirection, limit: number, offset: number): Promise<PostCardWithTags[]> {
    const dir = direction === 'asc' ? 'ASC' : 'DESC';
    const order = `${POST_SORT_COLUMNS[sortBy] ?? POST_SORT_COLUMNS.publishedAt} ${dir} NULLS LAST, p.id ${dir}`;
    return this.cardsPage(
      `FROM post_tags pt JOIN posts p ON p.id = pt.post_id WHERE pt.tag_id = $1 AND p.status = 'PUBLISHED'`,
      order,
      [tagId],
      limit,
      offset,
    );
  }

  countPublished(): Promise<number> {
    return countRows(this.dataSource, `FROM posts WHERE status = 'PUBLISHED'`);
  }

  countPublishedOfTag(tagId: number): Promise<number> {
    return countRows(
      this.dataSource,
      `FROM post_tags pt JOIN posts p ON p.id = pt.post_id WHERE pt.tag_id = $1 AND p.status = 'PUBLISHED'`,
      [tagId],
    );
  }

  /** One round trip: the published post, its author's public columns and its active tags. */
  async findPublishedBySlug(slug: string): Promise<PostWithTags | undefined> {
    const [row] = (await this.dataSource.query(
      `SELECT ${POST_COLUMNS}, ${ACTIVE_TAGS_JSON} AS tags
         FROM posts p JOIN users u ON u.id = p.author_id
        WHERE p.slug = $1 AND p.status = 'PUBLISHED'`,
      [slug],
    )) as PostWithTags[];
    return row;
  }

  /**
   * The sitemap's numbered files per kind (isomorphic/sitemap.ts: file n holds the ids of its range)
   * with each file's last change; ranges with no row are left out. `postBase`: the address posts'
   * own pages start with (PUBLIC_URL/blog/): a post whose canonical URL points elsewhere, like a
   * noindex post, is not listed. Each kind is one grouped scan of its rows; the
   * answer is a row per file.
   */
  async sitemapFiles(postBase: string): Promise<Record<SitemapEntryKind, SitemapFileRow[]>> {
    const [posts, tags, authors] = await Promise.all([
      this.dataSource.query(
        `SELECT ${SITEMAP_FILE_OF('p.id')} AS number, max(p.updated_at) AS lastmod
           FROM posts p WHERE ${SITEMAP_POST} GROUP BY 1 ORDER BY 1`,
        [postBase],
      ) as Promise<SitemapFileRow[]>,
      this.dataSource.query(
        `SELECT ${SITEMAP_FILE_OF('t.id')} AS number, GREATEST(max(t.updated_at), max(p.updated_at)) AS lastmod
           FROM tags t JOIN post_tags pt ON pt.tag_id = t.id JOIN posts p ON p.id = pt.post_id
          WHERE t.is_active = true AND p.status = 'PUBLISHED' GROUP BY 1 ORDER BY 1`,
      ) as Promise<SitemapFileRow[]>,
      this.dataSource.query(
        `SELECT ${SITEMAP_FILE_OF('u.id')} AS number, GREATEST(max(u.updated_at), max(p.updated_at)) AS lastmod
           FROM users u JOIN posts p ON p.author_id = u.id AND p.status = 'PUBLISHED'
          WHERE ${PUBLIC_AUTHOR} GROUP BY 1 ORDER BY 1`,
        [AUTHOR_PAGE_ROLES],
      ) as Promise<SitemapFileRow[]>,
    ]);
    return { posts, tags, authors };
  }

  /**
   * One numbered sitemap file: the slugs and last changes of the kind's listed rows whose id is in
   * the file's range, in id order, read through the primary key (at most SITEMAP_FILE_SIZE rows,
   * whatever the table's size). A tag's or author's last change counts its published posts'.
   */
  sitemapFile(kind: SitemapEntryKind, number: number, postBase: string): Promise<SitemapRow[]> {
    const [first, last] = sitemapIdRange(number);
    switch (kind) {
      case 'posts':
        return this.dataSource.query(
          `SELECT p.slug, p.updated_at FROM posts p WHERE p.id BETWEEN $2::bigint AND $3::bigint AND ${SITEMAP_POST} ORDER BY p.id`,
          [postBase, first, last],
        ) as Promise<SitemapRow[]>;
      case 'tags':
        return this.dataSource.query(
          `SELECT t.slug, GREATEST(t.updated_at, max(p.updated_at)) AS updated_at
             FROM tags t JOIN post_tags pt ON pt.tag_id = t.id JOIN posts p ON p.id = pt.post_id
            WHERE t.id BETWEEN $1::bigint AND $2::bigint AND t.is_active = true AND p.status = 'PUBLISHED'
            GROUP BY t.id ORDER BY t.id`,
          [first, last],
        ) as Promise<SitemapRow[]>;
      case 'authors':
        return this.dataSource.query(
          `SELECT u.slug, GREATEST(u.updated_at, max(p.updated_at)) AS updated_at
             FROM users u JOIN posts p ON p.author_id = u.id AND p.status = 'PUBLISHED'
            WHERE u.id BETWEEN $2::bigint AND $3::bigint AND ${PUBLIC_AUTHOR}
            GROUP BY u.id ORDER BY u.id`,
          [AUTHOR_PAGE_ROLES, first, last],
        ) as Promise<SitemapRow[]>;
    }
  }

  /** Users holding AUTHOR (active or pending accounts) with at least one published post, most published first. */
  authorSummaries(): Promise<AuthorSummaryRow[]> {
    return this.dataSource.query(
      `SELECT u.id, u.slug, u.full_name, u.avatar, u.bio, count(p.id)::int AS post_count,
              COALESCE(sum(p.like_count), 0)::int AS total_likes, max(p.published_at) AS latest_post_at
         FROM users u JOIN posts p ON p.author_id = u.id AND p.status = 'PUBLISHED'
        WHERE ${PUBLIC_AUTHOR}
        GROUP BY u.id
        ORDER BY post_count DESC, latest_post_at DESC, u.id`,
      [LISTED_AUTHOR_ROLES],
    ) as Promise<AuthorSummaryRow[]>;
  }

  /** A public author (PUBLIC_AUTHOR with at least one published post) by slug, with their published count and likes. */
  async authorProfileBySlug(slug: string): Promise<AuthorProfileRow | undefined> {
    const [row] = (await this.dataSource.query(
      `SELECT u.id, u.slug, u.full_name, u.avatar, u.bio, u.created_at, count(p.id)::int AS post_count,
              COALESCE(sum(p.like_count), 0)::int AS total_likes
         FROM users u JOIN posts p ON p.author_id = u.id AND p.status = 'PUBLISHED'
        WHERE u.slug = $2 AND ${PUBLIC_AUTHOR}
        GROUP BY u.id`,
      [AUTHOR_PAGE_ROLES, slug],
    )) as AuthorProfileRow[];
    return row;
  }

  /** An author's published cards, newest first. */
  publishedCardsOfAuthor(authorId: number, limit: number, offset: number): Promise<PostCardWithTags[]> {
    return this.cardsPage(
      `FROM posts p WHERE p.author_id = $1 AND p.status = 'PUBLISHED'`,
      'p.published_at DESC, p.id DESC',
      [authorId],
      limit,
      offset,
    );
  }

  /** Tag chips of these posts, alphabetical (active tags only on public answers). */
  async tagsOfPosts(postIds: number[], activeOnly: boolean): Promise<Map<number, TagRefDto[]>> {
    const result = new Map<number, TagRefDto[]>();
    if (!postIds.length) return result;
    const rows = (await this.dataSource.query(
      `SELECT pt.post_id, t.id, t.name, t.slug, t.color FROM post_tags pt JOIN tags t ON t.id = pt.tag_id
        WHERE pt.post_id = ANY($1::int[]) ${activeOnly ? 'AND t.is_active = true' : ''} ORDER BY t.name`,
      [postIds],
    )) as { post_id: number; id: number; name: string; slug: string; color: string | null }[];
    for (const row of rows) {
      const list = result.get(row.post_id) ?? [];
      list.push({ id: row.id, name: row.name, slug: row.slug, color: row.color });
      result.set(row.post_id, list);
    }
    return result;
  }

  /**
   * One page of the back-office or author list in one round trip: the page's ids from an index
   * (IDX_posts_created, IDX_posts_status_created for a status, IDX_posts_author_status_created for
   * an author), then their columns, author and every tag. Only publishedAt can be null (never
   * published: last either way); the other sort columns are NOT NULL, so their plain order reads
   * the index instead of sorting every post.
   */
  listPage(filter: PostListFilter, sortBy: string, direction: SortDirection, limit: number, offset: number): Promise<PostListRow[]> {
    const params: unknown[] = [];
    const where = listWhere(filter, params);
    const dir = direction === 'asc' ? 'ASC' : 'DESC';
    const column = POST_SORT_COLUMNS[sortBy] ?? POST_SORT_COLUMNS.createdAt;
    const order = `${column} ${dir}${column === POST_SORT_COLUMNS.publishedAt ? ' NULLS LAST' : ''}, p.id ${dir}`;
    const n = params.length;
    return this.dataSource.query(
      `WITH page AS (SELECT p.id FROM posts p ${where} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2})
       SELECT ${LIST_COLUMNS}, ${ALL_TAGS_JSON} AS tags, ${LAST_REJECTION_JSON} AS "lastRejection"
         FROM page JOIN posts p ON p.id = page.id JOIN users u ON u.id = p.author_id
        ORDER BY ${order}`,
      [...params, limit, offset],
    ) as Promise<PostListRow[]>;
  }

  /** How many posts the list's filter matches (an index-only count for a status or an author). */
  countList(filter: PostListFilter): Promise<number> {
    const params: unknown[] = [];
    return countRows(this.dataSource, `FROM posts p ${listWhere(filter, params)}`, params);
  }

  /** How many posts of author `authorId` each status holds (statuses without posts are absent): one index-only GROUP BY. */
  async countByStatusOfAuthor(authorId: number): Promise<Map<string, number>> {
    const rows = (await this.dataSource.query(`SELECT status, count(*)::int AS total FROM posts WHERE author_id = $1 GROUP BY status`, [
      authorId,
    ])) as { status: string; total: number }[];
    return new Map(rows.map((row) => [row.status, row.total]));
  }

  /** Another post has this slug. */
  async slugTaken(manager: EntityManager, slug: string, exceptId: number): Promise<boolean> {
    const rows = (await manager.query(`SELECT 1 FROM posts WHERE slug = $1 AND id <> $2 LIMIT 1`, [slug, exceptId])) as unknown[];
    return rows.length > 0;
  }

  /** The slugs post `id` had before (its redirects). */
  async earlierSlugs(id: number): Promise<string[]> {
    const rows = (await this.dataSource.query(`SELECT slug FROM post_slug_history WHERE post_id = $1`, [id])) as { slug: string }[];
    return rows.map((row) => row.slug);
  }

  /** The current slug of the published post that had `slug` before, if any. */
  async currentSlugOf(slug: string): Promise<string | undefined> {
    const [row] = (await this.dataSource.query(
      `SELECT p.slug FROM post_slug_history h JOIN posts p ON p.id = h.post_id WHERE h.slug = $1 AND p.status = 'PUBLISHED'`,
      [slug],
    )) as { slug: string }[];
    return row?.slug;
  }

  /** The current slug of the published post a former site's path (an import's redirect) leads to, if any. */
  async slugOfOldPath(path: string): Promise<string | undefined> {
    const [row] = (await this.dataSource.query(
      `SELECT p.slug FROM post_path_redirects r JOIN posts p ON p.id = r.post_id WHERE r.path = $1 AND p.status = 'PUBLISHED'`,
      [path],
    )) as { slug: string }[];
    return row?.slug;
  }

  /**
   * Records a former site's paths of post `postId`. A path that already leads to a post keeps
   * leading there (an import never moves a redirect); answers the paths it did not record.
   */
  async addOldPaths(manager: EntityManager, postId: number, paths: readonly string[]): Promise<string[]> {
    if (!paths.length) return [];
    const added = (await manager.query(
      `INSERT INTO post_path_redirects (path, post_id) SELECT unnest($1::varchar[]), $2 ON CONFLICT (path) DO NOTHING RETURNING path`,
      [paths, postId],
    )) as { path: string }[];
    const recorded = new Set(added.map((row) => row.path));
    return paths.filter((path) => !recorded.has(path));
  }

  /** Slugs equal to `root` or starting with `root-` (to derive a free one). */
  async slugsStartingWith(manager: EntityManager, root: string): Promise<string[]> {
    const rows = (await manager.query(`SELECT slug FROM posts WHERE slug = $1 OR slug LIKE $2`, [root, `${root}-%`])) as { slug: string }[];
    return rows.map((row) => row.slug);
  }

  /** Locks the post's row until the transaction of `manager` ends. */
  async lockRow(manager: EntityManager, id: number): Promise<void> {
    await manager.query('SELECT id FROM posts WHERE id = $1 FOR UPDATE', [id]);
  }

  /** Adds to like_count/comment_count atomically, floored at 0; undefined when the post does not exist. */
  async addToCounters(
    manager: EntityManager,
    id: number,
    likes: number,
    comments: number,
  ): Promise<{ likeCount: number; commentCount: number } | undefined> {
    const [rows] = (await manager.query(
      `UPDATE posts SET like_count = GREATEST(like_count + $2, 0), comment_count = GREATEST(comment_count + $3, 0)
        WHERE id = $1 RETURNING like_count, comment_count`,
      [id, likes, comments],
    )) as [{ like_count: number; comment_count: number }[], number];
    return rows[0] ? { likeCount: rows[0].like_count, commentCount: rows[0].comment_count } : undefined;
  }

  /**
   * One page of cards in one round trip: the page's ids come from an index first, then their card
   * columns and active tags. `from` must alias posts as `p`; `order` sorts by columns of `p`.
   */
  private cardsPage(from: string, order: string, params: unknown[], limit: number, offset: number): Promise<PostCardWithTags[]> {
    const n = params.length;
    return this.dataSource.query(
      `WITH page AS (SELECT p.id ${from} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2})
       SELECT ${CARD_COLUMNS}, ${ACTIVE_TAGS_JSON} AS tags
         FROM page JOIN posts p ON p.id = page.id JOIN users u ON u.id = p.author_id
        ORDER BY ${order}`,
      [...params, limit, offset],
    ) as Promise<PostCardWithTags[]>;
  }
}

/** The list filter as SQL over posts `p`, its values appended to `params`. */
function listWhere(filter: PostListFilter, params: unknown[]): string {
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const clauses: string[] = [];
  if (filter.authorId !== undefined) clauses.push(`p.author_id = ${add(filter.authorId)}`);
  if (filter.status) clauses.push(`p.status = ${add(filter.status)}`);
  if (filter.search) {
    const pattern = add(containsPattern(filter.search));
    clauses.push(`(p.title ILIKE ${pattern} OR p.slug ILIKE ${pattern} OR p.summary ILIKE ${pattern})`);
  }
  return clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
}
