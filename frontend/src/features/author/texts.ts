/**
 * Texts of the author's pages (docs/requirements.md#screen-author-posts author dashboard, My Posts, new post, drafts, docs/requirements.md#errors-dashboards author
 * list and dashboard errors): verbatim where the spec gives them; the rest (status labels, why a
 * post is locked, the drafts page's wording) written in the same tone.
 */
import { countNoun, Nouns } from '../../lib/texts/nouns';
import type { PostStatus } from './author';
import { errorText, type ErrorTexts } from '../../lib/texts/error-text';

export const AuthorDashboardTexts = {
  TITLE: 'Author Dashboard',
  SUBTITLE: 'Your writing at a glance.',
  TOTAL_POSTS: 'Total Posts (System)',
  MY_POSTS: 'My Posts',
  PUBLISHED: 'Published',
  DRAFTS: 'Drafts',
  SYSTEM_INFO: 'System Information',
  TOTAL_TAGS: 'Total Tags Available',
  RECENT: 'Recent Activities',
  RECENT_EMPTY: 'No recent activities',
  QUICK_ACTIONS: 'Quick Actions',
  CREATE_POST: 'Create New Post',
  MANAGE_POSTS: 'Manage Posts',
  VIEW_TAGS: 'View Tags',
  LAST_UPDATED: 'Last updated:',
  /** The alert's text: the spec's prefix and the failure's own words. */
  loadFailed: (message: string) => `Failed to load dashboard data: ${message}`,
  FETCH_FAILED: 'Failed to fetch dashboard stats',
  NO_DATA: 'No dashboard data',
} as const;

export const MyPostsTexts = {
  TITLE: 'My Posts',
  SUBTITLE: 'Everything you have written, whatever its status.',
  NEW_POST: 'New Post',
  EMPTY: 'No posts yet',
  EMPTY_MESSAGE: 'Start writing: your posts appear here as drafts until you submit them for review.',
  EMPTY_FILTERED: 'No posts with this status',
  CREATE_FIRST: 'Create Your First Post',
  STAT_TOTAL: 'Total Posts',
  STAT_PUBLISHED: 'Published',
  STAT_DRAFTS: 'Drafts',
  STAT_PRIVATE: 'Private',
  /** 401 or 403 while loading the list (docs/requirements.md#errors-forbidden). */
  SESSION_DENIED: "Access Denied: Your session has expired or you don't have permission to access this resource.",
  /** Any other failure (docs/requirements.md#texts). */
  LOAD_FAILED: 'Error: Failed to load posts. Please try again.',
  COUNTS_FAILED: 'The counts per status could not be loaded.',
  created: (date: string) => `Created ${date}`,
} as const;

export const AccessTexts = {
  ACCESS_DENIED: 'Access Denied',
  NEED_AUTHOR: 'You need AUTHOR role to access this page.',
  signedInAs: (name: string, role: string) => `You are signed in as ${name} (${role}).`,
  ADMIN_HINT: 'Administrators manage every post from the admin dashboard.',
  LOGIN: 'Login',
  GO_HOME: 'Go Home',
  ADMIN_DASHBOARD: 'Go to Admin Dashboard',
  SWITCH_ACCOUNT: 'Switch Account',
  SWITCH_FAILED: 'Could not sign out. Please try again.',
  /** Someone else's post (the API's 403 text). */
  FORBIDDEN_POST: 'You do not have permission to access this post.',
} as const;

export const EditorPageTexts = {
  NEW_TITLE: 'New Post',
  EDIT_TITLE: 'Edit Post',
  PREVIEW_TITLE: 'Post Preview',
  BACK_TO_POSTS: 'Back to Posts',
  LOAD_FAILED: 'Load Failed',
  TAGS_FAILED: 'Failed to load tags',
  LOCKED_TITLE: 'This post can no longer be edited',
} as const;

export const DraftsTexts = {
  TITLE: 'Draft Posts',
  SUBTITLE: 'Your unpublished drafts, with how close each one is to being ready.',
  TOTAL_DRAFTS: 'Total Drafts',
  TOTAL_WORDS: 'Total Words',
  READY: 'Ready to Publish',
  READY_BADGE: 'Ready',
  CONTINUE: 'Continue Editing',
  EMPTY: 'No drafts yet',
  EMPTY_MESSAGE: 'Drafts you save appear here until you submit them for review.',
  CHECK_TITLE: 'Has a title',
  CHECK_WORDS: 'More than 100 words',
  CHECK_EXCERPT: 'Has an excerpt',
  COMPLETENESS: 'Completeness',
  LOAD_FAILED: 'Failed to load drafts',
  LAST_MODIFIED: 'Last modified',
  NO_EXCERPT: 'No excerpt yet.',
  words: (count: number) => countNoun(count, Nouns.WORD),
  LESS_THAN_HOUR: 'less than an hour ago',
  hoursAgo: (hours: number) => `${countNoun(hours, Nouns.HOUR)} ago`,
  daysAgo: (days: number) => `${countNoun(days, Nouns.DAY)} ago`,
} as const;

export const PostActionTexts = {
  SUBMITTED: 'Post submitted for review.',
  DELETED: 'Post deleted.',
  SUBMIT: 'Submit for review',
  SUBMITTING: 'Submitting...',
  DELETE: 'Delete',
  DELETING: 'Deleting...',
  confirmDelete: (title: string) => `Delete "${title}"? This cannot be undone.`,
  SUBMIT_FAILED: 'Failed to submit the post for review',
  // The submit confirmation may ask for a publish time
  CONFIRM_SUBMIT_TITLE: 'Submit for review?',
  confirmSubmit: (title: string) => `"${title}" goes to an administrator for review; you cannot edit it until they decide.`,
  REQUESTED_TIME: 'Requested publish time',
  REQUESTED_TIME_HINT: 'Leave it empty to publish as soon as it is approved. The reviewer may keep or change it.',
  DELETE_FAILED: 'Failed to delete post',
  /** docs/requirements.md#errors-posts: 'Delete failed: {server message}'. */
  deleteFailed: (message: string) => `Delete failed: ${message}`,
} as const;

/** A post's reviews as its author sees them (My Posts and the editor). */
export const ReviewTexts = {
  HISTORY_TITLE: 'Review history',
  HISTORY_EMPTY: 'No reviews yet.',
  HISTORY_FAILED: 'The review history could not be loaded.',
  REASON: 'Reason:',
  NOTE: 'Note:',
  UNKNOWN_REVIEWER: 'an administrator',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  /** The latest rejection's heading: who and when (the time is its own element). */
  rejectedBy: (reviewer: string | null) => `Rejected by ${reviewer ?? 'an administrator'} on`,
  REVISE: 'Revise the post and submit it for review again.',
} as const;

/** Why the author cannot edit a post in this status (the API answers 409); undefined when they can. */
export const LOCKED_REASONS: Partial<Record<PostStatus, string>> = {
  PENDING_REVIEW: 'In review: editing is locked until an administrator decides.',
  PUBLISHED: 'Published: ask an administrator for changes.',
  ARCHIVED: 'Archived: ask an administrator for changes.',
  PRIVATE: 'Private: ask an administrator for changes.',
};

/** Why the author cannot edit this post: a scheduled one is approved and waits for its time. */
export function lockedReason(post: { status: PostStatus; scheduledAt?: string | null }): string | undefined {
  if (post.status === 'PENDING_REVIEW' && post.scheduledAt) return 'Approved: it is published at the scheduled time.';
  return LOCKED_REASONS[post.status];
}

/**
 * A failed read of the author's list as docs/requirements.md#errors-forbidden words it: 401/403 the session text, no answer
 * the network text, anything else the list's generic error (never the server's words).
 */
export const MY_POSTS_ERRORS: ErrorTexts = {
  fallback: MyPostsTexts.LOAD_FAILED,
  status: { 401: MyPostsTexts.SESSION_DENIED, 403: MyPostsTexts.SESSION_DENIED },
  serverMessage: false,
};

/** The same as a function, for the page that calls it. */
export const myPostsErrorMessage = (error: unknown): string => errorText(error, MY_POSTS_ERRORS);

/** The dashboard alert: 'Failed to load dashboard data: ' and the server's words (or the spec's fallback). */
export const dashboardErrorMessage = (error: unknown): string =>
  AuthorDashboardTexts.loadFailed(errorText(error, { fallback: AuthorDashboardTexts.FETCH_FAILED }));
