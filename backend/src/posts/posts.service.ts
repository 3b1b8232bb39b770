import { BadRequestException, ConflictException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { siteTimeFormatter } from '../common/site-time';
import { APP_CONFIG, AppConfig } from '../config/env';
import { AuditLinks, AuditType } from '../audit/audit.types';
import type { AuthUser } from '../common/auth-user';
import { ContentEvents } from '../common/content-events';
import { isUniqueViolation } from '../common/database-errors';
import { toPage } from '../common/pagination/page';
import type { SortDirection } from '../common/pagination/sort';
import { TagsService } from '../tags/tags.service';
import { ROLE_RANK, RoleName } from '../users/entities/role.entity';
import { User } from '../users/entities/user.entity';
import { PostAdminQueryDto, PostMineQueryDto, PostSaveDto } from './dto/post-input.dto';
import { PostAdminPageDto, PostResponseDto } from './dto/post-response.dto';
import { PostTag } from './entities/post-tag.entity';
import { Post, PostStatus } from './entities/post.entity';
import { readingTimeOfWords, renderMarkdown, wordCountOf } from './markdown';
import { toPostListItem, toPostResponse } from './post.mapper';
import { PostsMessages } from './posts.messages';
import { PostListFilter, PostsRepository } from './posts.repository';
import { recordSlugChange } from '../common/slug-history';
import { SLUG_PATTERN, slugify } from '../common/validation/slug';
import { NotificationsService } from '../notifications/notifications.service';
import { RevisionKind } from './entities/post-revision.entity';
import { RevisionsService } from './revisions.service';

/**
 * Status changes an admin makes through an update (spec 001 §4, DESIGN.md §4). PENDING_REVIEW is
 * reached only by the author's submit-for-review, REJECTED only by a review with a reason.
 */
const ADMIN_TRANSITIONS: Record<PostStatus, PostStatus[]> = {
  DRAFT: [PostStatus.PUBLISHED, PostStatus.PRIVATE, PostStatus.ARCHIVED],
  PENDING_REVIEW: [PostStatus.PUBLISHED, PostStatus.DRAFT],
  PUBLISHED: [PostStatus.ARCHIVED, PostStatus.DRAFT, PostStatus.PRIVATE],
  REJECTED: [PostStatus.PUBLISHED, PostStatus.DRAFT],
  ARCHIVED: [PostStatus.PUBLISHED, PostStatus.DRAFT],
  PRIVATE: [PostStatus.PUBLISHED, PostStatus.DRAFT, PostStatus.ARCHIVED],
};

/** Authors edit, delete and submit only these. */
const AUTHOR_EDITABLE = new Set([PostStatus.DRAFT, PostStatus.REJECTED]);

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

/** Thrown inside a save's transaction when the stored version is not the one the edit was based on (rolls it back). */
class StaleVersion extends Error {}

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

function fieldError(field: string, message: string): BadRequestException {
  return new BadRequestException({ message, errors: { [field]: [message] } });
}

/** 409 for a used slug, naming the field so the editor shows it there. */
function slugTaken(slug: string): ConflictException {
  const message = PostsMessages.slugTaken(slug);
  return new ConflictException({ message, errors: { slug: [message] } });
}

/** The authenticated post rules: who may read, create, edit, delete and submit which post. */
@Injectable()
export class PostsService {
  /** Times in audit descriptions as the pages show them (the site's zone, named). */
  private readonly siteTime: (date: Date) => string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Post) private readonly posts: Repository<Post>,
    private readonly repository: PostsRepository,
    private readonly tags: TagsService,
    private readonly contentEvents: ContentEvents,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
    private readonly revisions: RevisionsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.siteTime = siteTimeFormatter(config.siteTimeZone);
  }

  /** Admin: any post; its author: their own; others 403 (readers before any lookup). */
  async get(id: number, user: AuthUser): Promise<PostResponseDto> {
    return this.toResponse(await this.findReadable(id, user));
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
  listAll(query: PostAdminQueryDto): Promise<PostAdminPageDto> {
    return this.listPage({ status: query.status, search: query.search }, query.page, query.size, query.sortBy ?? 'createdAt', query.sortDir ?? 'desc');
  }

  /** The caller's own posts, newest first, optionally of one status. */
  listMine(query: PostMineQueryDto, user: AuthUser): Promise<PostAdminPageDto> {
    return this.listPage({ authorId: user.id, status: query.status }, query.page, query.size, 'createdAt', 'desc');
  }

  async create(dto: PostSaveDto, user: AuthUser, mode: SaveMode): Promise<SaveResult> {
    return this.save(null, dto, user, mode, { revisionKind: RevisionKind.SAVE });
  }

  /** `ifMatch`: the version from an If-Match header; the body's `version` wins. Neither: no version check (spec clients). */
  async update(id: number, dto: PostSaveDto, user: AuthUser, mode: SaveMode, ifMatch?: number, revisionKind = RevisionKind.SAVE as SaveOptions['revisionKind']): Promise<SaveResult> {
    const post = await this.findOrFail(id);
    if (post.authorId !== user.id && !(mode === 'admin' && isAdmin(user))) throw new ForbiddenException(PostsMessages.FORBIDDEN_UPDATE);
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
    const allowed = isAdmin(user) || (post.authorId === user.id && isAuthor(user) && AUTHOR_EDITABLE.has(post.status));
    if (!allowed) throw new ForbiddenException(PostsMessages.FORBIDDEN_DELETE);
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(Post, { id });
      await this.audit.record(manager, {
        type: AuditType.POST_DELETED,
        actorId: user.id,
        targetType: 'post',
        targetId: id,
        title: 'Post deleted',
        description: `"${post.title}" was deleted by ${user.fullName}`,
        details: { status: post.status, authorId: post.authorId, slug: post.slug },
      });
    });
    await this.notifyChanged(id, post, null);
  }

  /** DRAFT or REJECTED → PENDING_REVIEW, by the post's author (or an admin); `requestedPublishAt` (checked by the caller) replaces any earlier request. */
  async submitForReview(id: number, user: AuthUser, requestedPublishAt: Date | null = null): Promise<PostResponseDto> {
    const post = await this.findOrFail(id);
    if (post.authorId !== user.id && !isAdmin(user)) throw new ForbiddenException(PostsMessages.FORBIDDEN_UPDATE);
    if (!AUTHOR_EDITABLE.has(post.status)) throw new ConflictException(PostsMessages.cannotSubmit(post.status));
    // The status change and the admins' notifications commit together.
    const submitted = await this.dataSource.transaction(async (manager) => {
      const result = await manager.update(Post, { id, status: post.status }, { status: PostStatus.PENDING_REVIEW, requestedPublishAt, version: () => 'version + 1' });
      if (!result.affected) return false;
      await this.revisions.pin(manager, id, RevisionKind.SUBMITTED, user.id);
      await this.notifications.record(manager, { type: 'POST_SUBMITTED', actorId: user.id, postId: id });
      return true;
    });
    if (!submitted) throw new ConflictException(PostsMessages.cannotSubmit((await this.findOrFail(id)).status));
    return this.toResponse(await this.findOrFail(id));
  }

  /** The whole post with its author's e-mail and every tag (for authenticated answers). */
  async toResponse(post: PostWithAuthor): Promise<PostResponseDto> {
    const tags = await this.repository.tagsOfPosts([post.id], false);
    return toPostResponse(post, tags.get(post.id) ?? [], true);
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
   * Locks the post's row until the caller's transaction ends (two admins deciding at once cannot
   * both win) and returns it; 404 when it does not exist.
   */
  async lockForUpdate(manager: EntityManager, id: number): Promise<PostWithAuthor> {
    await this.repository.lockRow(manager, id);
    return this.findOrFail(id, manager);
  }

  /**
   * Sets the status inside the caller's transaction; `publishedAt` when given (publishing). A
   * decision drops a schedule (publishing now, rejecting), and publishing the author's requested time.
   */
  async setStatus(manager: EntityManager, id: number, status: PostStatus, publishedAt?: Date): Promise<void> {
    const unscheduled: Partial<Post> = { scheduledAt: null, scheduledBy: null, ...(status === PostStatus.PUBLISHED ? { requestedPublishAt: null } : {}) };
    await manager.update(Post, { id }, publishedAt ? { status, publishedAt, ...unscheduled, version: () => 'version + 1' } : { status, ...unscheduled, version: () => 'version + 1' });
  }

  /** An approved post waits for its time (issue 20): PENDING_REVIEW with `scheduledAt`, inside the caller's transaction. */
  async schedule(manager: EntityManager, id: number, publishAt: Date, adminId: number): Promise<void> {
    await manager.update(Post, { id }, { status: PostStatus.PENDING_REVIEW, scheduledAt: publishAt, scheduledBy: adminId, version: () => 'version + 1' });
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
   * After the commit, before the answer: every cache drops what shows the post. Public pages show
   * it (or did before the change): a `post` notice; otherwise only the back office's post counts
   * show it, which change when it is created or deleted (`unpublished-post`), not when it moves
   * among the statuses readers never see. A post becoming public also names its earlier slugs:
   * their pages, kept as 404s, now redirect.
   */
  async notifyChanged(id: number, before: { status: PostStatus; slug: string } | null, after: { status: PostStatus; slug: string } | null): Promise<void> {
    const visible = [before, after].some((state) => state?.status === PostStatus.PUBLISHED);
    if (!visible) return before && after ? undefined : this.contentEvents.changed({ kind: 'unpublished-post', postId: id });
    const earlier = after?.status === PostStatus.PUBLISHED && before?.status !== PostStatus.PUBLISHED ? await this.repository.earlierSlugs(id) : [];
    await this.contentEvents.changed({ kind: 'post', postId: id, slugs: [...new Set([before?.slug, after?.slug, ...earlier].filter((s): s is string => !!s))] });
  }

  /** One page of a list (every column but the bodies, the author's name and e-mail, every tag) and the filter's total. */
  private async listPage(filter: PostListFilter, page: number, size: number, sortBy: string, sortDir: SortDirection): Promise<PostAdminPageDto> {
    const [rows, total] = await Promise.all([this.repository.listPage(filter, sortBy, sortDir, size, page * size), this.repository.countList(filter)]);
    const items = rows.map(toPostListItem);
    const result = toPage(items, total, page, size);
    return { ...result, posts: items, currentPage: result.number };
  }

  /**
   * One save path for create and update. Checks in the spec's order (title, content, slug, slug
   * format), then the status rules, then writes the post and its tags in one transaction.
   */
  private async save(existing: PostWithAuthor | null, dto: PostSaveDto, user: AuthUser, mode: SaveMode, options: SaveOptions): Promise<SaveResult> {
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

    const before = existing ? { status: existing.status, slug: existing.slug } : null;
    const asAdmin = mode === 'admin' && isAdmin(user);
    let status: PostStatus;
    if (asAdmin) {
      const from = existing?.status ?? PostStatus.DRAFT;
      status = dto.status ?? from;
      if (status !== from && !ADMIN_TRANSITIONS[from].includes(status)) throw new ConflictException(PostsMessages.illegalTransition(from, status));
    } else {
      // Authors: always a DRAFT; published or pending posts are no longer theirs to edit.
      if (existing && !AUTHOR_EDITABLE.has(existing.status)) throw new ConflictException(PostsMessages.authorCannotEdit(existing.status));
      status = PostStatus.DRAFT;
    }

    const requested = dto.tagSlugs === undefined ? undefined : [...new Set(dto.tagSlugs.filter(Boolean))];
    const tags = requested ? await this.tags.findActiveBySlugs(requested) : [];
    const skippedTags = requested ? requested.filter((slug) => !tags.some((tag) => tag.slug === slug)) : [];

    const summary = dto.summary === undefined ? existing?.summary ?? null : dto.summary;
    const thumbnail = dto.thumbnail === undefined ? existing?.thumbnail ?? null : dto.thumbnail;
    const isFeatured = asAdmin && dto.isFeatured !== undefined ? dto.isFeatured : existing?.isFeatured ?? false;
    const seo = {
      metaTitle: dto.metaTitle === undefined ? existing?.metaTitle ?? null : dto.metaTitle,
      metaDescription: dto.metaDescription === undefined ? existing?.metaDescription ?? null : dto.metaDescription,
      canonicalUrl: dto.canonicalUrl === undefined ? existing?.canonicalUrl ?? null : dto.canonicalUrl,
      noindex: dto.noindex ?? existing?.noindex ?? false,
      socialImage: dto.socialImage === undefined ? existing?.socialImage ?? null : dto.socialImage,
    };
    const contentChanged = !existing || existing.content !== content;
    // Rendered before the transaction: the post's row is locked inside it, and other saves of the post wait for that lock.
    const wordCount = wordCountOf(content);
    const rendered: Partial<Post> = contentChanged ? { contentHtml: renderMarkdown(content), wordCount, readingTime: readingTimeOfWords(wordCount) } : {};

    let savedId: number;
    try {
      savedId = await this.dataSource.transaction(async (manager) => {
        const slug = dto.slug ?? existing?.slug ?? (await this.freeSlug(manager, slugify(title) || 'post'));
        if (dto.slug) {
          if (await this.repository.slugTaken(manager, slug, existing?.id ?? 0)) throw slugTaken(slug);
        }
        const values: Partial<Post> = { title, slug, summary, content, thumbnail, isFeatured, status, ...seo, ...rendered };
        // An edit keeps a schedule; a status change drops it (issue 20), and publishing the requested time.
        if (existing && status !== existing.status) Object.assign(values, { scheduledAt: null, scheduledBy: null });
        if (status === PostStatus.PUBLISHED) values.requestedPublishAt = null;
        if (status === PostStatus.PUBLISHED && !existing?.publishedAt) {
          values.publishedAt = new Date();
          // A post published as it is written: one instant for both (the database's own clock
          // would put its creation a few microseconds after its publication).
          if (!existing) values.createdAt = values.publishedAt;
        }
        // Only the edited columns are written: counters (views are flushed in batches) stay untouched.
        let saved: number;
        if (existing) {
          // The version is checked by the UPDATE itself, which locks the row to the commit: saves of one post
          // queue there (PostgreSQL re-reads the row after the wait), so the check and the revision merge are race-free.
          const update = manager.createQueryBuilder().update(Post).set({ ...values, version: () => 'version + 1' }).where('id = :id', { id: existing.id });
          if (options.expectedVersion !== undefined) update.andWhere('version = :version', { version: options.expectedVersion });
          if (!(await update.execute()).affected) {
            if (await manager.exists(Post, { where: { id: existing.id } })) throw new StaleVersion();
            throw new NotFoundException(PostsMessages.notFoundById(existing.id));
          }
          saved = existing.id;
        } else {
          saved = (await manager.save(Post, manager.create(Post, { ...values, authorId: user.id }))).id;
        }
        await recordSlugChange(manager, 'post', saved, existing?.slug, slug);
        if (requested) {
          await manager.delete(PostTag, { postId: saved });
          if (tags.length) await manager.insert(PostTag, tags.map((tag) => ({ postId: saved, tagId: tag.id })));
        }
        await this.recordSave(manager, { id: saved, title, slug }, existing?.status ?? null, status, user);
        if (existing?.scheduledAt && status !== existing.status) await this.recordScheduleDropped(manager, existing, status, user);
        await this.revisions.record(manager, saved, user.id, options.revisionKind);
        return saved;
      });
    } catch (error) {
      if (error instanceof StaleVersion && existing) {
        throw new ConflictException({ message: PostsMessages.VERSION_CONFLICT, data: { current: await this.toResponse(await this.findOrFail(existing.id)), yours: { ...dto } } });
      }
      if (isUniqueViolation(error)) throw slugTaken(dto.slug ?? slugify(title));
      throw error;
    }

    const saved = await this.findOrFail(savedId);
    await this.notifyChanged(savedId, before, { status: saved.status, slug: saved.slug });
    return { post: await this.toResponse(saved), skippedTags };
  }

  /** The audit entries of a save, inside its transaction: created, then published or archived. */
  private async recordSave(manager: EntityManager, post: { id: number; title: string; slug: string }, from: PostStatus | null, to: PostStatus, user: AuthUser): Promise<void> {
    const base = { actorId: user.id, targetType: 'post' as const, targetId: post.id };
    if (from === null) {
      await this.audit.record(manager, {
        ...base,
        type: AuditType.POST_CREATED,
        title: 'New post created',
        description: `${user.fullName} created "${post.title}"`,
        link: AuditLinks.adminPost(post.id),
        details: { status: to },
      });
    }
    if (to === from) return;
    if (to === PostStatus.PUBLISHED) {
      await this.audit.record(manager, {
        ...base,
        type: AuditType.POST_PUBLISHED,
        title: 'Post published',
        description: `"${post.title}" was published`,
        link: AuditLinks.publicPost(post.slug),
        details: { from, via: 'update' },
      });
    } else if (to === PostStatus.ARCHIVED) {
      await this.audit.record(manager, {
        ...base,
        type: AuditType.POST_ARCHIVED,
        title: 'Post archived',
        description: `"${post.title}" was archived`,
        link: AuditLinks.adminPost(post.id),
        details: { from },
      });
    }
  }

  /** A status change through an update dropped the post's schedule: the audit says so (issue 20: every schedule change is audited). */
  private async recordScheduleDropped(manager: EntityManager, post: Post, to: PostStatus, user: AuthUser): Promise<void> {
    await this.audit.record(manager, {
      type: AuditType.POST_SCHEDULE_CANCELLED,
      actorId: user.id,
      targetType: 'post',
      targetId: post.id,
      title: 'Post schedule cancelled',
      description: `"${post.title}" will not be published at ${this.siteTime(post.scheduledAt!)}: its status was changed to ${to}`,
      link: AuditLinks.adminPost(post.id),
      details: { scheduledAt: post.scheduledAt!.toISOString(), via: 'update', to },
    });
  }

  /** `base`, or `base-2`, `base-3`... whichever is free (spec 001 §5 derivation, made unique). */
  private async freeSlug(manager: EntityManager, base: string): Promise<string> {
    const root = base.slice(0, 190).replace(/-+$/, '') || 'post';
    const used = new Set(await this.repository.slugsStartingWith(manager, root));
    if (!used.has(root)) return root;
    for (let n = 2; ; n += 1) if (!used.has(`${root}-${n}`)) return `${root}-${n}`;
  }
}
