/**
 * The newsletter's calls: in the browser through the session-aware client (the islands), and on
 * the server through the visitor's own client (`Astro.locals.api`, settled for the pages' states).
 */
import type { ApiClient } from '../../lib/api/client';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { load } from '../../lib/settle';
import type { DataOf } from '../../lib/api/schema';

export type MyFollows = DataOf<'/api/v1/newsletter/follows'>;
export type Follow = MyFollows['follows'][number];
export type Preferences = DataOf<'/api/v1/newsletter/preferences'>;
export type FollowKind = Follow['kind'];
export type Cadence = Preferences['cadence'];

/** What a 'Follow by e-mail' box offers: the publication (targetId 0), an author or a tag. */
export interface FollowTarget {
  kind: FollowKind;
  targetId: number;
  /** How it is named ('every new post', the author's or tag's name). */
  name: string;
}

const target = (kind: FollowKind, targetId: number) => ({ params: { path: { kind, targetId } } });

export const myFollows = () => unwrap(browserApi().GET('/api/v1/newsletter/follows', {}));
export const follow = (kind: FollowKind, targetId: number) =>
  unwrap(browserApi().PUT('/api/v1/newsletter/follows/{kind}/{targetId}', target(kind, targetId)));
export const unfollow = (kind: FollowKind, targetId: number) =>
  unwrap(browserApi().DELETE('/api/v1/newsletter/follows/{kind}/{targetId}', target(kind, targetId)));
export const subscribe = (email: string, kind: FollowKind, targetId: number) =>
  unwrap(browserApi().POST('/api/v1/newsletter/subscribe', { body: { email, kind, targetId } }));

export const updatePreferences = (token: string, cadence: Cadence, digestWeekday: number | null) =>
  unwrap(browserApi().PUT('/api/v1/newsletter/preferences', { params: { query: { token } }, body: { cadence, digestWeekday } }));
export const removeFollowByToken = (token: string, followId: number) =>
  unwrap(browserApi().DELETE('/api/v1/newsletter/preferences/follows/{followId}', { params: { path: { followId }, query: { token } } }));
export const unsubscribeAllByToken = (token: string) =>
  unwrap(browserApi().POST('/api/v1/newsletter/preferences/unsubscribe-all', { params: { query: { token } } }));

/** The pages' server reads. */
export const newsletterPagesApi = (api: ApiClient) => ({
  confirmInfo: (token: string) => load(api.GET('/api/v1/newsletter/confirm', { params: { query: { token } } })),
  confirm: (token: string) => load(api.POST('/api/v1/newsletter/confirm', { params: { query: { token } } })),
  preferences: (token: string) => load(api.GET('/api/v1/newsletter/preferences', { params: { query: { token } } })),
  unsubscribeInfo: (token: string) => load(api.GET('/api/v1/newsletter/unsubscribe', { params: { query: { token } } })),
  unsubscribe: (token: string) => load(api.POST('/api/v1/newsletter/unsubscribe', { params: { query: { token } } })),
  followerCount: () => load(api.GET('/api/v1/newsletter/followers/count', {})),
  counts: () => load(api.GET('/api/v1/newsletter/admin/counts', {})),
});

/** What a follow's e-mails are, in words (the API's own wording). */
export function describeTarget(target: Pick<FollowTarget, 'kind' | 'name'>): string {
  if (target.kind === 'author') return `new posts by ${target.name}`;
  if (target.kind === 'tag') return `new posts tagged ${target.name}`;
  return 'every new post';
}
