/**
 * The API's types as the frontend names them, from the schema generated from openapi.json
 * (`@inkwell/client/schema`, the client package's packages/client/src/schema.ts): `DataOf` for the `data` of a GET endpoint's answer, `Schema` for a
 * named DTO, and the aliases more than one feature reads.
 */
import type { components, paths } from '@inkwell/client/schema';

/** A named schema of the API ('PostCardResponseDto'). */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The envelope `data` of a GET endpoint's 200 answer. */
export type DataOf<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': { data: infer T } } } } };
}
  ? T
  : never;

/** Like record: the liked post with the time it was liked (createdAt); userName is the post's author. */
export type LikeRecord = Schema<'LikeRecordDto'>;
/** A comment with its post: the reader's own list and the recent comments. */
export type UserComment = Schema<'CommentActivityDto'>;
export type RecentComment = Schema<'CommentActivityDto'>;
export type ReaderStats = Schema<'ReaderDashboardStatsDto'>;
export type QuickStats = Schema<'QuickStatsDto'>;

/** The signed-in user's profile (GET /users/profile). */
export type UserProfile = Schema<'UserProfileResponseDto'>;
export type UserStatus = Schema<'UserStatus'>;
export type RoleName = Schema<'RoleName'>;

export type PostStatus = Schema<'PostStatus'>;
/** What the caller may do with a post now: the post lifecycle's answer (never decided again here). */
export type PostAction = Schema<'PostAction'>;

/** Whether a post answer allows `action` to its caller. */
export const allows = (post: { allowedActions?: PostAction[] } | undefined, action: PostAction): boolean =>
  post?.allowedActions?.includes(action) ?? false;
/** A whole post (GET /blog/posts/{id}, the public post page): the editor, the previews, the article. */
export type Post = Schema<'PostResponseDto'>;
/** A post in a list without its body: My Posts, the admin list. */
export type PostListItem = Schema<'PostListItemDto'>;
/** A post as the public cards, feeds and related lists show it. */
export type PostCardData = Schema<'PostCardResponseDto'>;
/** One review of a post (GET /blog/post-reviews/{id}/history). */
export type PostReview = Schema<'PostReviewResponseDto'>;
export type Tag = Schema<'TagResponseDto'>;
