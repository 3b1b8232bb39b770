/**
 * Texts of the back-office post screens (/admin/posts; docs/requirements.md#screen-admin-posts, docs/requirements.md#validation-post, docs/requirements.md#errors-posts): notices and toasts,
 * review and rejection messages, confirmations, load failures and empty states. Verbatim where
 * the spec gives them.
 */
import { errorText, type ErrorTexts } from '../../lib/texts/error-text';

export const AdminPostsTexts = {
  TITLE: 'Post Management',
  SUBTITLE: 'Review, publish, archive and edit every post on Inkwell.',

  // toasts (docs/requirements.md#errors-posts)
  LOAD_FAILED: 'Load Failed',
  REVIEW_FAILED: 'Review Failed',
  REJECTION_FAILED: 'Rejection Failed',
  DELETE_FAILED: 'Delete Failed',
  UPDATE_FAILED: 'Update Failed',
  FETCH_FAILED: 'Failed to fetch posts',
  DELETE_FALLBACK: 'Failed to delete post',
  UPDATE_FALLBACK: 'Failed to update post',
  deleteFailed: (message: string) => `Delete failed: ${message}`,

  // review (docs/requirements.md#validation-review)
  DECISION_REQUIRED: 'Please select a review decision.',
  REASON_REQUIRED: 'Please provide a rejection reason.',
  QUICK_REASON_REQUIRED: 'A rejection reason is required.',
  REJECT_SUGGESTION: 'Please revise this post based on the feedback and resubmit it for review.',
  HISTORY_EMPTY: 'No reviews yet.',
  HISTORY_FAILED: 'Failed to load the review history.',

  // scheduling (the success titles are the API's messages)
  PUBLISH_AT: 'Publish at',
  PUBLISH_AT_EMPTY: 'Leave it empty to publish now.',
  PUBLISH_AT_REQUIRED: 'Please choose when to publish the post.',
  requested: (time: string) => `Requested by the author: ${time}`,
  APPROVE_TITLE: 'Approve Post',
  RESCHEDULE_TITLE: 'Reschedule Post',
  CANCEL_SCHEDULE_TITLE: 'Cancel the schedule?',
  cancelScheduleConfirm: (title: string, time: string) => `“${title}” will not be published at ${time}. It goes back to the review queue.`,
  SCHEDULE_FAILED: 'Schedule Failed',
  SCHEDULE_FALLBACK: 'Failed to update the schedule',
  SCHEDULED: 'Post approved and scheduled.',
  RESCHEDULED: 'Schedule updated.',
  SCHEDULE_CANCELLED: 'Schedule cancelled.',
  willPublish: (title: string, time: string) => `“${title}” will be published at ${time}.`,
  backInQueue: (title: string) => `“${title}” is waiting for review again.`,

  // the reviewer's diff
  DIFF_TITLE: 'Changes since the last rejection',
  DIFF_LOADING: 'Loading the changes since the last rejection...',
  DIFF_FAILED: 'Failed to load the changes since the last rejection.',
  REJECTED_BEFORE: 'Rejected before:',
  NO_CHANGES: 'No changes.',
  UNKNOWN_REVIEWER: 'Unknown reviewer',

  // successes
  APPROVED: 'Post approved',
  REJECTED: 'Post rejected',
  PUBLISHED: 'Post published',
  ARCHIVED: 'Post archived',
  DELETED: 'Post deleted',
  deleted: (title: string) => `"${title}" was deleted.`,
  CREATED_NOTICE: 'Post created successfully.',
  UPDATED_NOTICE: 'Post updated successfully.',

  // confirmations
  DELETE_TITLE: 'Delete post?',
  deleteConfirm: (title: string) => `"${title}" will be deleted with its comments, likes and reviews. This cannot be undone.`,
  PUBLISH_TITLE: 'Publish post?',
  publishConfirm: (title: string) => `"${title}" will be visible to every reader.`,
  ARCHIVE_TITLE: 'Archive post?',
  archiveConfirm: (title: string) => `"${title}" will be taken off the public pages.`,

  // list states
  EMPTY: 'No posts yet',
  EMPTY_MESSAGE: 'Posts appear here as soon as authors create them.',
  NO_MATCH: 'No posts match your filters',
  NO_MATCH_MESSAGE: 'Try another search or clear the filters.',
  LOADING: 'Loading posts...',

  // editor pages
  NOT_FOUND: 'Post not found.',
  PREVIEW_TITLE: 'Post Preview',
} as const;

/**
 * A failed call's text as the spec's catalogue words it (docs/requirements.md#errors-transport): no answer keeps the network
 * text, 401 'Authentication failed. Please log in again.', 5xx 'Server error occurred. Please try
 * again later.', anything else the server's message (it carries the 403 'You do not have
 * permission to ...' texts), else the action's fallback.
 */
export const adminErrors = (actionFailed: string): ErrorTexts => ({
  fallback: actionFailed,
  status: { 401: 'Authentication failed. Please log in again.' },
  server: 'Server error occurred. Please try again later.',
});

/** The same as a function, for the pages that call it. */
export const adminErrorMessage = (error: unknown, actionFailed: string): string => errorText(error, adminErrors(actionFailed));
