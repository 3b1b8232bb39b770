import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_TYPES, NotificationType } from './notification.types';

/** What a token unsubscribes from: one type's e-mails, or every notification e-mail (the digest's link). */
export type UnsubscribeScope = NotificationType | 'ALL';

export interface UnsubscribeClaim {
  userId: number;
  scope: UnsubscribeScope;
}

function signature(secret: string, userId: number, scope: UnsubscribeScope): string {
  return createHmac('sha256', secret).update(`notifications-unsubscribe:${userId}:${scope}`).digest('base64url');
}

/** `<userId>.<scope>.<HMAC>`: no expiry (an old e-mail's link keeps working), no sign-in. */
export function unsubscribeToken(secret: string, userId: number, scope: UnsubscribeScope): string {
  return `${userId}.${scope}.${signature(secret, userId, scope)}`;
}

/** The claim of a well-formed token signed with `secret`; undefined otherwise. */
export function verifyUnsubscribeToken(secret: string, token: string): UnsubscribeClaim | undefined {
  const match = /^([1-9]\d{0,9})\.([A-Z_]{1,32})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const userId = Number(match[1]);
  const scope = match[2] as UnsubscribeScope;
  if (scope !== 'ALL' && !NOTIFICATION_TYPES.includes(scope)) return undefined;
  const expected = Buffer.from(signature(secret, userId, scope));
  const given = Buffer.from(match[3]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { userId, scope } : undefined;
}
