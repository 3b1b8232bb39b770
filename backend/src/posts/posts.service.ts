import { BadRequestException, ConflictException, ForbiddenException, Injectable, NotFoundException, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { ContentEvents } from '../common/content-events';
import { isUniqueViolation } from '../common/database-errors';
import { MicroCache } from '../common/micro-cache';
import { toPage } from '../common/pagination/page';
import type { SortDirection } from '../common/pagination/sort';
import { TagsService } from '../tags/tags.service';
import { ROLE_RANK, RoleName } from '../users/roles';
import { User } from '../users/entities/user.entity';
import { PostAdminQueryDto, PostMineQueryDto, PostSaveDto } from './dto/post-input.dto';
import { MyPostCountsDto, PostAdminPageDto, PostResponseDto } from './dto/post-response.dto';
import { PostTag } from './entities/post-tag.entity';
import { POST_STATUSES, Post, PostStatus } from './entities/post.entity';
import { readingTimeOfWords, renderMarkdown, wordCountOf } from '../common/markdown';
import { type PostListRow, toPostListItem, toPostResponse } from './post.mapper';
import { PostsMessages } from './posts.messages';
import { PostListFilter, PostsRepository } from './posts.repository';
import { recordSlugChange } from '../common/slug-history';
import { SLUG_PATTERN, slugify } from '../../../isomorphic/slug';
import { DomainEvents, EventTransaction } from '../events/domain-events.service';
import { RevisionKind } from '../revisions/entities/post-revision.entity';
import { RevisionsService } from '../revisions/revisions.service';
import { HistoricDates, PostLifecycle, StaleVersion, stateOf } from './lifecycle/post-lifecycle.service';
import { oldPathKey } from './old-path';
import { PostAction, allowedActions } from './lifecycle/post-transitions';

/** A historic post as a site import gives it (WordPress, Ghost, an Inkwell export): Markdown, its source's status, dates and slug. */
export interface HistoricPostInput {
  title: string;
  /** The source's slug: kept when it is valid and free, else derived (the import reports the rename). */
  slug: string | null;
  summary: string | null;
  content: string;
  status: PostStatus;
  authorId: number;
  tagIds: number[];
  thumbnail: string | null;
  isFeatured?: boolean;
  seo?: Partial<Pick<Post, 'metaTitle' | 'metaDescription' | 'canonicalUrl' | 'noindex' | 'socialImage'>>;
  dates: HistoricDates;
  /** The post's paths on its former site: each answers 301 to its page here. */
  oldPaths?: string[];
  /** Slugs it had before here (an Inkwell export's slug history): /blog/{old} answers 301. */
  earlierSlugs?: string[];
}

export type SaveMode = 'admin' | 'author';

export interface SaveResult {
  post: PostResponseDto;
  /** Requested tag slugs that are unknown or inactive (not attached). */
  skippedTags: string[];
}

type PostWithAuthor = Post & { author: User };

/** How a save is checked and kept: the version it was based on (undefined: no check) and its revision's kind. */
interface SaveOptions {
  expectedVersion?: number;
  revisionKind: RevisionKind.SAVE | RevisionKind.RESTORED;
}

/** Changes to a post's counters: `{ likes: +1 }`, `{ comments: -1 }` (views are batched by PostViewsService). */
export interface PostCounterDeltas {
  likes?: number;
  comments?: number;
}

export interface PostCounters {
  likeCount: number;
  commentCount: number;
}

const isAdmin = (user: AuthUser): boolean => user.role === RoleName.ADMIN;
const isAuthor = (user: AuthUser): boolean => ROLE_RANK[user.role] >= ROLE_RANK[RoleName.AUTHOR];

/**
 * Who `user` acts as on `post` through the `mode` endpoints, or 403: the admin endpoints let an
 * admin act on any post; the author endpoints act for the post's author only, whatever the
 * caller's role. The one ownership rule of every edit (save, submit).
 */
function actingAs(post: Pick<Post, 'authorId'>, user: AuthUser, mode: SaveMode): 'admin' | 'author' {
  if (mode === 'admin' && isAdmin(user)) return 'admin';
  if (post.authorId === user.id) return 'author';
  throw new ForbiddenException(PostsMessages.FORBIDDEN_UPDATE);
}

function fieldError(field: string, message: string): BadRequestException {
  return new BadRequestException({ message, errors: { [field]: [message] } });
}

/** 409 for a used slug, naming the field so the editor shows it there. */
function slugTaken(slug: string): ConflictException {
  const message = PostsMessages.slugTaken(slug);
  return new ConflictException({ message, errors: { slug: [message] } });
}

/** How long a back-office filter's total is reused by its pages (dropped at once on every post change notice). */
export const ADMIN_POST_TOTAL_TTL_MS = 5_000;
/** Distinct filters whose totals are held (searches make many; when full the cache starts over). */
const ADMIN_POST_TOTAL_ENTRIES = 256;

/** The authenticated post rules: who may read, create, edit, delete and submit which post. */
@Injectable()
export class PostsService implements OnModuleDestroy {
  /**
   * The back-office list's total per filter (status, search), held 5 s: counting a status reads
   * every entry of it (80,000 at 100,000 posts) while a page reads ten. Dropped on every post
   * change notice (a post created, edited, deleted or moved between statuses, public or not: the
   * PostCacheSubscriber's `post` and `unpublished-post`, on every instance through the relay) and
   * on a resync; a page whose row count does not fit its held total is answered with a fresh count.
   */
  private readonly adminTotals = new MicroCache<number>(ADMIN_POST_TOTAL_TTL_MS, ADMIN_POST_TOTAL_ENTRIES);
  private readonly stopListening: () => void;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Post) private readonly posts: Repository<Post>,
    private readonly repository: PostsRepository,
    private readonly tags: TagsService,
    private readonly events: DomainEvents,
    private readonly lifecycle: PostLifecycle,
    private readonly revisions: RevisionsService,
    contentEvents: ContentEvents,
  ) {
    this.stopListening = contentEvents.onChange((change) => {
      if (change.kind === 'post' || change.kind === 'unpublished-post' || change.kind === 'resync') this.adminTotals.clear();
    });
  }

  onModuleDestroy(): void {
    this.stopListening();
  }

  /** Admin: any post; its author: their own; others 403 (readers before any lookup). */
  async get(id: number, user: AuthUser): Promise<PostResponseDto> {
    return this.toResponse(await this.findReadable(id, user), user);
  }

  /** As findReadable, reading only the post's author (for answers about the post's revisions). */
  async assertReadable(id: number, user: AuthUser): Promise<void> {
    if (user.role === RoleName.USER) throw new ForbiddenException(PostsMessages.FORBIDDEN_ACCESS);
    const post = await this.posts.findOne({ where: { id }, select: { id: true, authorId: true } });
    if (!post) throw new NotFoundException(PostsMessages.notFoundById(id));
    if (!isAdmin(user) && post.authorId !== user.id) throw new ForbiddenException(PostsMessages.FORBIDDEN_ACCESS);
  }

  /** The post if `user` may read it as an editor (admins any; its author their own; readers 403 before any lookup; unknown 404). */
  async findReadable(id: number, user: AuthUser): Promise<PostWithAuthor> {
    if (user.role === RoleName.USER) throw new ForbiddenException(PostsMessages.FORBIDDEN_ACCESS);
    const post = await this.findOrFail(id);
    if (!isAdmin(user) && post.authorId !== user.id) throw new ForbiddenException(PostsMessages.FORBIDDEN_ACCESS);
    return post;
  }

  /** The back-office list (admins): any status, search, sort. */
  listAll(query: PostAdminQueryDto, admin: AuthUser): Promise<PostAdminPageDto> {
    return this.listPage(
      { status: query.status, search: query.search },
      query.page,
      query.size,
      query.sortBy ?? 'createdAt',
      query.sortDir ?? 'desc',
      admin,
      'admin',
    );
  }

  /** The caller's own posts, newest first, optionally of one status. */
  listMine(query: PostMineQueryDto, user: AuthUser): Promise<PostAdminPageDto> {
    return this.listPage({ authorId: user.id, status: query.status }, query.page, query.size, 'createdAt', 'desc', user, 'author');
  }

  /** How many of the caller's posts each status holds, read at once (My Posts' filters and cards). */
  async countMine(user: AuthUser): Promise<MyPostCountsDto> {
    const counts = await this.repository.countByStatusOfAuthor(user.id);
    const byStatus = Object.fromEntries(POST_STATUSES.map((status) => [status, counts.get(status) ?? 0])) as Record<PostStatus, number>;
    return { ...byStatus, total: POST_STATUSES.reduce((sum, status) => sum + byStatus[status], 0) };
  }

  async create(dto: PostSaveDto, user: AuthUser, mode: SaveMode): Promise<SaveResult> {
    return this.save(null, dto, user, mode, { revisionKind: RevisionKind.SAVE });
  }

  /** `ifMatch`: the version from an If-Match header; the body's `version` wins. Neither: no version check (spec clients). */
  async update(
    id: number,
    dto: PostSaveDto,
    user: AuthUser,
    mode: SaveMode,
    ifMatch?: number,
    revisionKind = RevisionKind.SAVE as SaveOptions['revisionKind'],
  ): Promise<SaveResult> {
    const post = await this.findOrFail(id);
    actingAs(post, user, mode);
    return this.save(post, dto, user, mode, { expectedVersion: dto.version ?? ifMatch, revisionKind });
  }

  /**
   * Saves a revision's text (title, summary, body, tags, thumbnail, SEO) as the post's, by the
   * same rules as an update by `user` (authors: DRAFT and REJECTED posts only); kept as a RESTORED revision.
   */
  async restore(id: number, revisionId: number, version: number | undefined, user: AuthUser): Promise<SaveResult> {
    await this.assertReadable(id, user);
    const revision = await this.revisions.get(id, revisionId);
    const dto: PostSaveDto = {
      title: revision.title,
      summary: revision.summary,
      content: revision.content,
      tagSlugs: revision.tagSlugs,
      thumbnail: revision.thumbnail,
      ...revision.seo,
      version,
    };
    return this.update(id, dto, user, isAdmin(user) ? 'admin' : 'author', undefined, RevisionKind.RESTORED);
  }

  /** Admin: any post; its author: own DRAFT or REJECTED posts only. */
  async remove(id: number, user: AuthUser): Promise<void> {
    const post = await this.findOrFail(id);
    const kind = isAdmin(user) ? 'admin' : post.authorId === user.id && isAuthor(user) ? 'author' : undefined;
    if (!kind || !this.lifecycle.allows(post, { type: 'delete' }, kind)) throw new ForbiddenException(PostsMessages.FORBIDDEN_DELETE);
    await this.lifecycle.apply(id, { type: 'delete' }, { kind, user });
  }

  /**
   * DRAFT or REJECTED → PENDING_REVIEW, by the post's author only (an author endpoint: an admin
   * gets the same 403 as on PUT /blog/posts/author/{id}); `requestedPublishAt` (checked by the
   * caller) replaces any earlier request.
   */
  async submitForReview(id: number, user: AuthUser, requestedPublishAt: Date | null = null): Promise<PostResponseDto> {
    const post = await this.findOrFail(id);
    const kind = actingAs(post, user, 'author');
    await this.lifecycle.apply(id, { type: 'submit' }, { kind, user }, { requestedPublishAt });
    return this.toResponse(await this.findOrFail(id), user, 'author');
  }

  /**
   * The whole post with its author's e-mail and every tag (for authenticated answers); with a
   * `viewer`, what they may do with it (`allowedActions`) through the admin or the author endpoints (`mode`).
   */
  async toResponse(post: PostWithAuthor, viewer?: AuthUser, mode?: SaveMode): Promise<PostResponseDto> {
    const tags = await this.repository.tagsOfPosts([post.id], false);
    const answer = toPostResponse(post, tags.get(post.id) ?? [], true);
    return viewer ? { ...answer, allowedActions: this.allowedActionsFor(post, viewer, mode) } : answer;
  }

  /**
   * The lifecycle's answer to "what may `viewer` do with this post": an admin as an admin (through
   * the admin endpoints, the default for admins), its author as its author, others nothing.
   */
  allowedActionsFor(
    post: Pick<Post, 'status' | 'scheduledAt' | 'authorId'>,
    viewer: AuthUser,
    mode: SaveMode = isAdmin(viewer) ? 'admin' : 'author',
  ): PostAction[] {
    const own = post.authorId === viewer.id;
    if (mode === 'admin' && isAdmin(viewer)) return allowedActions(stateOf(post), 'admin', own);
    return own && isAuthor(viewer) ? allowedActions(stateOf(post), 'author') : [];
  }

  async findOrFail(id: number, manager?: EntityManager): Promise<PostWithAuthor> {
    const post = await (manager ?? this.dataSource.manager)
      .createQueryBuilder(Post, 'post')
      .innerJoin('post.author', 'author')
      .addSelect(['author.id', 'author.fullName', 'author.email', 'author.avatar', 'author.bio', 'author.slug'])
      .where('post.id = :id', { id })
      .getOne();
    if (!post) throw new NotFoundException(PostsMessages.notFoundById(id));
    return post as PostWithAuthor;
  }

  /**
   * Adds to the post's like and comment counters inside the caller's transaction (pass the
   * EntityManager of the transaction that inserts or deletes the like/comment row). One atomic
   * UPDATE: concurrent callers never lose a count, and a counter never goes below 0. Does not
   * touch updated_at. Returns the new counts; 404 when the post does not exist.
   */
  async adjustCounters(manager: EntityManager, postId: number, deltas: PostCounterDeltas): Promise<PostCounters> {
    const counts = await this.repository.addToCounters(manager, postId, Math.trunc(deltas.likes ?? 0), Math.trunc(deltas.comments ?? 0));
    if (!counts) throw new NotFoundException(PostsMessages.notFoundById(postId));
    return counts;
  }

  /**
   * An erased account's likes leave their posts' like_count, one per post, in the caller's
   * transaction (which has locked those posts in id order): the bulk form of adjustCounters.
   */
  async dropOneLikeEach(manager: EntityManager, postIds: readonly number[]): Promise<void> {
    if (postIds.length)
      await manager.query(`UPDATE posts SET like_count = GREATEST(like_count - 1, 0) WHERE id = ANY($1::int[])`, [postIds]);
  }

  /**
   * An erased author's published posts are given to the 'Former author' placeholder,
   * in the caller's transaction; status, dates, counters and text stay. Authorship is no status:
   * the post lifecycle is not involved (the erasure's `user.deleted` drops every cache).
   */
  async reassignAuthor(manager: EntityManager, postIds: readonly number[], toAuthorId: number): Promise<void> {
    if (postIds.length) await manager.query(`UPDATE posts SET author_id = $2 WHERE id = ANY($1::int[])`, [postIds, toAuthorId]);
  }

  /** One page of a list (every column but the bodies, the author's name and e-mail, every tag) and the filter's total. */
  private async listPage(
    filter: PostListFilter,
    page: number,
    size: number,
    sortBy: string,
    sortDir: SortDirection,
    viewer: AuthUser,
    mode: SaveMode,
  ): Promise<PostAdminPageDto> {
    const [rows, total] = await this.rowsAndTotal(filter, page * size, size, sortBy, sortDir);
    const items = rows.map((row) => ({ ...toPostListItem(row), allowedActions: this.allowedActionsFor(row, viewer, mode) }));
    const result = toPage(items, total, page, size);
    return { ...result, posts: items, currentPage: result.number };
  }

  /**
   * A page's rows and the filter's total: counted with the page for an author's own list; held
   * per filter for the back office (`adminTotals`), recounted when the page does not fit it (a
   * change whose notice has not arrived yet).
   */
  private async rowsAndTotal(
    filter: PostListFilter,
    offset: number,
    size: number,
    sortBy: string,
    sortDir: SortDirection,
  ): Promise<[PostListRow[], number]> {
    const rows = this.repository.listPage(filter, sortBy, sortDir, size, offset);
    if (filter.authorId !== undefined) return Promise.all([rows, this.repository.countList(filter)]);
    const key = JSON.stringify([filter.status ?? null, filter.search ?? null]);
    const fits = (count: number, total: number) => count === Math.max(0, Math.min(size, total - offset));
    const [page, held] = await Promise.all([rows, this.adminTotals.remember(key, () => this.repository.countList(filter))]);
    if (fits(page.length, held)) return [page, held];
    this.adminTotals.delete(key);
    const total = await this.adminTotals.remember(key, () => this.repository.countList(filter));
    // The page was read before the fresh count: read again if it does not fit the new total either.
    return fits(page.length, total) ? [page, total] : [await this.repository.listPage(filter, sortBy, sortDir, size, offset), total];
  }

  /**
   * One save path for create and update. Checks in the spec's order (title, content, slug, slug
   * format), then the status rules, then writes the post and its tags in one transaction.
   */
  private async save(
    existing: PostWithAuthor | null,
    dto: PostSaveDto,
    user: AuthUser,
    mode: SaveMode,
    options: SaveOptions,
  ): Promise<SaveResult> {
    const title = dto.title === undefined ? existing?.title : dto.title;
    if (!title) throw fieldError('title', PostsMessages.TITLE_REQUIRED);
    const content = dto.content === undefined ? existing?.content : dto.content;
    if (!content) throw fieldError('content', PostsMessages.CONTENT_REQUIRED);
    if (dto.slug !== undefined && dto.slug !== null) {
      if (!dto.slug) throw fieldError('slug', PostsMessages.SLUG_REQUIRED);
      if (!SLUG_PATTERN.test(dto.slug)) throw fieldError('slug', PostsMessages.SLUG_INVALID);
    } else if (existing && dto.slug === null) {
      throw fieldError('slug', PostsMessages.SLUG_REQUIRED);
    }

    const asAdmin = mode === 'admin' && isAdmin(user);
    const actor = { kind: asAdmin ? 'admin' : 'author', user } as const;
    // Checked before the tags are read (the rule's 409 comes first), and again under the row's lock.
    const saveCommand = { type: 'save', to: asAdmin ? dto.status : undefined } as const;
    this.lifecycle.check(existing ?? { status: PostStatus.DRAFT, scheduledAt: null }, saveCommand, actor.kind);

    const requested = dto.tagSlugs === undefined ? undefined : [...new Set(dto.tagSlugs.filter(Boolean))];
    const tags = requested ? await this.tags.findActiveBySlugs(requested) : [];
    const skippedTags = requested ? requested.filter((slug) => !tags.some((tag) => tag.slug === slug)) : [];

    const summary = dto.summary === undefined ? (existing?.summary ?? null) : dto.summary;
    const thumbnail = dto.thumbnail === undefined ? (existing?.thumbnail ?? null) : dto.thumbnail;
    const isFeatured = asAdmin && dto.isFeatured !== undefined ? dto.isFeatured : (existing?.isFeatured ?? false);
    const seo = {
      metaTitle: dto.metaTitle === undefined ? (existing?.metaTitle ?? null) : dto.metaTitle,
      metaDescription: dto.metaDescription === undefined ? (existing?.metaDescription ?? null) : dto.metaDescription,
      canonicalUrl: dto.canonicalUrl === undefined ? (existing?.canonicalUrl ?? null) : dto.canonicalUrl,
      noindex: dto.noindex ?? existing?.noindex ?? false,
      socialImage: dto.socialImage === undefined ? (existing?.socialImage ?? null) : dto.socialImage,
    };
    const contentChanged = !existing || existing.content !== content;
    // Rendered before the transaction: the post's row is locked inside it, and other saves of the post wait for that lock.
    const wordCount = wordCountOf(content);
    const rendered: Partial<Post> = contentChanged
      ? { contentHtml: renderMarkdown(content), wordCount, readingTime: readingTimeOfWords(wordCount) }
      : {};

    let savedId: number;
    try {
      savedId = await this.events.transaction(async (tx) => {
        const { manager } = tx;
        const slug = dto.slug ?? existing?.slug ?? (await this.freeSlug(manager, slugify(title) || 'post'));
        if (dto.slug) {
          if (await this.repository.slugTaken(manager, slug, existing?.id ?? 0)) throw slugTaken(slug);
        }
        // Only the edited columns are written: counters (views are flushed in batches) stay untouched.
        const columns: Partial<Post> = { title, slug, summary, content, thumbnail, isFeatured, ...seo, ...rendered };
        const alsoWrite = async (postId: number) => {
          await recordSlugChange(manager, 'post', postId, existing?.slug, slug);
          if (requested) {
            await manager.delete(PostTag, { postId });
            if (tags.length)
              await manager.insert(
                PostTag,
                tags.map((tag) => ({ postId, tagId: tag.id })),
              );
          }
        };
        const saved = existing
          ? (await this.lifecycle.transition(tx, existing.id, saveCommand, actor, {
              columns,
              expectedVersion: options.expectedVersion,
              revisionKind: options.revisionKind,
              alsoWrite,
            }))!.id
          : await this.lifecycle.create(tx, { ...columns, authorId: user.id }, saveCommand.to, actor, alsoWrite);
        return saved;
      });
    } catch (error) {
      if (error instanceof StaleVersion && existing) {
        throw new ConflictException({
          message: PostsMessages.VERSION_CONFLICT,
          data: { current: await this.toResponse(await this.findOrFail(existing.id), user), yours: { ...dto } },
        });
      }
      if (isUniqueViolation(error)) throw slugTaken(dto.slug ?? slugify(title));
      throw error;
    }

    return { post: await this.toResponse(await this.findOrFail(savedId), user, mode), skippedTags };
  }

  /**
   * Writes a historic post (a site import, run by `admin` inside DomainEvents.asHistoric) in the
   * caller's transaction: the same Markdown rendering and slug rules as a save, its source's status
   * and dates through the lifecycle's createHistoric, its tags, its former paths and slugs. Answers
   * its id and slug, and the source's slug when it had to change (taken or not a valid slug).
   */
  async createHistoric(
    tx: EventTransaction,
    input: HistoricPostInput,
    admin: AuthUser,
  ): Promise<{ id: number; slug: string; renamedFrom: string | null; oldPathsKept: number; oldPathsTaken: string[] }> {
    const { manager } = tx;
    const wanted = input.slug?.toLowerCase() ?? null;
    const usable =
      wanted !== null && wanted.length <= 200 && SLUG_PATTERN.test(wanted) && !(await this.repository.slugTaken(manager, wanted, 0));
    const slug = usable ? wanted : await this.freeSlug(manager, slugify(wanted || input.title) || 'post');
    const wordCount = wordCountOf(input.content);
    const columns: Partial<Post> = {
      title: input.title,
      slug,
      summary: input.summary,
      content: input.content,
      contentHtml: renderMarkdown(input.content),
      wordCount,
      readingTime: readingTimeOfWords(wordCount),
      thumbnail: input.thumbnail,
      isFeatured: input.isFeatured ?? false,
      ...input.seo,
      authorId: input.authorId,
    };
    const id = await this.lifecycle.createHistoric(tx, columns as Partial<Post> & { authorId: number }, input.status, input.dates, {
      kind: 'admin',
      user: admin,
    });
    await recordSlugChange(manager, 'post', id, undefined, slug);
    for (const earlier of input.earlierSlugs ?? [])
      if (earlier !== slug && SLUG_PATTERN.test(earlier)) await recordSlugChange(manager, 'post', id, earlier, slug);
    if (input.tagIds.length)
      await manager.insert(
        PostTag,
        [...new Set(input.tagIds)].map((tagId) => ({ postId: id, tagId })),
      );
    const oldPaths = [...new Set((input.oldPaths ?? []).map(oldPathKey).filter((path): path is string => path !== null))];
    const oldPathsTaken = await this.repository.addOldPaths(manager, id, oldPaths);
    return {
      id,
      slug,
      renamedFrom: input.slug !== null && input.slug !== slug ? input.slug : null,
      oldPathsKept: oldPaths.length - oldPathsTaken.length,
      oldPathsTaken,
    };
  }

  /** `base`, or `base-2`, `base-3`... whichever is free (docs/requirements.md#slugs derivation, made unique). */
  private async freeSlug(manager: EntityManager, base: string): Promise<string> {
    const root = base.slice(0, 190).replace(/-+$/, '') || 'post';
    const used = new Set(await this.repository.slugsStartingWith(manager, root));
    if (!used.has(root)) return root;
    for (let n = 2; ; n += 1) if (!used.has(`${root}-${n}`)) return `${root}-${n}`;
  }
}
