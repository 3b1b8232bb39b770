/**
 * The notification calls islands make (browser client), and the page-wide event that keeps the
 * header's bell and the list's entries in step after a mark-read without a reload.
 */
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { NotificationPreferences } from './notifications';

/** Fired on window after entries were marked read: `{ id }` for one entry, `{ all: true }` for all. */
export const NOTIFICATIONS_READ_EVENT = 'inkwell:notifications-read';
export type NotificationsReadDetail = { id: number } | { all: true };

export function announceRead(detail: NotificationsReadDetail): void {
  window.dispatchEvent(new CustomEvent<NotificationsReadDetail>(NOTIFICATIONS_READ_EVENT, { detail }));
}

export const notificationActions = {
  unreadCount: () => unwrap(browserApi().GET('/api/v1/notifications/unread-count', {})),
  markRead: (id: number) => unwrap(browserApi().POST('/api/v1/notifications/{id}/read', { params: { path: { id } } })),
  markAllRead: () => unwrap(browserApi().POST('/api/v1/notifications/read-all', {})),
  savePreferences: (body: NotificationPreferences) => unwrap(browserApi().PUT('/api/v1/notifications/preferences', { body })),
};
