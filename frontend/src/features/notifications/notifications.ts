/**
 * The notification screens' data (issue 19 §1), read on the server through the visitor's session
 * (`Astro.locals.api`) and settled for the pages' error states; the browser's calls are in
 * notification-actions.ts. Also the one wording of an entry ('Lan replied to your comment on
 * “Title”'), shared by the list's server render and its islands.
 */
import type { ApiClient } from '../../lib/api/client';
import { load } from '../../lib/settle';
import { NotificationTexts } from './texts';
import { formatDateTime } from '../../lib/dates';
import type { DataOf } from '../../lib/api/schema';

export type NotificationPage = DataOf<'/api/v1/notifications'>;
export type NotificationItem = NotificationPage['content'][number];
export type NotificationPreferences = DataOf<'/api/v1/notifications/preferences'>;
export type UnsubscribeInfo = DataOf<'/api/v1/notifications/unsubscribe'>;

/** Entries per page of /notifications. */
export const NOTIFICATIONS_PAGE_SIZE = 20;

export const notificationsApi = (api: ApiClient) => ({
  list: (page: number, size = NOTIFICATIONS_PAGE_SIZE) => load(api.GET('/api/v1/notifications', { params: { query: { page, size } } })),
  unreadCount: () => load(api.GET('/api/v1/notifications/unread-count', {})),
  preferences: () => load(api.GET('/api/v1/notifications/preferences', {})),
  unsubscribeInfo: (token: string) => load(api.GET('/api/v1/notifications/unsubscribe', { params: { query: { token } } })),
  unsubscribe: (token: string) => load(api.POST('/api/v1/notifications/unsubscribe', { params: { query: { token } } })),
});

/** A piece of an entry's sentence; `strong` pieces are names (the actor, the post). */
export interface Segment {
  text: string;
  strong?: boolean;
}

/** Who did what on which post, as a sentence in pieces (names emphasised). */
export function describeNotification(item: Pick<NotificationItem, 'type' | 'actor' | 'post'> & { publishAt?: string | null }): Segment[] {
  const actor: Segment = { text: item.actor?.fullName || NotificationTexts.SOMEONE, strong: Boolean(item.actor) };
  const post: Segment = item.post ? { text: `“${item.post.title}”`, strong: true } : { text: NotificationTexts.A_POST };
  const text = (value: string): Segment => ({ text: value });
  switch (item.type) {
    case 'COMMENT_REPLY':
      return [actor, text(' replied to your comment on '), post];
    case 'POST_COMMENT':
      return [actor, text(' commented on your post '), post];
    case 'POST_APPROVED':
      // An approval with a publish time (issue 20): the post is public only from then.
      if (item.publishAt) return [actor, text(' approved your post '), post, text(`, scheduled for ${formatDateTime(item.publishAt)}`)];
      return [actor, text(' approved and published your post '), post];
    case 'POST_REJECTED':
      return [actor, text(' rejected your post '), post];
    case 'COMMENT_HIDDEN':
      return [item.actor ? actor : text(NotificationTexts.A_MODERATOR), text(' hid your comment on '), post];
    case 'POST_SUBMITTED':
      return [actor, text(' submitted '), post, text(' for review')];
    case 'COMMENT_REPORTED':
      return [actor, text(' reported a comment on '), post];
  }
}

/** The sentence as plain text (accessible names, tests). */
export const notificationSentence = (item: Pick<NotificationItem, 'type' | 'actor' | 'post'> & { publishAt?: string | null }): string =>
  describeNotification(item)
    .map((segment) => segment.text)
    .join('');
