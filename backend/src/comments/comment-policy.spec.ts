import { ForbiddenException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../config/env';
import { CommentPolicy, linkCount } from './comment-policy';

/**
 * The holding rules and the mute check, with the database's answers given by hand: a
 * fake manager answers each rule's query (young account, recent duplicate, mute in force).
 */
describe('CommentPolicy (hold rules, mutes)', () => {
  const config = (moderation: Partial<AppConfig['moderation']> = {}) =>
    ({
      siteTimeZone: 'UTC',
      moderation: { reportsPerDay: 20, holdNewAccountHours: 24, holdDuplicateMinutes: 10, holdMaxLinks: 2, ...moderation },
    }) as AppConfig;

  /** A manager whose queries answer: the account is young, a duplicate exists, a mute is in force. */
  function manager(facts: { young?: boolean; duplicate?: boolean; mute?: { mutedUntil: Date | null; reason: string } }): EntityManager {
    const query = jest.fn(async (sql: string) => {
      if (sql.includes('FROM users')) return facts.young ? [{}] : [];
      if (sql.includes('FROM comments')) return facts.duplicate ? [{}] : [];
      if (sql.includes('FROM user_mutes')) return facts.mute ? [facts.mute] : [];
      throw new Error(`unexpected query: ${sql}`);
    });
    return { query } as unknown as EntityManager;
  }

  it('counts http(s) and www. links', () => {
    expect(linkCount('no links here')).toBe(0);
    expect(linkCount('see https://a.test and http://b.test, www.c.test')).toBe(3);
    expect(linkCount('http:// alone, wwwx.test')).toBe(0);
  });

  it('holds in the documented order (docs/moderation.md): a young account with a link, a duplicate, too many links', async () => {
    const policy = new CommentPolicy(config());
    expect(await policy.holdReason(manager({ young: true, duplicate: true }), 1, 'one link http://a.test')).toBe('NEW_ACCOUNT_LINK');
    expect(await policy.holdReason(manager({ young: true }), 1, 'no link')).toBeNull();
    expect(await policy.holdReason(manager({ duplicate: true }), 1, 'http://a.test http://b.test http://c.test')).toBe('DUPLICATE');
    expect(await policy.holdReason(manager({}), 1, 'http://a.test http://b.test http://c.test')).toBe('TOO_MANY_LINKS');
    expect(await policy.holdReason(manager({}), 1, 'http://a.test http://b.test')).toBeNull();
  });

  it('a rule set to 0 is off', async () => {
    const policy = new CommentPolicy(config({ holdNewAccountHours: 0, holdDuplicateMinutes: 0, holdMaxLinks: 0 }));
    expect(await policy.holdReason(manager({ young: true, duplicate: true }), 1, 'http://a.test http://b.test http://c.test')).toBeNull();
  });

  it('a muted user is refused with the end and the reason; an unmuted one may comment', async () => {
    const policy = new CommentPolicy(config());
    await expect(policy.assertMayComment(manager({}), 1)).resolves.toBeUndefined();
    await expect(policy.assertMayComment(manager({ mute: { mutedUntil: null, reason: 'Spam' } }), 1)).rejects.toEqual(
      new ForbiddenException('You can no longer comment on this site. Reason: Spam'),
    );
    const until = new Date('2026-11-22T08:04:00Z');
    await expect(policy.assertMayComment(manager({ mute: { mutedUntil: until, reason: 'Rude' } }), 1)).rejects.toEqual(
      new ForbiddenException(`You cannot comment until ${policy.siteTime(until)}. Reason: Rude`),
    );
  });
});
