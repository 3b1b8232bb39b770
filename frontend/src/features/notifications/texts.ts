/**
 * Texts of the notification screens: the header's bell, /notifications, the
 * preferences card on /account and /unsubscribe. Beyond the spec; written in its tone, in English
 * like the screens they sit on.
 */
import { errorText } from '../../lib/texts/error-text';
import { countNoun, Nouns } from '../../lib/texts/nouns';

/** What each event is about, in the preferences table (one row per type the user can receive). */
export const EVENT_LABELS: Readonly<Record<string, string>> = {
  COMMENT_REPLY: 'Replies to my comments',
  POST_COMMENT: 'Comments on my posts',
  POST_APPROVED: 'My post was approved and published',
  POST_REJECTED: 'My post was rejected',
  COMMENT_HIDDEN: 'My comment was hidden by a moderator',
  POST_SUBMITTED: 'A post was submitted for review',
  COMMENT_REPORTED: 'A comment was reported',
};

export const NotificationTexts = {
  TITLE: 'Notifications',
  SUBTITLE: 'Replies, comments, reviews and moderation that concern you, unread first.',
  EMPTY: 'No notifications yet',
  EMPTY_MESSAGE: 'When someone replies to you, comments on your posts or reviews them, it shows here.',
  LOAD_FAILED: 'Failed to load notifications',
  UNREAD: 'Unread',
  MARK_READ: 'Mark as read',
  MARK_ALL_READ: 'Mark all as read',
  ALL_MARKED: 'All notifications marked as read.',
  MARK_FAILED: 'Could not mark the notification as read. Please try again.',
  MARK_ALL_FAILED: 'Could not mark all notifications as read. Please try again.',
  REASON: 'Reason:',
  /** The bell's accessible name, with the count ('Notifications, 3 unread'). */
  bell: (count: number) => (count > 0 ? `Notifications, ${count} unread` : 'Notifications, none unread'),
  /** The list's count line. */
  unreadCount: (count: number) => countNoun(count, Nouns.UNREAD),
} as const;

export const PreferenceTexts = {
  TITLE: 'Notification Preferences',
  INTRO: 'Choose what you are told about, and where. Changes apply from the next event.',
  EVENT: 'Event',
  /** The table's scrolling frame (TableFrame). */
  TABLE_LABEL: 'Events and channels',
  IN_APP: 'In-app',
  EMAIL: 'E-mail',
  DIGEST: 'Group e-mails into an hourly digest',
  DIGEST_HINT: 'At most one e-mail an hour, listing everything that happened since the last one.',
  SAVE: 'Update Preferences',
  SAVED: 'Notification preferences saved.',
  SAVE_FAILED: 'Failed to save notification preferences. Please try again.',
  LOAD_FAILED: 'Failed to load notification preferences',
  /** A checkbox's accessible name: the event and the channel. */
  checkbox: (event: string, channel: string) => `${event}: ${channel}`,
} as const;

export const UnsubscribeTexts = {
  TITLE: 'Unsubscribe',
  CONFIRM: 'Unsubscribe',
  DONE_TITLE: 'You are unsubscribed',
  DONE: 'You will no longer receive these e-mails. You can turn them back on at any time from your account page.',
  MISSING_TITLE: 'Unsubscribe link incomplete',
  MISSING: 'This link has no token. Please open the unsubscribe link from the e-mail again.',
  INVALID_TITLE: 'Invalid unsubscribe link',
  INVALID: 'This unsubscribe link is invalid or has expired. You can change your e-mail preferences on your account page after signing in.',
  FAILED_TITLE: 'Could not unsubscribe',
  FAILED: 'Something went wrong while unsubscribing. Please try again.',
  ACCOUNT: 'Go to My Account',
  HOME: 'Go Home',
} as const;

/** The text a notification screen shows for a failed call. */
export const notificationErrorMessage = (error: unknown, fallback: string): string =>
  errorText(error, { fallback, server: fallback, fieldErrors: true });
