import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { ContentEvents } from '../common/content-events';
import { isUniqueViolation, violatedConstraint } from '../common/database-errors';
import { Page, toPage } from '../common/pagination/page';
import { recordSlugChange } from '../common/slug-history';
import { SLUG_PATTERN, slugify } from '../../../isomorphic/slug';
import type { DomainEvent, EventActor, TagFacts } from '../events/domain-events';
import { DomainEvents, EventTransaction } from '../events/domain-events.service';
import { TagCreateDto, TagQueryDto, TagUpdateDto } from './dto/tag-input.dto';
import { TagMovedDto, TagPageDto, TagResponseDto } from './dto/tag-response.dto';
import { Tag } from './entities/tag.entity';
import { toTagResponse } from './tag.mapper';
import { TagsMessages } from './tags.messages';
import { TagsRepository } from './tags.repository';

const factsOf = (tag: Tag): TagFacts => ({ tagId: tag.id, name: tag.name, slug: tag.slug, active: tag.isActive });
const actorOf = (actor: AuthUser | undefined): EventActor | null => (actor ? { id: actor.id, name: actor.fullName } : null);

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
    private readonly events: DomainEvents,
    contentEvents: ContentEvents,
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

  /** `actor`: the admin doing it, named by the event (and so the audit log). */
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
    await this.save(tag, undefined, () => ({ name: 'tag.created', actor: actorOf(actor), data: factsOf(tag) }));
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
    const changed = Object.keys(dto).filter((key) => dto[key as keyof TagUpdateDto] !== undefined);
    await this.save(tag, oldSlug, () => ({
      name: 'tag.updated',
      actor: actorOf(actor),
      data: { ...factsOf(tag), previousSlug: oldSlug, changed },
    }));
    return toTagResponse(tag, await this.repository.countPosts(id, true));
  }

  async setActive(id: number, isActive: boolean, actor?: AuthUser): Promise<TagResponseDto> {
    const tag = await this.findOrFail(id);
    if (tag.isActive !== isActive) {
      tag.isActive = isActive;
      await this.events.transaction(async ({ manager, record }) => {
        await manager.save(tag);
        await record({ name: isActive ? 'tag.activated' : 'tag.deactivated', actor: actorOf(actor), data: factsOf(tag) });
      });
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
    await this.events.transaction(async ({ manager, record }) => {
      await manager.delete(Tag, { id });
      await record({ name: 'tag.deleted', actor: actorOf(actor), data: factsOf(tag) });
    });
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

  /**
   * Saves with its slug history (from `oldSlug`; none for a new tag) and its event in one
   * transaction. A concurrent insert of the same name or slug still ends in a 409, not a 500.
   */
  private async save(tag: Tag, oldSlug: string | undefined, event: () => DomainEvent<'tag.created' | 'tag.updated'>): Promise<void> {
    try {
      await this.events.transaction(async ({ manager, record }: EventTransaction) => {
        await manager.save(tag);
        await recordSlugChange(manager, 'tag', tag.id, oldSlug, tag.slug);
        await record(event());
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw violatedConstraint(error) === 'UQ_tags_name'
          ? taken('name', TagsMessages.nameTaken(tag.name))
          : taken('slug', TagsMessages.slugTaken(tag.slug));
      }
      throw error;
    }
  }
}
