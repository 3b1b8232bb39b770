import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { AuditLinks, AuditRecord, AuditType } from '../audit/audit.types';
import type { AuthUser } from '../common/auth-user';
import { ContentEvents } from '../common/content-events';
import { isUniqueViolation, violatedConstraint } from '../common/database-errors';
import { Page, toPage } from '../common/pagination/page';
import { recordSlugChange } from '../common/slug-history';
import { SLUG_PATTERN, slugify } from '../common/validation/slug';
import { TagCreateDto, TagQueryDto, TagUpdateDto } from './dto/tag-input.dto';
import { TagMovedDto, TagPageDto, TagResponseDto } from './dto/tag-response.dto';
import { Tag } from './entities/tag.entity';
import { toTagResponse } from './tag.mapper';
import { TagsMessages } from './tags.messages';
import { TagsRepository } from './tags.repository';

/** GET /blog/tags/publish groups every published post's tags (~20 ms at 10,000 posts): kept briefly, dropped on content changes. */
const PUBLISHED_TTL_MS = 60_000;

/** 409 for a used name or slug, naming the field so a form can show it there. */
const taken = (field: 'name' | 'slug', message: string) => new ConflictException({ message, errors: { [field]: [message] } });

@Injectable()
export class TagsService {
  private publishedCache?: { at: number; value: Promise<TagResponseDto[]> };

  constructor(
    @InjectRepository(Tag) private readonly tags: Repository<Tag>,
    private readonly repository: TagsRepository,
    private readonly contentEvents: ContentEvents,
    private readonly audit: AuditService,
  ) {
    // The published tags and their post counts: a post's publication or withdrawal, or a tag's change.
    contentEvents.onChange((change) => {
      if (change.kind === 'post' || change.kind === 'tag' || change.kind === 'resync') this.publishedCache = undefined;
    });
  }

  async list(query: TagQueryDto, isAdmin: boolean): Promise<TagPageDto> {
    const { rows, total } = await this.repository.page({
      // status, when given, decides; else activeOnly (default true): active tags, or every tag.
      active: query.status ? query.status === 'ACTIVE' : query.activeOnly !== false ? true : undefined,
      search: query.search,
      sortBy: query.sortBy ?? 'name',
      direction: query.sortDir === 'asc' ? 'asc' : 'desc',
      allStatuses: isAdmin,
      limit: query.size,
      offset: query.page * query.size,
    });
    const entities = rows.length ? await this.tags.findBy({ id: In(rows.map((row) => row.id)) }) : [];
    const byId = new Map(entities.map((tag) => [tag.id, tag]));
    const content = rows.map((row) => toTagResponse(byId.get(row.id) as Tag, row.post_count));
    const page: Page<TagResponseDto> = toPage(content, total, query.page, query.size);
    return { ...page, tags: content, currentPage: page.number };
  }

  async get(id: number, isAdmin: boolean): Promise<TagResponseDto> {
    const tag = await this.findOrFail(id);
    return toTagResponse(tag, await this.repository.countPosts(id, isAdmin));
  }

  /** Active tags that have at least one published post, with the published count (most used first). */
  published(): Promise<TagResponseDto[]> {
    const cached = this.publishedCache;
    if (cached && Date.now() - cached.at < PUBLISHED_TTL_MS) return cached.value;
    const value = this.loadPublished();
    this.publishedCache = { at: Date.now(), value };
    value.catch(() => {
      if (this.publishedCache?.value === value) this.publishedCache = undefined;
    });
    return value;
  }

  private async loadPublished(): Promise<TagResponseDto[]> {
    const rows = await this.repository.publishedCounts();
    const counts = new Map(rows.map((row) => [row.id, row.post_count]));
    const tags = counts.size ? await this.tags.findBy({ id: In([...counts.keys()]) }) : [];
    return tags
      .map((tag) => toTagResponse(tag, counts.get(tag.id) ?? 0))
      .sort((a, b) => b.postCount - a.postCount || a.name.localeCompare(b.name));
  }

  /** `actor`: the admin doing it, for the audit log. */
  async create(dto: TagCreateDto, actor?: AuthUser): Promise<TagResponseDto> {
    const slug = dto.slug ?? (slugify(dto.name, 100) || 'tag');
    await this.assertFree(dto.name, slug);
    const tag = this.tags.create({
      name: dto.name,
      slug,
      description: dto.description ?? null,
      color: dto.color ?? null,
      icon: dto.icon ?? null,
      isActive: dto.isActive ?? true,
    });
    await this.save(tag, (saved) => this.entry(AuditType.TAG_CREATED, saved, actor, 'New tag created', `Tag "${saved.name}" was created`), (manager) =>
      recordSlugChange(manager, 'tag', tag.id, undefined, tag.slug),
    );
    return toTagResponse(tag, 0);
  }

  async update(id: number, dto: TagUpdateDto, actor?: AuthUser): Promise<TagResponseDto> {
    const tag = await this.findOrFail(id);
    const oldSlug = tag.slug;
    await this.assertFree(dto.name, dto.slug, id);
    if (dto.name !== undefined) tag.name = dto.name;
    if (dto.slug !== undefined) tag.slug = dto.slug;
    if (dto.description !== undefined) tag.description = dto.description;
    if (dto.color !== undefined) tag.color = dto.color;
    if (dto.icon !== undefined) tag.icon = dto.icon;
    if (dto.isActive !== undefined) tag.isActive = dto.isActive;
    await this.save(
      tag,
      (saved) =>
        this.entry(AuditType.TAG_UPDATED, saved, actor, 'Tag updated', `Tag "${saved.name}" was updated`, { changed: Object.keys(dto).filter((key) => dto[key as keyof TagUpdateDto] !== undefined) }),
      (manager) => recordSlugChange(manager, 'tag', tag.id, oldSlug, tag.slug),
    );
    await this.changed(tag, oldSlug);
    return toTagResponse(tag, await this.repository.countPosts(id, true));
  }

  async setActive(id: number, isActive: boolean, actor?: AuthUser): Promise<TagResponseDto> {
    const tag = await this.findOrFail(id);
    if (tag.isActive !== isActive) {
      tag.isActive = isActive;
      await this.tags.manager.transaction(async (manager) => {
        await manager.save(tag);
        await this.audit.record(
          manager,
          isActive
            ? this.entry(AuditType.TAG_ACTIVATED, tag, actor, 'Tag activated', `Tag "${tag.name}" was activated`)
            : this.entry(AuditType.TAG_DEACTIVATED, tag, actor, 'Tag deactivated', `Tag "${tag.name}" was deactivated`),
        );
      });
      await this.changed(tag);
    }
    return toTagResponse(tag, await this.repository.countPosts(id, true));
  }

  /** Unused or inactive tags are deleted; an active tag used by posts is kept (409: deactivate it instead). */
  async remove(id: number, actor?: AuthUser): Promise<void> {
    const tag = await this.findOrFail(id);
    if (tag.isActive) {
      const used = await this.repository.countPosts(id, true);
      if (used > 0) throw new ConflictException(TagsMessages.inUse(used));
    }
    await this.tags.manager.transaction(async (manager) => {
      await manager.delete(Tag, { id });
      await this.audit.record(manager, { ...this.entry(AuditType.TAG_DELETED, tag, actor, 'Tag deleted', `Tag "${tag.name}" was deleted`), link: null });
    });
    await this.changed(tag);
  }

  /** Active tags among these slugs (for attaching to posts). */
  findActiveBySlugs(slugs: string[]): Promise<Tag[]> {
    if (!slugs.length) return Promise.resolve([]);
    return this.tags.findBy({ slug: In(slugs), isActive: true });
  }

  findActiveBySlug(slug: string): Promise<Tag | null> {
    return this.tags.findOneBy({ slug, isActive: true });
  }

  /**
   * The current slug of the active tag that had `slug` before a change (`/blog/tag/{old}` answers
   * 301 there); 404 like an unknown tag otherwise. The public reads by slug keep answering 404
   * for old slugs: only the pages redirect.
   */
  async movedSlug(slug: string): Promise<TagMovedDto> {
    const current = SLUG_PATTERN.test(slug) && slug.length <= 100 ? await this.repository.currentSlugOf(slug) : undefined;
    if (!current) throw new NotFoundException(TagsMessages.slugNotFound(slug));
    return { slug: current };
  }

  private async findOrFail(id: number): Promise<Tag> {
    const tag = await this.tags.findOneBy({ id });
    if (!tag) throw new NotFoundException(TagsMessages.notFound(id));
    return tag;
  }

  /** Names are unique case-insensitively; slugs exactly. */
  private async assertFree(name: string | undefined, slug: string | undefined, exceptId?: number): Promise<void> {
    if (name !== undefined && (await this.repository.nameTaken(name, exceptId))) throw taken('name', TagsMessages.nameTaken(name));
    if (slug !== undefined && (await this.repository.slugTaken(slug, exceptId))) throw taken('slug', TagsMessages.slugTaken(slug));
  }

  private entry(type: AuditType, tag: Tag, actor: AuthUser | undefined, title: string, description: string, details: Record<string, unknown> = {}): AuditRecord {
    return { type, actorId: actor?.id ?? null, targetType: 'tag', targetId: tag.id, title, description, link: AuditLinks.tag(tag.id), details: { slug: tag.slug, ...details } };
  }

  /**
   * Saves with its slug history and audit entry in one transaction. A concurrent insert of the same name or slug
   * still ends in a 409, not a 500.
   */
  private async save(tag: Tag, entry: (saved: Tag) => AuditRecord, slugChange: (manager: EntityManager) => Promise<void>): Promise<void> {
    try {
      await this.tags.manager.transaction(async (manager: EntityManager) => {
        await manager.save(tag);
        await slugChange(manager);
        await this.audit.record(manager, entry(tag));
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw violatedConstraint(error) === 'UQ_tags_name' ? taken('name', TagsMessages.nameTaken(tag.name)) : taken('slug', TagsMessages.slugTaken(tag.slug));
      }
      throw error;
    }
  }

  private async changed(tag: Tag, oldSlug?: string): Promise<void> {
    const slugs = oldSlug && oldSlug !== tag.slug ? [oldSlug, tag.slug] : [tag.slug];
    await this.contentEvents.changed({ kind: 'tag', tagId: tag.id, slugs });
  }
}
