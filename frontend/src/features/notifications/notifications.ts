/**
 * The notification screens' data, read on the server through the visitor's session
 * (`Astro.locals.api`) and settled for the pages' error states; the browser's calls are in
 * notification-actions.ts. An entry's sentence is the one wording of isomorphic/notification-wording.ts
 * (the e-mails write the same), for the list's server render and its islands.
 */
import type { ApiClient } from '../../lib/api/client';
import { load } from '../../lib/settle';
import { siteTimeZone } from '../../lib/dates';
import {
  notificationSegments,
  notificationSentence as notificationSentenceOf,
  type NotificationFacts,
  type Segment,
} from '../../../../isomorphic/notification-wording';
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

export type { Segment };

type Entry = Pick<NotificationItem, 'type' | 'actor' | 'post'> & { publishAt?: string | null };

const factsOf = (item: Entry): NotificationFacts => ({
  type: item.type,
  actorName: item.actor?.fullName ?? null,
  postTitle: item.post?.title ?? null,
  publishAt: item.publishAt,
});

/** Who did what on which post, as a sentence in pieces (names emphasised): the one wording, shared with the e-mails. */
export const describeNotification = (item: Entry): Segment[] => notificationSegments(factsOf(item), siteTimeZone());

/** The sentence as plain text (accessible names, tests). */
export const notificationSentence = (item: Entry): string => notificationSentenceOf(factsOf(item), siteTimeZone());
