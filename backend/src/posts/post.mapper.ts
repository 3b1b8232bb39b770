import type { TagRefDto } from '../tags/dto/tag-response.dto';
import { User } from '../users/entities/user.entity';
import { PostCardResponseDto, PostListItemDto, PostResponseDto } from './dto/post-response.dto';
import type { PostSeo } from '../revisions/entities/post-revision.entity';
import { Post, PostStatus } from './entities/post.entity';

/** A card row as the public list queries select it (snake_case columns of posts + the author). */
export interface PostCardRow {
  id: number;
  title: string;
  slug: string;
  summary: string | null;
  thumbnail: string | null;
  like_count: number;
  view_count: number;
  comment_count: number;
  is_featured: boolean;
  published_at: Date | null;
  reading_time: number;
  author_id: number;
  author_name: string;
  author_avatar: string | null;
  author_slug: string;
  canonical_url: string | null;
}

/** A card row with its tag chips (public lists, search hits, related posts). */
export type PostCardWithTags = PostCardRow & { tags: TagRefDto[] };

/** The post columns an answer shows (an entity, or a row selected under the entity's property names). */
type PostColumns = Pick<
  Post,
  | 'id'
  | 'title'
  | 'slug'
  | 'summary'
  | 'content'
  | 'contentHtml'
  | 'status'
  | 'thumbnail'
  | 'publishedAt'
  | 'createdAt'
  | 'updatedAt'
  | 'authorId'
  | 'likeCount'
  | 'viewCount'
  | 'commentCount'
  | 'isFeatured'
  | 'readingTime'
  | 'wordCount'
  | 'scheduledAt'
  | 'requestedPublishAt'
  | 'version'
  | 'metaTitle'
  | 'metaDescription'
  | 'canonicalUrl'
  | 'noindex'
  | 'socialImage'
>;

/** A post with the author columns answers show; the e-mail only where an answer may carry it. */
export type PostForAnswer = PostColumns & { author: Pick<User, 'id' | 'slug' | 'fullName' | 'avatar' | 'bio'> & { email?: string } };

/** A post as the back-office and author lists read it: no body, the author's name and e-mail. */
export type PostListRow = Omit<PostColumns, 'content' | 'contentHtml'> & {
  author: Pick<User, 'fullName' | 'email'>;
  tags: TagRefDto[];
  /** JSON from the query: reviewedAt is PostgreSQL's text of a timestamptz. */
  lastRejection: { reason: string | null; reviewerName: string | null; reviewedAt: string } | null;
};

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function toPostCard(row: PostCardRow, tags: TagRefDto[]): PostCardResponseDto {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    summary: row.summary,
    thumbnail: row.thumbnail,
    likeCount: row.like_count,
    viewCount: row.view_count,
    commentCount: row.comment_count,
    isFeatured: row.is_featured,
    publishedAt: iso(row.published_at),
    readingTime: row.reading_time,
    authorId: row.author_id,
    authorName: row.author_name,
    authorAvatar: row.author_avatar,
    authorSlug: row.author_slug,
    tags,
    canonicalUrl: row.canonical_url,
  };
}

/** What the whole post and a list item share. */
function commonFields(post: Omit<PostColumns, 'content' | 'contentHtml'> & { author: Pick<User, 'fullName'> }) {
  return {
    id: post.id,
    title: post.title,
    slug: post.slug,
    summary: post.summary,
    status: post.status,
    thumbnail: post.thumbnail,
    publishedAt: iso(post.publishedAt),
    createdAt: post.createdAt.toISOString(),
    updatedAt: post.updatedAt.toISOString(),
    userId: post.authorId,
    authorName: post.author.fullName,
    likeCount: post.likeCount,
    viewCount: post.viewCount,
    commentCount: post.commentCount,
    isFeatured: post.isFeatured,
    readingTime: post.readingTime,
    wordCount: post.wordCount,
    scheduledAt: iso(post.scheduledAt),
    requestedPublishAt: iso(post.requestedPublishAt),
    version: post.version,
    seo: seoOf(post),
  };
}

/** The SEO fields of a post as answers (and revisions) carry them. */
export function seoOf(post: Pick<Post, 'metaTitle' | 'metaDescription' | 'canonicalUrl' | 'noindex' | 'socialImage'>): PostSeo {
  return {
    metaTitle: post.metaTitle,
    metaDescription: post.metaDescription,
    canonicalUrl: post.canonicalUrl,
    noindex: post.noindex,
    socialImage: post.socialImage,
  };
}

/** The whole post; `withEmail` only on authenticated endpoints (never public ones). */
export function toPostResponse(post: PostForAnswer, tags: TagRefDto[], withEmail: boolean): PostResponseDto {
  const { author } = post;
  const response: PostResponseDto = {
    ...commonFields(post),
    content: post.content,
    contentHtml: post.contentHtml,
    author: { id: author.id, slug: author.slug, fullName: author.fullName, avatar: author.avatar, bio: author.bio },
    tags,
  };
  if (withEmail) response.authorEmail = author.email;
  return response;
}

/** A post in back-office and author lists: no body, with the author's e-mail. */
export function toPostListItem(post: PostListRow): PostListItemDto {
  const rejection = post.lastRejection;
  return {
    ...commonFields(post),
    authorEmail: post.author.email,
    tags: post.tags,
    lastRejection: rejection
      ? { reason: rejection.reason ?? '', reviewerName: rejection.reviewerName, reviewedAt: new Date(rejection.reviewedAt).toISOString() }
      : null,
  };
}

export const isPublic = (status: PostStatus): boolean => status === PostStatus.PUBLISHED;
