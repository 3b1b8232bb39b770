import { ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { APP_CONFIG, AppConfig } from '../config/env';
import { DomainEvents } from '../events/domain-events.service';
import { Post } from '../posts/entities/post.entity';
import { PostLifecycle, postFacts } from '../posts/lifecycle/post-lifecycle.service';
import { PostsService } from '../posts/posts.service';
import { RoleName } from '../users/roles';
import { PreviewLinkDto, PreviewPostDto } from './dto/preview-link.dto';
import { PostPreviewLink } from './entities/post-preview-link.entity';
import { previewKey, readPreviewToken, signPreviewToken } from './preview-token';
import { PreviewsMessages } from './previews.messages';

/** How long a preview link works. */
export const PREVIEW_LINK_DAYS = 7;

/** Shareable preview links: created and revoked by whoever may edit the post, read by anyone holding the token. */
@Injectable()
export class PreviewsService {
  private readonly key: Buffer;

  constructor(
    @InjectRepository(PostPreviewLink) private readonly links: Repository<PostPreviewLink>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly posts: PostsService,
    private readonly lifecycle: PostLifecycle,
    private readonly events: DomainEvents,
  ) {
    this.key = previewKey(config.jwtSecret);
  }

  async create(postId: number, user: AuthUser): Promise<PreviewLinkDto> {
    const post = await this.editablePost(postId, user);
    this.lifecycle.check(post, { type: 'preview' }, user.role === RoleName.ADMIN ? 'admin' : 'author');
    // Whole seconds: the token carries the expiry in seconds, and the row must say the same.
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + PREVIEW_LINK_DAYS * 86_400_000);
    const link = await this.events.transaction(async ({ manager, record }) => {
      const saved = await manager.save(manager.create(PostPreviewLink, { postId, createdById: user.id, expiresAt, revokedAt: null }));
      await record({
        name: 'post.preview_link_created',
        actor: { id: user.id, name: user.fullName },
        data: { ...postFacts(post), linkId: saved.id, expiresAt: expiresAt.toISOString() },
      });
      return saved;
    });
    return this.toDto(link, { id: user.id, fullName: user.fullName });
  }

  /** The post's live links (neither expired nor revoked), newest first. */
  async list(postId: number, user: AuthUser): Promise<PreviewLinkDto[]> {
    await this.editablePost(postId, user);
    const live = await this.links.find({
      where: { postId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      relations: { createdBy: true },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    return live.map((link) => this.toDto(link, link.createdBy ? { id: link.createdBy.id, fullName: link.createdBy.fullName } : null));
  }

  /** Revokes a live link of the post; an unknown, other post's or already revoked link is 404. */
  async revoke(postId: number, linkId: number, user: AuthUser): Promise<void> {
    const post = await this.editablePost(postId, user);
    await this.events.transaction(async ({ manager, record }) => {
      const link = await manager.findOne(PostPreviewLink, {
        where: { id: linkId, postId, revokedAt: IsNull() },
        lock: { mode: 'pessimistic_write' },
      });
      if (!link) throw new NotFoundException(PreviewsMessages.LINK_NOT_FOUND);
      await manager.update(PostPreviewLink, { id: linkId }, { revokedAt: new Date() });
      await record({
        name: 'post.preview_link_revoked',
        actor: { id: user.id, name: user.fullName },
        data: { ...postFacts(post), linkId, expiresAt: link.expiresAt.toISOString() },
      });
    });
  }

  /**
   * The post as saved now, for anyone holding a good token: one 404 for a bad signature, an
   * expired or revoked link, and a post that is public, put away or gone (the link says nothing more).
   */
  async read(token: string): Promise<PreviewPostDto> {
    const claim = readPreviewToken(this.key, token);
    const now = Date.now();
    if (!claim || claim.expiresAt.getTime() <= now) throw new NotFoundException(PreviewsMessages.INVALID_LINK);
    const link = await this.links.findOne({ where: { id: claim.linkId }, relations: { post: true } });
    if (
      !link ||
      link.revokedAt ||
      link.expiresAt.getTime() !== claim.expiresAt.getTime() ||
      !this.lifecycle.allows(link.post, { type: 'preview' }, 'author')
    ) {
      throw new NotFoundException(PreviewsMessages.INVALID_LINK);
    }
    const { authorEmail: _email, ...post } = await this.posts.toResponse(await this.posts.findOrFail(link.postId));
    return { ...post, previewExpiresAt: link.expiresAt.toISOString() };
  }

  /** Editing's ownership rule: admins any post, authors their own (others 403); an unknown post 404. */
  private async editablePost(postId: number, user: AuthUser): Promise<Post> {
    const post = await this.posts.findOrFail(postId);
    if (user.role !== RoleName.ADMIN && post.authorId !== user.id) throw new ForbiddenException(PreviewsMessages.FORBIDDEN);
    return post;
  }

  private toDto(link: PostPreviewLink, createdBy: PreviewLinkDto['createdBy']): PreviewLinkDto {
    return {
      id: link.id,
      url: `${this.config.publicUrl}/preview/${signPreviewToken(this.key, link.id, link.expiresAt)}`,
      createdAt: link.createdAt.toISOString(),
      expiresAt: link.expiresAt.toISOString(),
      createdBy,
    };
  }
}
