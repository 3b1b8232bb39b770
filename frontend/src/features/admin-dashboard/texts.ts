/**
 * Texts of the admin dashboard (/admin; docs/requirements.md#screen-admin-dashboard, docs/requirements.md#errors-dashboards, docs/requirements.md
 * docs/requirements.md#errors-dashboards). Verbatim where the spec gives them; the activity chart is ours
 * and so are its words. No fallback numbers: a failed load is an error state
 * (docs/requirements.md#decision-real-data "admin stats never show invented numbers").
 */
import { countNoun, Nouns } from '../../lib/texts/nouns';
import { errorText, type ErrorTexts } from '../../lib/texts/error-text';

export const AdminDashboardTexts = {
  TITLE: 'Admin Dashboard',
  LOAD_FAILED: 'Failed to fetch dashboard stats',
  AUTH_FAILED: 'Authentication failed. Please log in again.',
  FORBIDDEN: 'You do not have permission to access admin dashboard.',
  SERVER_ERROR: 'Server error occurred. Please try again later.',
  NO_DATA: 'No Dashboard Data',
  NO_DATA_MESSAGE: 'The dashboard statistics could not be loaded.',
  NO_RECENT: 'No recent activities',
  lastUpdated: (time: string) => `Last updated: ${time}`,
} as const;

/** The activity chart: new users, posts, comments and likes per day. */
export const AdminActivityTexts = {
  TITLE: 'Activity (last 30 days)',
  LOAD_FAILED: 'Failed to load activity',
  SHOW_TABLE: 'Show as table',
  HIDE_TABLE: 'Hide table',
  CHART_LABEL: 'Line chart of new users, posts, comments and likes per day over the last 30 days. The same figures are in the table.',
  CAPTION: 'New users, posts, comments and likes per day, last 30 days',
  totals: (users: number, posts: number, comments: number, likes: number) =>
    `Last 30 days: ${countNoun(users, Nouns.NEW_USER)}, ${countNoun(posts, Nouns.POST)}, ${countNoun(comments, Nouns.COMMENT)}, ${countNoun(likes, Nouns.LIKE)}.`,
} as const;

/** The chart's series, in the order of the table's columns. */
export const ACTIVITY_SERIES = [
  { key: 'users', label: 'New users' },
  { key: 'posts', label: 'Posts' },
  { key: 'comments', label: 'Comments' },
  { key: 'likes', label: 'Likes' },
] as const;

/**
 * A failed stats read as the spec words it (docs/requirements.md#errors-dashboards generic, docs/requirements.md#errors-dashboards dashboards): no answer keeps
 * the network text, 401 and 403 have their own, a 5xx the server-error text, anything else the
 * server's message, else 'Failed to fetch dashboard stats' (or the read's own text).
 */
export const adminDashboardErrors = (readFailed: string = AdminDashboardTexts.LOAD_FAILED): ErrorTexts => ({
  fallback: readFailed,
  status: { 401: AdminDashboardTexts.AUTH_FAILED, 403: AdminDashboardTexts.FORBIDDEN },
  server: AdminDashboardTexts.SERVER_ERROR,
});

/** The same as a function, for the dashboard component. */
export const adminDashboardErrorMessage = (error: unknown, readFailed?: string): string =>
  errorText(error, adminDashboardErrors(readFailed));
