import { Injectable, NotFoundException, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContentEvents } from '../common/content-events';
import { MicroCache } from '../common/micro-cache';
import { Page, toPage } from '../common/pagination/page';
import { TagRefDto } from '../tags/dto/tag-response.dto';
import { TagsService } from '../tags/tags.service';
import { RoleName } from '../users/entities/role.entity';
import { PostTagQueryDto } from './dto/post-input.dto';
import { AuthorSummaryDto, PostCardResponseDto, PostResponseDto, SitemapResponseDto } from './dto/post-response.dto';
import { PostCardRow, PostForAnswer, toPostCard, toPostResponse } from './post.mapper';
import { PostViewsService } from './post-views.service';
import { PostsMessages } from './posts.messages';

const LATEST_STORIES = 6;
/**
 * Public answers are the same for every reader: each is kept this long (and dropped on any content
 * change), so a burst of readers makes one query and counters are at most this old.
 */
const ANSWER_TTL_MS = 5_000;
const LIST_CACHE_ENTRIES = 500;
/** Whole posts are larger (Markdown and HTML, ~40 KB at 1,200 words): fewer of them. */
const POST_CACHE_ENTRIES = 200;

const CARD_COLUMNS = `p.id, p.title, p.slug, p.summary, p.thumbnail, p.like_count, p.view_count, p.comment_count, p.is_featured,
  p.published_at, p.reading_time, p.author_id, u.full_name AS author_name, u.avatar AS author_avatar`;

/**
 * The whole post as the public page shows it, under the entity's property names (so the same
 * mapper serves it), with the author's public columns: never the e-mail.
 */
const POST_COLUMNS = `p.id, p.title, p.slug, p.summary, p.content, p.content_html AS "contentHtml", p.status, p.thumbnail,
  p.published_at AS "publishedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt", p.author_id AS "authorId",
  p.like_count AS "likeCount", p.view_count AS "viewCount", p.comment_count AS "commentCount", p.is_featured AS "isFeatured",
  p.reading_time AS "readingTime", json_build_object('id', u.id, 'fullName', u.full_name, 'avatar', u.avatar, 'bio', u.bio) AS author`;

/** The active tags of post `p` as a JSON array of tag chips, alphabetical. */
const ACTIVE_TAGS_JSON = `COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug, 'color', t.color) ORDER BY t.name)
    FROM post_tags pt JOIN tags t ON t.id = pt.tag_id
   WHERE pt.post_id = p.id AND t.is_active = true), '[]'::json)`;

const SORT_COLUMNS: Record<string, string> = {
  createdAt: 'p.created_at',
  updatedAt: 'p.updated_at',
  publishedAt: 'p.published_at',
  title: 'p.title',
  viewCount: 'p.view_count',
};

/** Tag chips of these posts, alphabetical (active tags only on public answers). */
export async function tagsOfPosts(dataSource: DataSource, postIds: number[], activeOnly: boolean): Promise<Map<number, TagRefDto[]>> {
  const result = new Map<number, TagRefDto[]>();
  if (!postIds.length) return result;
  const rows = (await dataSource.query(
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
 * What anonymous readers see: only PUBLISHED posts, never an e-mail. Lists first pick the page's
 * ids from an index (index-only scans on IDX_posts_status_published / IDX_post_tags_tag_post),
 * then load just those rows, so deep pages cost about as much as the first.
 */
@Injectable()
export class PostsPublicService implements OnModuleDestroy {
  /**
   * Published totals (all, and per tag) change only when public content does: kept here and
   * dropped on every ContentEvents notice, instead of a count(*) per list request.
   */
  private publishedTotals = new Map<string, Promise<number>>();
  /** Recently answered public list pages and posts (cleared on content changes). */
  private readonly lists = new MicroCache<unknown>(ANSWER_TTL_MS, LIST_CACHE_ENTRIES);
  private readonly postsBySlug = new MicroCache<PostResponseDto>(ANSWER_TTL_MS, POST_CACHE_ENTRIES);
  private readonly stopListening: () => void;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tags: TagsService,
    private readonly views: PostViewsService,
    contentEvents: ContentEvents,
  ) {
    this.stopListening = contentEvents.onChange(() => {
      this.publishedTotals.clear();
      this.lists.clear();
      this.postsBySlug.clear();
    });
  }

  onModuleDestroy(): void {
    this.stopListening();
  }

  list(page: number, size: number): Promise<Page<PostCardResponseDto>> {
    return this.remembered(`list:${page}:${size}`, () => this.loadList(page, size));
  }

  private async loadList(page: number, size: number): Promise<Page<PostCardResponseDto>> {
    const [cards, total] = await Promise.all([
      this.cardsPage(`FROM posts p WHERE p.status = 'PUBLISHED'`, 'p.published_at DESC, p.id DESC', [], size, page * size),
      this.publishedTotal('all', `SELECT count(*)::int AS total FROM posts WHERE status = 'PUBLISHED'`, []),
    ]);
    return toPage(cards, total, page, size);
  }

  latest(): Promise<PostCardResponseDto[]> {
    return this.remembered('latest', () => this.cardsPage(`FROM posts p WHERE p.status = 'PUBLISHED'`, 'p.published_at DESC, p.id DESC', [], LATEST_STORIES, 0));
  }

  /** The whole published post; every call counts a view, also when the answer is a few seconds old. */
  async bySlug(slug: string): Promise<PostResponseDto> {
    const post = await this.postsBySlug.remember(slug, () => this.loadBySlug(slug));
    this.views.record(post.id);
    return post;
  }

  private async loadBySlug(slug: string): Promise<PostResponseDto> {
    // One round trip: the post, its author's public columns and its active tags.
    const [row] = (await this.dataSource.query(
      `SELECT ${POST_COLUMNS}, ${ACTIVE_TAGS_JSON} AS tags
         FROM posts p JOIN users u ON u.id = p.author_id
        WHERE p.slug = $1 AND p.status = 'PUBLISHED'`,
      [slug],
    )) as (PostForAnswer & { tags: TagRefDto[] })[];
    if (!row) throw new NotFoundException(PostsMessages.notFoundBySlug(slug));
    return toPostResponse(row, row.tags, false);
  }

  byTag(tagSlug: string, query: PostTagQueryDto): Promise<Page<PostCardResponseDto>> {
    const key = `tag:${tagSlug}:${query.page}:${query.size}:${query.sort ?? ''}`;
    return this.remembered(key, () => this.loadByTag(tagSlug, query));
  }

  private async loadByTag(tagSlug: string, query: PostTagQueryDto): Promise<Page<PostCardResponseDto>> {
    const tag = await this.tags.findActiveBySlug(tagSlug);
    if (!tag) throw new NotFoundException(PostsMessages.tagNotFound(tagSlug));
    const [field, direction] = (query.sort ?? 'publishedAt,desc').split(',');
    const dir = (direction ?? 'desc').toLowerCase() === 'asc' ? 'ASC' : 'DESC';
    const order = `${SORT_COLUMNS[field] ?? SORT_COLUMNS.publishedAt} ${dir} NULLS LAST, p.id ${dir}`;
    const [cards, total] = await Promise.all([
      this.cardsPage(
        `FROM post_tags pt JOIN posts p ON p.id = pt.post_id WHERE pt.tag_id = $1 AND p.status = 'PUBLISHED'`,
        order,
        [tag.id],
        query.size,
        query.page * query.size,
      ),
      this.publishedTotal(
        `tag:${tag.id}`,
        `SELECT count(*)::int AS total FROM post_tags pt JOIN posts p ON p.id = pt.post_id WHERE pt.tag_id = $1 AND p.status = 'PUBLISHED'`,
        [tag.id],
      ),
    ]);
    return toPage(cards, total, query.page, query.size);
  }

  async sitemap(): Promise<SitemapResponseDto> {
    const [posts, tags] = await Promise.all([
      this.dataSource.query(`SELECT slug, updated_at FROM posts WHERE status = 'PUBLISHED' ORDER BY published_at DESC, id DESC`) as Promise<
        { slug: string; updated_at: Date }[]
      >,
      this.dataSource.query(
        `SELECT t.slug, GREATEST(t.updated_at, max(p.updated_at)) AS updated_at
           FROM tags t JOIN post_tags pt ON pt.tag_id = t.id JOIN posts p ON p.id = pt.post_id
          WHERE t.is_active = true AND p.status = 'PUBLISHED'
          GROUP BY t.id ORDER BY t.slug`,
      ) as Promise<{ slug: string; updated_at: Date }[]>,
    ]);
    const entry = (row: { slug: string; updated_at: Date }) => ({ slug: row.slug, updatedAt: row.updated_at.toISOString() });
    return { posts: posts.map(entry), tags: tags.map(entry) };
  }

  /** Users holding AUTHOR (active accounts) with at least one published post, most published first. */
  async authors(): Promise<AuthorSummaryDto[]> {
    const rows = (await this.dataSource.query(
      `SELECT u.id, u.full_name, u.avatar, u.bio, count(p.id)::int AS post_count,
              COALESCE(sum(p.like_count), 0)::int AS total_likes, max(p.published_at) AS latest_post_at
         FROM users u JOIN posts p ON p.author_id = u.id AND p.status = 'PUBLISHED'
        WHERE u.status = 'ACTIVE'
          AND EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id AND r.name = $1)
        GROUP BY u.id
        ORDER BY post_count DESC, latest_post_at DESC, u.id`,
      [RoleName.AUTHOR],
    )) as { id: number; full_name: string; avatar: string | null; bio: string | null; post_count: number; total_likes: number; latest_post_at: Date | null }[];
    return rows.map((row) => ({
      id: row.id,
      fullName: row.full_name,
      avatar: row.avatar,
      bio: row.bio,
      postCount: row.post_count,
      totalLikes: row.total_likes,
      latestPostAt: row.latest_post_at ? row.latest_post_at.toISOString() : null,
    }));
  }

  private remembered<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.lists.remember(key, load) as Promise<T>;
  }

  private publishedTotal(key: string, sql: string, params: unknown[]): Promise<number> {
    let total = this.publishedTotals.get(key);
    if (!total) {
      total = (this.dataSource.query(sql, params) as Promise<{ total: number }[]>).then((rows) => rows[0].total);
      // A failed count is not kept: the next request asks again.
      total.catch(() => this.publishedTotals.delete(key));
      this.publishedTotals.set(key, total);
    }
    return total;
  }

  /**
   * One page of cards in one round trip: the page's ids come from an index first (so deep pages
   * cost about as much as the first), then their card columns and active tags.
   * `from` must alias posts as `p`; `order` sorts by columns of `p`.
   */
  private async cardsPage(from: string, order: string, params: unknown[], limit: number, offset: number): Promise<PostCardResponseDto[]> {
    const n = params.length;
    const rows = (await this.dataSource.query(
      `WITH page AS (SELECT p.id ${from} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2})
       SELECT ${CARD_COLUMNS}, ${ACTIVE_TAGS_JSON} AS tags
         FROM page JOIN posts p ON p.id = page.id JOIN users u ON u.id = p.author_id
        ORDER BY ${order}`,
      [...params, limit, offset],
    )) as (PostCardRow & { tags: TagRefDto[] })[];
    return rows.map((row) => toPostCard(row, row.tags));
  }
}
