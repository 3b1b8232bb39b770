import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { deriveKey } from '../common/secret-box';
import { APP_CONFIG, AppConfig } from '../config/env';

/**
 * The newsletter's signed links (docs/newsletter.md#links-and-tokens). Like the notifications'
 * unsubscribe links they need no sign-in and never expire (an old e-mail's link keeps working),
 * but they are signed with a key of their own, derived from JWT_SECRET for this one purpose.
 *
 * A token is `<kind>.<id>.<HMAC-SHA256, base64url>`:
 * - `u.<followId>`: one-click unsubscribe from that ONE follow (the link and List-Unsubscribe of a post's e-mail);
 * - `a.<subscriberId>`: unsubscribe from everything (the weekly digest's List-Unsubscribe);
 * - `p.<subscriberId>`: the preferences page of that subscriber (every e-mail's footer).
 * The confirmation link (double opt-in) is different: a random token whose SHA-256 is stored on
 * the subscriber row with its expiry (`newConfirmToken`, `confirmTokenHash`).
 */
export type NewsletterTokenKind = 'u' | 'a' | 'p';

export interface NewsletterClaim {
  kind: NewsletterTokenKind;
  /** A follow id for 'u', a subscriber id for 'a' and 'p'. */
  id: number;
}

/** The key every newsletter link is signed with. */
export function newsletterKey(jwtSecret: string): Buffer {
  return deriveKey(jwtSecret, 'newsletter-links');
}

function signature(key: Buffer, kind: NewsletterTokenKind, id: number): string {
  return createHmac('sha256', key).update(`newsletter:${kind}:${id}`).digest('base64url');
}

export function signNewsletterToken(key: Buffer, kind: NewsletterTokenKind, id: number): string {
  return `${kind}.${id}.${signature(key, kind, id)}`;
}

/** The claim of a well-formed token of one of `kinds` signed with `key`; undefined otherwise (tampered, another kind, garbage). */
export function verifyNewsletterToken(key: Buffer, token: string, kinds: readonly NewsletterTokenKind[]): NewsletterClaim | undefined {
  const match = /^([uap])\.([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const kind = match[1] as NewsletterTokenKind;
  const id = Number(match[2]);
  if (!kinds.includes(kind) || id > 2_147_483_647) return undefined;
  const expected = Buffer.from(signature(key, kind, id));
  const given = Buffer.from(match[3]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { kind, id } : undefined;
}

/** A fresh confirmation token (43 base64url characters) and the hash to store. */
export function newConfirmToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: confirmTokenHash(token) };
}

/** The stored form of a confirmation token (hex SHA-256); undefined when the token is not well-formed. */
export function confirmTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isWellFormedConfirmToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/**
 * The links e-mails carry, absolute (PUBLIC_URL). Injected where they are built (the sender) and
 * where they are checked (the subscription service).
 */
@Injectable()
export class NewsletterLinks {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.key = newsletterKey(config.jwtSecret);
  }

  /** The preferences page of a subscriber (no sign-in): follows, cadence, unsubscribe from all. */
  preferencesUrl(subscriberId: number): string {
    return `${this.config.publicUrl}/newsletter/preferences?token=${this.preferencesToken(subscriberId)}`;
  }

  /**
   * The unsubscribe link of ONE follow: the page GET shows a button (mail scanners open links),
   * a POST (the button, or RFC 8058's `List-Unsubscribe=One-Click` body with no cookie) removes
   * that follow only. Also the List-Unsubscribe URL of a post's e-mail.
   */
  unsubscribeUrl(followId: number): string {
    return `${this.config.publicUrl}/newsletter/unsubscribe?token=${this.unsubscribeToken(followId)}`;
  }

  /** The same page and POST for every follow of a subscriber (status 'unsubscribed'): the weekly digest's List-Unsubscribe. */
  unsubscribeAllUrl(subscriberId: number): string {
    return `${this.config.publicUrl}/newsletter/unsubscribe?token=${this.unsubscribeAllToken(subscriberId)}`;
  }

  /** The double opt-in link of a pending subscriber (`token` from `newConfirmToken`). */
  confirmUrl(token: string): string {
    return `${this.config.publicUrl}/newsletter/confirm?token=${encodeURIComponent(token)}`;
  }

  /**
   * The `mailto:` of List-Unsubscribe: NEWSLETTER_UNSUBSCRIBE_MAILTO (default: MAIL_FROM's
   * address) with the one-click token in the subject, `unsubscribe u.12.<sig>`. Inkwell receives
   * no mail: the operator's mail provider routes that mailbox to a script or inbound webhook that
   * POSTs `List-Unsubscribe=One-Click` to `/api/v1/newsletter/unsubscribe?token=<the subject's token>`
   * (docs/newsletter.md#one-click-unsubscribe-and-the-headers).
   */
  newsletterUnsubscribeMailto(followId: number): string {
    return this.mailto(this.unsubscribeToken(followId));
  }

  /** As `newsletterUnsubscribeMailto`, unsubscribing from everything (the digest's). */
  newsletterUnsubscribeAllMailto(subscriberId: number): string {
    return this.mailto(this.unsubscribeAllToken(subscriberId));
  }

  preferencesToken(subscriberId: number): string {
    return signNewsletterToken(this.key, 'p', subscriberId);
  }

  unsubscribeToken(followId: number): string {
    return signNewsletterToken(this.key, 'u', followId);
  }

  unsubscribeAllToken(subscriberId: number): string {
    return signNewsletterToken(this.key, 'a', subscriberId);
  }

  /** A preferences token's subscriber id; undefined when tampered or not a preferences token. */
  verifyPreferencesToken(token: string): number | undefined {
    return verifyNewsletterToken(this.key, token, ['p'])?.id;
  }

  /** An unsubscribe token's claim: one follow ('u') or all of a subscriber ('a'); undefined otherwise. */
  verifyUnsubscribeToken(token: string): NewsletterClaim | undefined {
    return verifyNewsletterToken(this.key, token, ['u', 'a']);
  }

  private mailto(token: string): string {
    return `mailto:${this.config.newsletter.unsubscribeMailto}?subject=${encodeURIComponent(`unsubscribe ${token}`)}`;
  }
}
