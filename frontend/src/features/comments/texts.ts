/**
 * Texts of the comments section (docs/requirements.md#comments-section, docs/requirements.md#validation-comment, docs/requirements.md#errors-comments),
 * verbatim where the spec gives them. The spec has no texts for a finished edit or delete, nor
 * for their failures; those follow the spec's own ('Comment has been added.', 'Unable to add
 * comment. Please try again.').
 */
import type { ErrorTexts } from '../../lib/texts/error-text';
import { formatShortDateTime, formatViDateTime, relativeTime as relativeTimeIn } from '../../lib/dates';
import { charCount, trimInvisible } from '../../../../isomorphic/text';

export const CommentsTexts = {
  EMPTY: 'Comment content cannot be empty',
  TOO_LONG: 'Comment content cannot exceed 200 characters',
  LOGIN_REQUIRED: 'You need to log in to comment.',
  ADD_FAILED: 'Unable to add comment. Please try again.',
  REPLY_FAILED: 'Unable to add reply.',
  REFRESH_FAILED: 'Unable to refresh comments.',
  LOAD_MORE_FAILED: 'Unable to load more comments.',
  SEND_FAILED: 'An error occurred while sending the comment. Please try again.',
  ADDED: 'Comment has been added.',
  REPLY_ADDED: 'Reply has been added.',
  UPDATED: 'Comment has been updated.',
  UPDATE_FAILED: 'Unable to update comment. Please try again.',
  REMOVED: 'Comment has been deleted.',
  DELETE_FAILED: 'Unable to delete comment. Please try again.',
  DELETE_CONFIRM: 'Delete this comment?',
  NOT_FOUND: 'Comment not found.',
  INVALID: 'Invalid comment data. Please check your input.',
  FORBIDDEN_COMMENT: 'You do not have permission to comment.',
  FORBIDDEN_DELETE: 'You do not have permission to delete this comment.',
  DELETED_MARKER: '[This comment has been deleted]',
  EDITED: '(edited)',
  UNKNOWN_USER: 'Unknown User',
  ANONYMOUS_USER: 'Anonymous User',
  SYSTEM_ERROR: 'Comment System Error',
  SYSTEM_ERROR_MESSAGE: 'The comments could not be shown. Try again, or reload the page.',
  NO_COMMENTS: 'No comments yet. Be the first to share your thoughts.',
  LOADING: 'Loading comments...',
  // Moderation (beyond the spec, in its tone).
  HIDDEN_MARKER: '[This comment has been hidden by a moderator]',
  AWAITING_MODERATION: 'Awaiting moderation',
  HELD_ADDED: 'Your comment is awaiting moderation. Only you can see it until a moderator reviews it.',
  HELD_NOTE: 'Only you can see this comment until a moderator reviews it.',
  REPORTED: 'Thank you. The comment has been reported to the moderators.',
  REPORT_FAILED: 'Unable to report comment. Please try again.',
  REPORT_DETAILS_REQUIRED: 'Please describe the problem.',
  REPORT_DETAILS_TOO_LONG: 'The description cannot exceed 500 characters',
  HIDDEN: 'Comment has been hidden.',
  HIDE_FAILED: 'Unable to hide comment. Please try again.',
  HIDE_REASON_REQUIRED: 'Please give a reason.',
} as const;

/** Why a reader reports a comment (POST /comments/{id}/reports `reason`), as the dialog lists them. */
export const REPORT_REASONS = [
  { value: 'SPAM', label: 'Spam', hint: 'Advertising, scams or repeated posts' },
  { value: 'HARASSMENT', label: 'Harassment', hint: 'Insults, threats or hate aimed at someone' },
  { value: 'OFF_TOPIC', label: 'Off-topic', hint: 'Nothing to do with the post' },
  { value: 'OTHER', label: 'Other', hint: 'Tell the moderators what is wrong' },
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number]['value'];
/** The report's description: required for Other, at most 500 characters (the API's limit). */
export const REPORT_DETAILS_MAX = 500;
/** A hide's reason: at most 500 characters (the API's limit). */
export const HIDE_REASON_MAX = 500;

/**
 * Why a muted reader cannot comment, in place of the comment form (the profile's mute fields;
 * the API answers 403 with the same facts if they send one anyway).
 */
export function mutedNotice(until: string | null, reason: string): string {
  // The API's 403 words (CommentsMessages.MUTED_UNTIL / MUTED_FOREVER), the time as it writes it.
  const date = until ? new Date(until) : undefined;
  const why = reason ? ` Reason: ${reason}` : '';
  return date && !Number.isNaN(date.getTime())
    ? `You cannot comment until ${formatShortDateTime(date)}.${why}`
    : `You can no longer comment on this site.${why}`;
}

/** The report's check before sending: a reason, and for Other a description of at most 500 characters. */
export function reportProblem(reason: ReportReason | undefined, details: string): string | undefined {
  if (!reason) return 'Choose a reason.';
  const text = trimInvisible(details);
  if (reason === 'OTHER' && !text) return CommentsTexts.REPORT_DETAILS_REQUIRED;
  if (charCount(text) > REPORT_DETAILS_MAX) return CommentsTexts.REPORT_DETAILS_TOO_LONG;
  return undefined;
}

/** Comment length 1-200; the counter turns red above 180 (docs/requirements.md#constants-comments). */
export const COMMENT_MAX_LENGTH = 200;
export const COMMENT_WARN_LENGTH = 180;
/** Comments per page (docs/requirements.md#constants-comments). */
export const COMMENT_PAGE_SIZE = 10;
/**
 * Reply nesting: levels 0 to 3 ('maxLevel 3'); a level-3 comment offers no Reply (the server would
 * store the reply beside it, not under it: answer its parent instead); indentation stops after
 * 2 levels of 24 px (docs/requirements.md#comments-nesting).
 */
export const COMMENT_MAX_LEVEL = 3;
export const COMMENT_INDENT_LEVELS = 2;

/** The comment a `#comment-{id}` address points to ('View in article' links), or undefined. */
export function commentIdOfHash(hash: string): number | undefined {
  const match = /^#comment-([1-9]\d{0,9})$/.exec(hash);
  return match && Number(match[1]) <= 2_147_483_647 ? Number(match[1]) : undefined;
}

/** The client-side check before sending (docs/requirements.md#validation-comment): trimmed (invisible characters too), not empty, at most 200 characters. */
export function commentContentError(content: string): string | undefined {
  const text = trimInvisible(content);
  if (!text) return CommentsTexts.EMPTY;
  if (charCount(text) > COMMENT_MAX_LENGTH) return CommentsTexts.TOO_LONG;
  return undefined;
}

/**
 * What a failed write shows. No answer or a 5xx: 'An error occurred while sending the comment';
 * 401: the login message; a 400 with a field error, 403 and 404: the server's text (the spec's);
 * anything else: the action's own fallback.
 */
export const commentErrors = (actionFailed: string): ErrorTexts => ({
  fallback: actionFailed,
  network: CommentsTexts.SEND_FAILED,
  server: CommentsTexts.SEND_FAILED,
  status: { 401: CommentsTexts.LOGIN_REQUIRED },
  serverMessage: [400, 403, 404, 409, 429],
});

/** A comment's time in full, in the site zone and naming it ('15:04 22/11/2026 GMT+7'): the server's text and the tooltip. */
export function commentDateTime(value: string | null | undefined): string {
  return formatViDateTime(value) || 'Unknown';
}

/**
 * Relative time of a comment (docs/requirements.md#relative-time): after a week the date, Vietnamese as on
 * the public pages. It depends on the clock, so only the hydrated section shows it (see CommentSection's useNow).
 */
export const relativeTime = (value: string | null | undefined, now = Date.now()): string => relativeTimeIn(value, 'viDate', now);

/** The placeholder readers see, and what follows a hide, for the Hide dialog's description. */
export const hideDescription = (whose: string) =>
  `Readers will see '${CommentsTexts.HIDDEN_MARKER}' in place of ${whose}; replies stay. The author is told the reason, and an administrator can restore it.`;
