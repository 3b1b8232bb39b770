import { ConflictException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { AuditLinks, AuditType } from '../audit/audit.types';
import type { AuthUser } from '../auth/auth-user';
import { siteTimeFormatter } from '../common/site-time';
import { APP_CONFIG, AppConfig } from '../config/env';
import { Post, PostStatus } from '../posts/entities/post.entity';
import { PostsService } from '../posts/posts.service';
import { RoleName } from '../auth/roles';
import { PreviewLinkDto, PreviewPostDto } from './dto/preview-link.dto';
import { PostPreviewLink } from './entities/post-preview-link.entity';
import { previewKey, readPreviewToken, signPreviewToken } from './preview-token';
import { PreviewsMessages } from './previews.messages';

/** How long a preview link works (issue 20 §4). */
export const PREVIEW_LINK_DAYS = 7;
/** The statuses a post may be previewed in: not public yet, not put away. */
export const PREVIEWABLE = new Set<PostStatus>([PostStatus.DRAFT, PostStatus.PENDING_REVIEW, PostStatus.REJECTED]);

/** Shareable preview links: created and revoked by whoever may edit the post, read by anyone holding the token. */
@Injectable()
export class PreviewsService {
  private readonly key: Buffer;
  /** Times in audit descriptions as the pages show them (the site's zone, named). */
  private readonly siteTime: (date: Date) => string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly posts: PostsService,
    private readonly audit: AuditService,
  ) {
    this.key = previewKey(config.jwtSecret);
    this.siteTime = siteTimeFormatter(config.siteTimeZone);
  }

  async create(postId: number, user: AuthUser): Promise<PreviewLinkDto> {
    const post = await this.editablePost(postId, user);
    if (!PREVIEWABLE.has(post.status)) throw new ConflictException(PreviewsMessages.notPreviewable(post.status));
    // Whole seconds: the token carries the expiry in seconds, and the row must say the same.
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + PREVIEW_LINK_DAYS * 86_400_000);
    const link = await this.dataSource.transaction(async (manager) => {
      const saved = await manager.save(manager.create(PostPreviewLink, { postId, createdById: user.id, expiresAt, revokedAt: null }));
      await this.audit.record(manager, {
        type: AuditType.PREVIEW_LINK_CREATED,
        actorId: user.id,
        targetType: 'post',
        targetId: postId,
        title: 'Preview link created',
        description: `${user.fullName} shared a preview of "${post.title}" until ${this.siteTime(expiresAt)}`,
        link: AuditLinks.adminPost(postId),
        details: { linkId: saved.id, expiresAt: expiresAt.toISOString() },
      });
      return saved;
    });
    return this.toDto(link, { id: user.id, fullName: user.fullName });
  }

  /** The post's live links (neither expired nor revoked), newest first. */
  async list(postId: number, user: AuthUser): Promise<PreviewLinkDto[]> {
    await this.editablePost(postId, user);
    const links = await this.dataSource.getRepository(PostPreviewLink).find({
      where: { postId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      relations: { createdBy: true },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    return links.map((link) => this.toDto(link, link.createdBy ? { id: link.createdBy.id, fullName: link.createdBy.fullName } : null));
  }

  /** Revokes a live link of the post; an unknown, other post's or already revoked link is 404. */
  async revoke(postId: number, linkId: number, user: AuthUser): Promise<void> {
    const post = await this.editablePost(postId, user);
    await this.dataSource.transaction(async (manager) => {
      const result = await manager.update(PostPreviewLink, { id: linkId, postId, revokedAt: IsNull() }, { revokedAt: new Date() });
      if (!result.affected) throw new NotFoundException(PreviewsMessages.LINK_NOT_FOUND);
      await this.audit.record(manager, {
        type: AuditType.PREVIEW_LINK_REVOKED,
        actorId: user.id,
        targetType: 'post',
        targetId: postId,
        title: 'Preview link revoked',
        description: `${user.fullName} revoked a preview link of "${post.title}"`,
        link: AuditLinks.adminPost(postId),
        details: { linkId },
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
    const link = await this.dataSource.getRepository(PostPreviewLink).findOne({ where: { id: claim.linkId }, relations: { post: true } });
    if (!link || link.revokedAt || link.expiresAt.getTime() !== claim.expiresAt.getTime() || !PREVIEWABLE.has(link.post.status)) {
      throw new NotFoundException(PreviewsMessages.INVALID_LINK);
    }
    const { authorEmail: _email, ...post } = await this.posts.toResponse(await this.posts.findOrFail(link.postId));
    return { ...post, previewExpiresAt: link.expiresAt.toISOString() };
  }

  /** Editing's ownership rule: admins any post, authors their own (others 403); an unknown post 404. */
  private async editablePost(postId: number, user: AuthUser): Promise<Pick<Post, 'id' | 'title' | 'status'>> {
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
