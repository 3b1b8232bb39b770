/**
 * The one wording of a notification ('Lan replied to your comment on “Title”'): the page's list
 * (features/notifications) shows it with the names emphasised, and the e-mail (and the digest)
 * writes the same sentence (backend notifications/notification-text.ts). A time of day is named in
 * the site's zone, in the pages' long format (shared/date-formats.ts).
 */
import { formatInZone } from './date-formats';

/** What a sentence is made of: who acted, on which post, and (a scheduled approval) when it goes out. */
export interface NotificationFacts {
  type: string;
  /** The actor's name; null when the account is gone. */
  actorName: string | null;
  postTitle: string | null;
  /** POST_APPROVED of a scheduled post: when it will be published. */
  publishAt?: Date | string | null;
}

/** A piece of a sentence; `strong` pieces are names (the actor, the post). */
export interface Segment {
  text: string;
  strong?: boolean;
}

export const NotificationWords = {
  SOMEONE: 'Someone',
  A_MODERATOR: 'A moderator',
  A_POST: 'a post',
  /** A type this wording does not know (a newer server than the page). */
  UNKNOWN: 'Something happened on Inkwell',
} as const;

/** Who did what on which post, as a sentence in pieces (names emphasised), times in `timeZone`. */
export function notificationSegments(facts: NotificationFacts, timeZone: string): Segment[] {
  const actor: Segment = { text: facts.actorName || NotificationWords.SOMEONE, strong: Boolean(facts.actorName) };
  const post: Segment = facts.postTitle ? { text: `“${facts.postTitle}”`, strong: true } : { text: NotificationWords.A_POST };
  const text = (value: string): Segment => ({ text: value });
  switch (facts.type) {
    case 'COMMENT_REPLY':
      return [actor, text(' replied to your comment on '), post];
    case 'POST_COMMENT':
      return [actor, text(' commented on your post '), post];
    case 'POST_APPROVED': {
      // An approval with a publish time: the post is public only from then.
      const publishAt = facts.publishAt ? new Date(facts.publishAt) : undefined;
      if (publishAt && !Number.isNaN(publishAt.getTime()))
        return [actor, text(' approved your post '), post, text(`, scheduled for ${formatInZone('longDateTime', publishAt, timeZone)}`)];
      return [actor, text(' approved and published your post '), post];
    }
    case 'POST_REJECTED':
      return [actor, text(' rejected your post '), post];
    case 'COMMENT_HIDDEN':
      return [facts.actorName ? actor : text(NotificationWords.A_MODERATOR), text(' hid your comment on '), post];
    case 'POST_SUBMITTED':
      return [actor, text(' submitted '), post, text(' for review')];
    case 'COMMENT_REPORTED':
      return [actor, text(' reported a comment on '), post];
    default:
      return [text(NotificationWords.UNKNOWN)];
  }
}

/** The sentence as plain text (accessible names, the e-mails, tests). */
export const notificationSentence = (facts: NotificationFacts, timeZone: string): string =>
  notificationSegments(facts, timeZone)
    .map((segment) => segment.text)
    .join('');
