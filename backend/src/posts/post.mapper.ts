import type { TagRefDto } from '../tags/dto/tag-response.dto';
import { User } from '../users/entities/user.entity';
import { PostCardResponseDto, PostListItemDto, PostResponseDto } from './dto/post-response.dto';
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
}

/** A whole published post as the public by-slug query selects it. */
export interface PublicPostRow {
  id: number;
  title: string;
  slug: string;
  summary: string | null;
  content: string;
  content_html: string;
  status: PostStatus;
  thumbnail: string | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
  author_id: number;
  like_count: number;
  view_count: number;
  comment_count: number;
  is_featured: boolean;
  reading_time: number;
  author_name: string;
  author_avatar: string | null;
  author_bio: string | null;
}

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
    tags,
  };
}

/** The whole post for anonymous readers (the same fields as toPostResponse without the e-mail). */
export function toPublicPostResponse(row: PublicPostRow, tags: TagRefDto[]): PostResponseDto {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    summary: row.summary,
    content: row.content,
    contentHtml: row.content_html,
    status: row.status,
    thumbnail: row.thumbnail,
    publishedAt: iso(row.published_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    userId: row.author_id,
    authorName: row.author_name,
    author: { id: row.author_id, fullName: row.author_name, avatar: row.author_avatar, bio: row.author_bio },
    tags,
    likeCount: row.like_count,
    viewCount: row.view_count,
    commentCount: row.comment_count,
    isFeatured: row.is_featured,
    readingTime: row.reading_time,
  };
}

/** The whole post; `withEmail` only on authenticated endpoints (never public ones). */
export function toPostResponse(post: Post & { author: User }, tags: TagRefDto[], withEmail: boolean): PostResponseDto {
  const response: PostResponseDto = {
    id: post.id,
    title: post.title,
    slug: post.slug,
    summary: post.summary,
    content: post.content,
    contentHtml: post.contentHtml,
    status: post.status,
    thumbnail: post.thumbnail,
    publishedAt: iso(post.publishedAt),
    createdAt: post.createdAt.toISOString(),
    updatedAt: post.updatedAt.toISOString(),
    userId: post.authorId,
    authorName: post.author.fullName,
    author: { id: post.author.id, fullName: post.author.fullName, avatar: post.author.avatar, bio: post.author.bio },
    tags,
    likeCount: post.likeCount,
    viewCount: post.viewCount,
    commentCount: post.commentCount,
    isFeatured: post.isFeatured,
    readingTime: post.readingTime,
  };
  if (withEmail) response.authorEmail = post.author.email;
  return response;
}

export function toPostListItem(post: Post & { author: User }, tags: TagRefDto[]): PostListItemDto {
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
    authorEmail: post.author.email,
    tags,
    likeCount: post.likeCount,
    viewCount: post.viewCount,
    commentCount: post.commentCount,
    isFeatured: post.isFeatured,
    readingTime: post.readingTime,
  };
}

export const isPublic = (status: PostStatus): boolean => status === PostStatus.PUBLISHED;
