import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { LookupPageQueryDto, PageQueryDto } from '../../common/pagination/page';
import { sortQuery } from '../../common/pagination/sort';
import { Check, MaxChars, trim, trimOrNull, WholeNumberInRange } from '../../common/validation/field.rules';
import { POST_STATUSES, PostStatus } from '../entities/post.entity';
import { PostsMessages } from '../posts.messages';

const trimList = ({ value }: { value: unknown }) =>
  Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item.trim().toLowerCase() : item)) : value;

const THUMBNAIL = /^(https?:\/\/[^\s<>"']+|\/[^\s<>"']*)$/i;

/** An absolute http(s) URL with a host (a canonical address search engines follow). */
function isAbsoluteHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s<>"']+$/i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The fields every post save takes (all optional here: the required ones and their order are the
 * service's checks, docs/requirements.md#validation). Strings are trimmed.
 */
class PostFieldsDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: PostsMessages.TITLE_REQUIRED })
  @MaxChars(200, PostsMessages.TITLE_TOO_LONG)
  title?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Derived from the title when omitted on create (made unique with -2, -3, ...)' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: PostsMessages.SLUG_INVALID })
  @MaxChars(200, PostsMessages.SLUG_TOO_LONG)
  slug?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: PostsMessages.SUMMARY_TOO_LONG })
  @MaxChars(1000, PostsMessages.SUMMARY_TOO_LONG)
  summary?: string | null;

  @ApiPropertyOptional({ maxLength: 200000, description: 'Markdown' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: PostsMessages.CONTENT_REQUIRED })
  @MaxChars(200000, PostsMessages.CONTENT_TOO_LONG)
  content?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Image URL (http(s) or a path such as /images/...)' })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: PostsMessages.THUMBNAIL_INVALID })
  @MaxChars(500, PostsMessages.THUMBNAIL_INVALID)
  @Matches(THUMBNAIL, { message: PostsMessages.THUMBNAIL_INVALID })
  thumbnail?: string | null;

  @ApiPropertyOptional({ type: [String], description: 'Slugs of ACTIVE tags; unknown or inactive ones are skipped with a warning' })
  @IsOptional()
  @Transform(trimList)
  @IsArray({ message: PostsMessages.TAG_SLUGS_INVALID })
  @ArrayMaxSize(20, { message: PostsMessages.TAG_SLUGS_INVALID })
  @IsString({ each: true, message: PostsMessages.TAG_SLUGS_INVALID })
  @MaxLength(100, { each: true, message: PostsMessages.TAG_SLUGS_INVALID })
  tagSlugs?: string[];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 300,
    description: 'SEO: the title search engines and social cards show (default: the title)',
  })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: PostsMessages.META_TITLE_TOO_LONG })
  @MaxChars(300, PostsMessages.META_TITLE_TOO_LONG)
  metaTitle?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, description: 'SEO: the description (default: the summary)' })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: PostsMessages.META_DESCRIPTION_TOO_LONG })
  @MaxChars(500, PostsMessages.META_DESCRIPTION_TOO_LONG)
  metaDescription?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 500,
    description: "SEO: canonical URL override, an absolute http(s) URL (default: the post's own URL)",
  })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: PostsMessages.CANONICAL_URL_INVALID })
  @MaxChars(500, PostsMessages.CANONICAL_URL_INVALID)
  @Check('absoluteHttpUrl', isAbsoluteHttpUrl, PostsMessages.CANONICAL_URL_INVALID)
  canonicalUrl?: string | null;

  @ApiPropertyOptional({ description: 'SEO: keep the post out of search engines and the sitemap (default false)' })
  @IsOptional()
  @IsBoolean({ message: PostsMessages.NOINDEX_INVALID })
  noindex?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "SEO: the social card's image, same rule as thumbnail (default: the thumbnail's 1200-wide variant)",
  })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: PostsMessages.SOCIAL_IMAGE_INVALID })
  @MaxChars(500, PostsMessages.SOCIAL_IMAGE_INVALID)
  @Matches(THUMBNAIL, { message: PostsMessages.SOCIAL_IMAGE_INVALID })
  socialImage?: string | null;

  @ApiPropertyOptional({
    minimum: 1,
    description:
      'The post version this edit is based on (also accepted as If-Match: "<n>"; this field wins). A different stored version is 409 with both. Omitted: no check.',
  })
  @IsOptional()
  @WholeNumberInRange(1, 2147483647, PostsMessages.VERSION_INVALID)
  version?: number;
}

/** Admin create/update (POST /blog/posts, PUT /blog/posts/{id}): status and isFeatured count. */
export class PostSaveDto extends PostFieldsDto {
  @ApiPropertyOptional({
    enum: PostStatus,
    enumName: 'PostStatus',
    description: 'Default DRAFT on create. Admins only; ignored for authors.',
  })
  @IsOptional()
  @IsIn(POST_STATUSES, { message: PostsMessages.STATUS_INVALID })
  status?: PostStatus;

  @ApiPropertyOptional({ description: 'Admins only; ignored for authors' })
  @IsOptional()
  @IsBoolean({ message: 'isFeatured must be true or false' })
  isFeatured?: boolean;
}

/** Author create/update (/blog/posts/author/...): always saved as DRAFT; status and isFeatured are accepted and ignored. */
export class PostAuthorSaveDto extends PostSaveDto {}

export const POST_SORT_FIELDS = ['createdAt', 'updatedAt', 'publishedAt', 'title', 'viewCount'] as const;
export type PostSortField = (typeof POST_SORT_FIELDS)[number];

/** Back-office list: ?page&size&sortBy&sortDir&status&search. */
export class PostAdminQueryDto extends sortQuery(POST_SORT_FIELDS, { defaultField: 'createdAt' }) {
  @ApiPropertyOptional({ enum: PostStatus, enumName: 'PostStatus' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() || undefined : value))
  @IsIn(POST_STATUSES, { message: PostsMessages.STATUS_INVALID })
  status?: PostStatus;

  @ApiPropertyOptional({ description: 'Words in the title, slug or summary' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxChars(200, 'search must be at most 200 characters')
  search?: string;
}

/** The author's list: ?page&size&status; size up to 1000 (the spec's status counts). */
export class PostMineQueryDto extends LookupPageQueryDto {
  @ApiPropertyOptional({ enum: PostStatus, enumName: 'PostStatus' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() || undefined : value))
  @IsIn(POST_STATUSES, { message: PostsMessages.STATUS_INVALID })
  status?: PostStatus;
}

/** Posts of a tag: ?page&size&sort=publishedAt,desc. */
export class PostTagQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    default: 'publishedAt,desc',
    description: 'field,direction; fields createdAt, updatedAt, publishedAt, title, viewCount',
  })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(`^(${POST_SORT_FIELDS.join('|')})(,(asc|desc|ASC|DESC))?$`), { message: PostsMessages.SORT_INVALID })
  sort?: string;
}

/** A former site's path (an imported post's old address): ?path=/2014/03/09/slug/. */
export class PostMovedPathQueryDto {
  @ApiProperty({
    example: '/2014/03/09/hello-world/',
    description: 'The path as requested on this site (percent-encoded or not: stored paths are compared decoded)',
  })
  @IsString()
  // Percent-encoding makes a path in another script up to nine times longer than the 300 characters stored.
  @MaxLength(2700)
  @Matches(/^\//, { message: 'path must start with /' })
  path: string;
}
