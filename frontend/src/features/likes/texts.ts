/**
 * Texts of the Like button (docs/requirements.md#validation-like, docs/requirements.md#errors-dashboards), verbatim
 * where the spec gives them. The spec names the visitor's message only as "a Vietnamese message
 * saying login is needed to like"; the text below is that message.
 */
import type { ErrorTexts } from '../../lib/texts/error-text';

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

/** What a failed like shows: the login message on 401, else the server's text or the fallback. */
export const LIKE_ERRORS: ErrorTexts = {
  fallback: LikesTexts.FAILED,
  status: { 401: LikesTexts.LOGIN_REQUIRED },
  withoutMessage: { 403: LikesTexts.FORBIDDEN_LIKE },
};

/** The same for an unlike (its own 403 text). */
export const UNLIKE_ERRORS: ErrorTexts = { ...LIKE_ERRORS, withoutMessage: { 403: LikesTexts.FORBIDDEN_UNLIKE } };
