import type { PostStatus } from './entities/post.entity';

/** Texts of the posts area (spec 001 §5, §8; DESIGN.md §4), verbatim where the spec gives them. */
export const PostsMessages = {
  AUTH_REQUIRED: 'Authentication required: Please log in to create/update posts.',
  TITLE_REQUIRED: 'Title is required',
  CONTENT_REQUIRED: 'Content is required',
  SLUG_REQUIRED: 'Slug is required',
  SLUG_INVALID: 'Invalid slug format: Slug must contain only lowercase letters, numbers, and hyphens.',
  TITLE_TOO_LONG: 'Title must be at most 200 characters',
  SLUG_TOO_LONG: 'Slug must be at most 200 characters',
  SUMMARY_TOO_LONG: 'Summary must be at most 1000 characters',
  CONTENT_TOO_LONG: 'Content must be at most 200000 characters',
  THUMBNAIL_INVALID: 'Thumbnail must be an http(s) URL or a path starting with /',
  TAG_SLUGS_INVALID: 'tagSlugs must be a list of at most 20 tag slugs',
  META_TITLE_TOO_LONG: 'Meta title must be at most 300 characters',
  META_DESCRIPTION_TOO_LONG: 'Meta description must be at most 500 characters',
  CANONICAL_URL_INVALID: 'Canonical URL must be an absolute http(s) URL of at most 500 characters',
  NOINDEX_INVALID: 'noindex must be true or false',
  SOCIAL_IMAGE_INVALID: 'Social image must be an http(s) URL or a path starting with /',
  VERSION_INVALID: 'version must be a whole number of at least 1',
  VERSION_CONFLICT: 'This post was changed elsewhere since you opened it.',
  IF_MATCH_INVALID: 'If-Match must be a post version in quotes, such as "3"',
  REVISION_RESTORED: 'Revision restored.',
  STATUS_INVALID: 'Status must be one of DRAFT, PENDING_REVIEW, PUBLISHED, REJECTED, ARCHIVED, PRIVATE',
  SORT_INVALID: 'sort must be "field,direction": field one of createdAt, updatedAt, publishedAt, title, viewCount; direction asc or desc',
  slugTaken: (slug: string) => `Slug "${slug}" is already used by another post. Choose another slug.`,

  notFoundById: (id: number) => `Post with id ${id} not found`,
  notFoundBySlug: (slug: string) => `Post with slug "${slug}" not found`,
  tagNotFound: (slug: string) => `Tag "${slug}" not found`,
  authorNotFound: (slug: string) => `Author "${slug}" not found`,

  FORBIDDEN_POSTS: 'You do not have permission to access posts.',
  FORBIDDEN_ACCESS: 'You do not have permission to access this post.',
  FORBIDDEN_CREATE: 'You do not have permission to create posts.',
  FORBIDDEN_UPDATE: 'You do not have permission to update this post.',
  FORBIDDEN_DELETE: 'You do not have permission to delete this post.',

  illegalTransition: (from: PostStatus, to: PostStatus) =>
    `Cannot change the post status from ${from} to ${to}.` +
    (to === 'PENDING_REVIEW' ? ' Authors submit posts for review.' : to === 'REJECTED' ? ' Reject a post through its review, with a reason.' : ''),
  authorCannotEdit: (status: PostStatus) =>
    `This post is ${status} and can no longer be edited by its author. Only DRAFT and REJECTED posts can be edited; ask an administrator for changes.`,
  cannotSubmit: (status: PostStatus) => `Only DRAFT or REJECTED posts can be submitted for review; this post is ${status}.`,

  CREATED: 'Post created.',
  UPDATED: 'Post updated.',
  SAVED_AS_DRAFT: 'Post saved as a draft. Submit it for review to publish it.',
  SUBMITTED: 'Post submitted for review.',
  skippedTags: (base: string, slugs: string[]) => `${base} Skipped unknown or inactive tags: ${slugs.join(', ')}`,
} as const;
