import { Inject, Injectable, NotFoundException, OnModuleDestroy } from '@nestjs/common';
import { ContentChange, ContentEvents } from '../common/content-events';
import { MicroCache } from '../common/micro-cache';
import { APP_CONFIG, AppConfig } from '../config/env';
import { Page, toPage } from '../common/pagination/page';
import { SLUG_PATTERN } from '../../../isomorphic/slug';
import { SITEMAP_ENTRY_KINDS, type SitemapEntryKind } from '../../../isomorphic/sitemap';
import { TagsService } from '../tags/tags.service';
import { PostTagQueryDto } from './dto/post-input.dto';
import {
  AuthorProfileDto,
  AuthorSummaryDto,
  PostCardResponseDto,
  PostMovedDto,
  PostResponseDto,
  PublicAuthorDto,
  SitemapFileDto,
  SitemapIndexDto,
} from './dto/post-response.dto';
import { PostCardWithTags, toPostCard, toPostResponse } from './post.mapper';
import { PostViewsService } from '../post-views/post-views.service';
import { oldPathKey } from './old-path';
import { PostsMessages } from './posts.messages';
import { PostsRepository, PublicAuthorRow } from './posts.repository';

const LATEST_STORIES = 6;
/**
 * Public answers are the same for every reader: each is kept this long at most, so a burst of
 * readers makes one query. Changes drop the exact answers that show them before the writer
 * answers (dropStale); the time limit is a backstop (and bounds how old view counts get).
 */
const ANSWER_TTL_MS = 5_000;
const LIST_CACHE_ENTRIES = 500;
/** Whole posts are larger (Markdown and HTML, ~40 KB at 1,200 words): fewer of them. */
const POST_CACHE_ENTRIES = 200;
const AUTHOR_CACHE_ENTRIES = 200;
/**
 * The authors list (GET /blog/authors) groups every published post (345–690 ms at 100,000 posts)
 * and every /search render reads it for its author filter: held until a change drops it
 * (dropStale), this long at most.
 */
const AUTHORS_LIST_TTL_MS = 60_000;
/**
 * The sitemap index groups every published post, its tags and authors (about 0.3–0.9 s each at
 * 100,000 posts on a busy machine) and both /sitemap.xml and /sitemap-pages.xml read it: held
 * until a change drops it (dropStale), this long at most.
 */
const SITEMAP_INDEX_TTL_MS = 60_000;
/** users.slug is at most 112 characters (migration AddUserSlugs): longer ones are unknown without a query. */
const AUTHOR_SLUG_MAX = 112;

/** What anonymous readers see: only PUBLISHED posts, never an e-mail (queries in PostsRepository). */
const cards = (rows: PostCardWithTags[]): PostCardResponseDto[] => rows.map((row) => toPostCard(row, row.tags));

const publicAuthor = (row: PublicAuthorRow): PublicAuthorDto => ({
  id: row.id,
  slug: row.slug,
  fullName: row.full_name,
  avatar: row.avatar,
  bio: row.bio,
  postCount: row.post_count,
  totalLikes: row.total_likes,
});

/** A held list answer: the latest stories (cards) or a page of cards. */
type ListAnswer = PostCardResponseDto[] | Page<PostCardResponseDto>;
const cardsOf = (answer: ListAnswer): PostCardResponseDto[] => (Array.isArray(answer) ? answer : answer.content);
/** The card field a counter change can reorder a tag list by (`tag:{slug}:{page}:{size}:{field},{dir}` keys). */
const SORTED_BY: Record<'likes' | 'comments', string> = { likes: ':likeCount,', comments: ':commentCount,' };

@Injectable()
export class PostsPublicService implements OnModuleDestroy {
  /**
   * Published totals (all, and per tag) change only when posts are published or unpublished, or a
   * tag changes: kept here until then, instead of a count(*) per list request.
   */
  private publishedTotals = new Map<string, Promise<number>>();
  /** Recently answered public list pages (by `list:`, `latest`, `tag:` key) and posts (by slug). */
  private readonly lists = new MicroCache<ListAnswer>(ANSWER_TTL_MS, LIST_CACHE_ENTRIES);
  private readonly postsBySlug = new MicroCache<PostResponseDto>(ANSWER_TTL_MS, POST_CACHE_ENTRIES);
  /** Author profiles by slug (their totals: published posts and likes). */
  private readonly authorsBySlug = new MicroCache<AuthorProfileDto>(ANSWER_TTL_MS, AUTHOR_CACHE_ENTRIES);
  /** The authors list (one entry): the same changes drop it as the profiles (counts, like totals, who qualifies). */
  private readonly authorsList = new MicroCache<AuthorSummaryDto[]>(AUTHORS_LIST_TTL_MS, 1);
  /** The sitemap index (one entry): dropped by every change the page cache drops the sitemap for. */
  private readonly sitemapIndexAnswer = new MicroCache<SitemapIndexDto>(SITEMAP_INDEX_TTL_MS, 1);
  private readonly stopListening: () => void;

  constructor(
    private readonly repository: PostsRepository,
    private readonly tags: TagsService,
    private readonly views: PostViewsService,
    contentEvents: ContentEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.stopListening = contentEvents.onChange((change) => this.dropStale(change));
  }

  /**
   * Drops the held answers a change makes stale, synchronously (a writer's next read sees its
   * write). A post's publication, edit or withdrawal can move any list (membership, order,
   * totals): the lists and that post. A like or comment count: that post, the lists whose cards
   * show it (cards carry both counts) and the tag lists sorted by that count (the post may move
   * into them). A tag: it shows on cards and posts that the held answers may not show yet (an
   * activation), so every list and post. An account's name, bio or avatar: the cards and posts
   * by that author. Author profiles and the authors list (counts, like totals, who qualifies) drop
   * on any post, like or account change; an account's other changes (a ban, roles) also drop the
   * author post lists. The sitemap index (posts, tags, authors and their dates): any post, tag or
   * account change.
   */
  private dropStale(change: ContentChange): void {
    if (change.kind === 'post' || change.kind === 'tag' || change.kind === 'user' || change.kind === 'resync')
      this.sitemapIndexAnswer.clear();
    if (
      change.kind === 'post' ||
      change.kind === 'user' ||
      change.kind === 'resync' ||
      (change.kind === 'post-counters' && change.counter === 'likes')
    ) {
      this.authorsList.clear();
    }
    if (change.kind === 'post' || change.kind === 'user' || (change.kind === 'post-counters' && change.counter === 'likes'))
      this.authorsBySlug.clear();
    switch (change.kind) {
      case 'post':
        this.publishedTotals.clear();
        this.lists.clear();
        for (const slug of change.slugs) this.postsBySlug.delete(slug);
        return;
      case 'post-counters': {
        this.postsBySlug.delete(change.slug);
        const sortedBy = SORTED_BY[change.counter];
        this.lists.deleteWhere((key, answer) => key.includes(sortedBy) || cardsOf(answer).some((card) => card.id === change.postId));
        return;
      }
      case 'user':
        if (!change.profileChanged) {
          this.lists.deleteWhere((key) => key.startsWith('author:'));
          return;
        }
        this.lists.deleteWhere((_key, answer) => cardsOf(answer).some((card) => card.authorId === change.userId));
        this.postsBySlug.deleteWhere((_slug, post) => post.userId === change.userId);
        return;
      case 'tag':
      case 'resync':
        this.publishedTotals.clear();
        this.lists.clear();
        this.postsBySlug.clear();
        this.authorsBySlug.clear();
    }
  }

  onModuleDestroy(): void {
    this.stopListening();
  }

  list(page: number, size: number): Promise<Page<PostCardResponseDto>> {
    return this.remembered(`list:${page}:${size}`, () => this.loadList(page, size));
  }

  private async loadList(page: number, size: number): Promise<Page<PostCardResponseDto>> {
    const [rows, total] = await Promise.all([
      this.repository.publishedCards(size, page * size),
      this.publishedTotal('all', () => this.repository.countPublished()),
    ]);
    return toPage(cards(rows), total, page, size);
  }

  latest(): Promise<PostCardResponseDto[]> {
    return this.remembered('latest', async () => cards(await this.repository.publishedCards(LATEST_STORIES, 0)));
  }

  /**
   * The whole published post; every call counts one view (PostViewsService.count), also when the
   * answer is held: the API endpoint and every rendered post page read the post here.
   */
  async bySlug(slug: string): Promise<PostResponseDto> {
    const post = await this.postsBySlug.remember(slug, () => this.loadBySlug(slug));
    this.views.count(post.id);
    return post;
  }

  private async loadBySlug(slug: string): Promise<PostResponseDto> {
    const row = await this.repository.findPublishedBySlug(slug);
    if (!row) throw new NotFoundException(PostsMessages.notFoundBySlug(slug));
    return toPostResponse(row, row.tags, false);
  }

  /**
   * The current slug of the published post that had `slug` before a change (`/blog/{old}` answers
   * 301 there); 404 like an unknown post otherwise. GET /blog/posts/public/{slug} keeps answering
   * 404 for old slugs: only the pages redirect.
   */
  async movedSlug(slug: string): Promise<PostMovedDto> {
    const current = SLUG_PATTERN.test(slug) && slug.length <= 200 ? await this.repository.currentSlugOf(slug) : undefined;
    if (!current) throw new NotFoundException(PostsMessages.notFoundBySlug(slug));
    return { slug: current };
  }

  /**
   * The current slug of the published post a former site's path leads to (an imported WordPress
   * post's `/2014/03/09/slug/`): the catch-all page answers 301 to it; 404 otherwise.
   */
  async movedPath(path: string): Promise<PostMovedDto> {
    const key = oldPathKey(path);
    const current = key ? await this.repository.slugOfOldPath(key) : undefined;
    if (!current) throw new NotFoundException(PostsMessages.notFoundBySlug(path));
    return { slug: current };
  }

  byTag(tagSlug: string, query: PostTagQueryDto): Promise<Page<PostCardResponseDto>> {
    const key = `tag:${tagSlug}:${query.page}:${query.size}:${query.sort ?? ''}`;
    return this.remembered(key, () => this.loadByTag(tagSlug, query));
  }

  private async loadByTag(tagSlug: string, query: PostTagQueryDto): Promise<Page<PostCardResponseDto>> {
    const tag = await this.tags.findActiveBySlug(tagSlug);
    if (!tag) throw new NotFoundException(PostsMessages.tagNotFound(tagSlug));
    const [field, direction] = (query.sort ?? 'publishedAt,desc').split(',');
    const [rows, total] = await Promise.all([
      this.repository.publishedCardsOfTag(
        tag.id,
        field,
        (direction ?? 'desc').toLowerCase() === 'asc' ? 'asc' : 'desc',
        query.size,
        query.page * query.size,
      ),
      this.publishedTotal(`tag:${tag.id}`, () => this.repository.countPublishedOfTag(tag.id)),
    ]);
    return toPage(cards(rows), total, query.page, query.size);
  }

  /**
   * The sitemap index: the static pages' file (its last change is the newest of all), then each
   * kind's numbered files with their last change (isomorphic/sitemap.ts).
   */
  sitemapIndex(): Promise<SitemapIndexDto> {
    return this.sitemapIndexAnswer.remember('index', () => this.loadSitemapIndex());
  }

  private async loadSitemapIndex(): Promise<SitemapIndexDto> {
    const files = await this.repository.sitemapFiles(this.postBase());
    const numbered = SITEMAP_ENTRY_KINDS.flatMap((kind) =>
      files[kind].map((row) => ({ kind, number: row.number, lastmod: row.lastmod.toISOString() })),
    );
    const newest = numbered.reduce<string | null>((max, file) => (max === null || file.lastmod > max ? file.lastmod : max), null);
    return { files: [{ kind: 'pages', number: 1, lastmod: newest }, ...numbered] };
  }

  /** One numbered sitemap file's addresses; 404 for another kind or a range that lists nothing. */
  async sitemapFile(kind: string, number: number): Promise<SitemapFileDto> {
    if (!(SITEMAP_ENTRY_KINDS as readonly string[]).includes(kind))
      throw new NotFoundException(PostsMessages.sitemapFileNotFound(kind, number));
    const rows = await this.repository.sitemapFile(kind as SitemapEntryKind, number, this.postBase());
    if (!rows.length) throw new NotFoundException(PostsMessages.sitemapFileNotFound(kind, number));
    return { entries: rows.map((row) => ({ slug: row.slug, updatedAt: row.updated_at.toISOString() })) };
  }

  /** Where posts' own pages start: a post canonical elsewhere is left out of the sitemap. */
  private postBase(): string {
    return `${this.config.publicUrl}/blog/`;
  }

  /** Users holding AUTHOR (active accounts) with at least one published post, most published first. */
  authors(): Promise<AuthorSummaryDto[]> {
    return this.authorsList.remember('all', () => this.loadAuthors());
  }

  private async loadAuthors(): Promise<AuthorSummaryDto[]> {
    const rows = await this.repository.authorSummaries();
    return rows.map((row) => ({ ...publicAuthor(row), latestPostAt: row.latest_post_at ? row.latest_post_at.toISOString() : null }));
  }

  /** A public author's profile: an active AUTHOR (or ADMIN) with at least one published post; 404 otherwise. */
  author(slug: string): Promise<AuthorProfileDto> {
    return this.authorsBySlug.remember(slug, async () => {
      const row = SLUG_PATTERN.test(slug) && slug.length <= AUTHOR_SLUG_MAX ? await this.repository.authorProfileBySlug(slug) : undefined;
      if (!row) throw new NotFoundException(PostsMessages.authorNotFound(slug));
      return { ...publicAuthor(row), joinedAt: row.created_at.toISOString() };
    });
  }

  /** A public author's published cards, newest first; 404 like author(). The total is the profile's post count. */
  authorPosts(slug: string, page: number, size: number): Promise<Page<PostCardResponseDto>> {
    return this.remembered(`author:${slug}:${page}:${size}`, async () => {
      const author = await this.author(slug);
      const rows = await this.repository.publishedCardsOfAuthor(author.id, size, page * size);
      return toPage(cards(rows), author.postCount, page, size);
    });
  }

  private remembered<T extends ListAnswer>(key: string, load: () => Promise<T>): Promise<T> {
    return this.lists.remember(key, load) as Promise<T>;
  }

  private publishedTotal(key: string, count: () => Promise<number>): Promise<number> {
    let total = this.publishedTotals.get(key);
    if (!total) {
      total = count();
      // A failed count is not kept: the next request asks again.
      total.catch(() => this.publishedTotals.delete(key));
      this.publishedTotals.set(key, total);
    }
    return total;
  }
}
