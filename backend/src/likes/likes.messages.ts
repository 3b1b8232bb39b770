/** Texts of likes (docs/requirements.md#validation-like, docs/requirements.md#errors-dashboards; docs/requirements.md#decision-counters), verbatim where the spec gives them. */
export const LikesMessages = {
  INVALID_POST_ID: 'Invalid post ID.',
  /**
   * The spec names it only as "a Vietnamese message saying login is needed to like"; the same text
   * as the Like button's (frontend/src/features/likes/texts.ts).
   */
  LOGIN_REQUIRED: 'Vui lòng đăng nhập để thích bài viết.',
  POST_NOT_FOUND: 'Post not found.',
  NOT_LIKED: 'Post not found or not liked.',

  LIKED: 'Post liked.',
  ALREADY_LIKED: 'You already like this post.',
  UNLIKED: 'Post unliked.',
  TEST: 'Likes API is working.',
} as const;
