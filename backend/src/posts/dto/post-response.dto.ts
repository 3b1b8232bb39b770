import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { AdminPageFieldsDto } from '../../common/pagination/page';
import { PostSeoDto } from '../../revisions/dto/post-seo.dto';
import { TagRefDto } from '../../tags/dto/tag-response.dto';
import { PostStatus } from '../entities/post.entity';
import { POST_ACTIONS, PostAction } from '../lifecycle/post-transitions';
import { SITEMAP_ENTRY_KINDS, SITEMAP_FILE_SIZE, type SitemapKind } from '../../../../isomorphic/sitemap';

const FILE_SIZE = SITEMAP_FILE_SIZE.toLocaleString('en');

export class PostAuthorDto {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'The author page: /authors/{slug}' }) slug: string;
  @ApiProperty() fullName: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ type: String, nullable: true }) bio: string | null;
}

/** A post in lists (public list, latest stories, tag pages). Never carries an e-mail. */
export class PostCardResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
  @ApiProperty() slug: string;
  @ApiProperty({ type: String, nullable: true }) summary: string | null;
  @ApiProperty({ type: String, nullable: true }) thumbnail: string | null;
  @ApiProperty() likeCount: number;
  @ApiProperty() viewCount: number;
  @ApiProperty() commentCount: number;
  @ApiProperty() isFeatured: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) publishedAt: string | null;
  @ApiProperty({ description: 'Minutes: words / 200 rounded up, at least 1' }) readingTime: number;
  @ApiProperty() authorId: number;
  @ApiProperty() authorName: string;
  @ApiProperty({ type: String, nullable: true }) authorAvatar: string | null;
  @ApiProperty({ description: 'The author page: /authors/{authorSlug}' }) authorSlug: string;
  @ApiProperty({ type: [TagRefDto] }) tags: TagRefDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The post's canonical URL override (seo.canonicalUrl; feeds link there); null: its own page /blog/{slug}",
  })
  canonicalUrl: string | null;
}

/** A whole post. Public endpoints answer it without authorEmail; the back-office and author endpoints add it. */
export class PostResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
  @ApiProperty() slug: string;
  @ApiProperty({ type: String, nullable: true }) summary: string | null;
  @ApiProperty({ description: 'Markdown source' }) content: string;
  @ApiProperty({ description: 'Rendered, sanitized HTML of content' }) contentHtml: string;
  @ApiProperty({ enum: PostStatus, enumName: 'PostStatus' }) status: PostStatus;
  @ApiProperty({ type: String, nullable: true }) thumbnail: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) publishedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: string;
  @ApiProperty() userId: number;
  @ApiProperty() authorName: string;
  @ApiProperty({ required: false, description: 'Only on authenticated endpoints, never on public ones' }) authorEmail?: string;
  @ApiProperty({ type: PostAuthorDto }) author: PostAuthorDto;
  @ApiProperty({ type: [TagRefDto] }) tags: TagRefDto[];
  @ApiProperty() likeCount: number;
  @ApiProperty() viewCount: number;
  @ApiProperty() commentCount: number;
  @ApiProperty() isFeatured: boolean;
  @ApiProperty({ description: 'Minutes: words / 200 rounded up, at least 1' }) readingTime: number;
  @ApiProperty({ minimum: 0, description: 'Words of the Markdown source (runs of non-space characters), counted on save' })
  wordCount: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Set while an approved post (still PENDING_REVIEW) waits for its publication time; null otherwise',
  })
  scheduledAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'The publication time its author asked for on submit, until it is published; null otherwise',
  })
  requestedPublishAt: string | null;
  @ApiProperty({
    minimum: 1,
    description:
      '1 on create, +1 on every save, restore and status change; send it back as `version` (or If-Match) to have a stale edit refused with 409',
  })
  version: number;
  @ApiProperty({ type: PostSeoDto }) seo: PostSeoDto;
  @ApiPropertyOptional({
    enum: POST_ACTIONS,
    enumName: 'PostAction',
    isArray: true,
    description:
      "What the caller may do with this post now, by the post lifecycle's rules (authenticated answers only); `setStatus:<S>` is an admin's save to status S",
  })
  allowedActions?: PostAction[];
}

/** A post in back-office and author lists: the whole post without its body (GET /blog/posts/{id} has it), with the author's e-mail. */
/** The latest rejection of a REJECTED post: what its author needs to revise it. */
export class PostRejectionDto {
  @ApiProperty({ description: 'The rejection reason the reviewer gave' }) reason: string;
  @ApiProperty({ type: String, nullable: true, description: 'null when the reviewer account is gone' }) reviewerName: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) reviewedAt: string;
}

export class PostListItemDto extends OmitType(PostResponseDto, ['content', 'contentHtml', 'author', 'authorEmail'] as const) {
  @ApiProperty() authorEmail: string;
  @ApiProperty({
    type: PostRejectionDto,
    nullable: true,
    description: 'The latest rejection (reason, reviewer, time) when the post is REJECTED, else null',
  })
  lastRejection: PostRejectionDto | null;
}

/** The back-office and author post lists: the spec's paged fields plus the admin variant (posts, currentPage). */
export class PostAdminPageDto extends AdminPageFieldsDto {
  @ApiProperty({ type: [PostListItemDto] }) content: PostListItemDto[];
  @ApiProperty({ type: [PostListItemDto] }) posts: PostListItemDto[];
}

/** The caller's posts per status (GET /blog/posts/author/my-posts/counts): every status, 0 when it has none, and all of them. */
export class MyPostCountsDto {
  @ApiProperty() DRAFT: number;
  @ApiProperty() PENDING_REVIEW: number;
  @ApiProperty() PUBLISHED: number;
  @ApiProperty() REJECTED: number;
  @ApiProperty() ARCHIVED: number;
  @ApiProperty() PRIVATE: number;
  @ApiProperty({ description: "All of the caller's posts, any status" }) total: number;
}

/** One address of a numbered sitemap file: the slug of a post, tag or author page and its last change. */
export class SitemapEntryDto {
  @ApiProperty() slug: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: string;
}

/** Where an old post slug leads now (GET /blog/posts/public/moved/{slug}). */
export class PostMovedDto {
  @ApiProperty({ example: 'my-first-post', description: "The published post's current slug" }) slug: string;
}

/** A file of the sitemap index (isomorphic/sitemap.ts names it: /sitemap-pages.xml, /sitemap-posts-1.xml…). */
export class SitemapIndexFileDto {
  @ApiProperty({
    enum: ['pages', ...SITEMAP_ENTRY_KINDS],
    description: 'pages: the home page, /blog and /authors; the others: published posts, active tags with published posts, author pages',
  })
  kind: SitemapKind;
  @ApiProperty({
    example: 1,
    description: `The file number within its kind (1 for pages): file n holds the ids ((n - 1) · ${FILE_SIZE}, n · ${FILE_SIZE}]`,
  })
  number: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "The last change among the file's addresses (pages: among all of them); null with nothing published",
  })
  lastmod: string | null;
}

/** sitemap.xml: the sitemap's files, at most SITEMAP_FILE_SIZE addresses each. */
export class SitemapIndexDto {
  @ApiProperty({
    type: [SitemapIndexFileDto],
    description: 'pages first, then posts, tags and authors by number; a kind whose id range holds nothing has no file for it',
  })
  files: SitemapIndexFileDto[];
}

/** One numbered sitemap file's addresses, in id order (at most SITEMAP_FILE_SIZE). */
export class SitemapFileDto {
  @ApiProperty({ type: [SitemapEntryDto] }) entries: SitemapEntryDto[];
}

/** What the authors list and an author's page both show of a public author. */
export abstract class PublicAuthorDto {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'The author page: /authors/{slug}' }) slug: string;
  @ApiProperty() fullName: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ type: String, nullable: true }) bio: string | null;
  @ApiProperty({ description: 'Published posts' }) postCount: number;
  @ApiProperty({ description: 'Likes over published posts' }) totalLikes: number;
}

export class AuthorSummaryDto extends PublicAuthorDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) latestPostAt: string | null;
}

/** An author's public page (/authors/{slug}): an active AUTHOR (or ADMIN) with at least one published post. */
export class AuthorProfileDto extends PublicAuthorDto {
  @ApiProperty({ type: String, format: 'date-time', description: 'When the account was created' }) joinedAt: string;
}
