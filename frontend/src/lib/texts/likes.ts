/**
 * Texts of the Like button (spec 001 §5 Like, §8; spec 000 §8 'Dashboards and likes'), verbatim
 * where the spec gives them. The spec names the visitor's message only as "a Vietnamese message
 * saying login is needed to like"; the text below is that message.
 */
import { ApiError } from '../api/errors';

export const LikesTexts = {
  /** A visitor presses Like. */
  LOGIN_REQUIRED: 'Vui lòng đăng nhập để thích bài viết.',
  INVALID_POST_ID: 'Invalid post ID.',
  /** Fallback when a like or unlike fails without a message of its own. */
  FAILED: 'Failed to like post',
  NOT_LIKED: 'Post not found or not liked.',
  FORBIDDEN_LIKE: 'You do not have permission to like',
  FORBIDDEN_UNLIKE: 'You do not have permission to unlike',
} as const;

/** What a failed like or unlike shows: the login message on 401, else the server's text or the fallback. */
export function likeErrorMessage(error: unknown, liking: boolean): string {
  if (!(error instanceof ApiError)) return LikesTexts.FAILED;
  if (error.status === 401) return LikesTexts.LOGIN_REQUIRED;
  if (error.status === 403) return error.message || (liking ? LikesTexts.FORBIDDEN_LIKE : LikesTexts.FORBIDDEN_UNLIKE);
  return error.message || LikesTexts.FAILED;
}
