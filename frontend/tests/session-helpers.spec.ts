import { expect, test } from './fixtures';
import { AUTH_ERRORS, REGISTER_ERRORS } from '../src/features/auth/texts';
import { errorText } from '../src/lib/texts/error-text';
import { ApiError } from '../src/lib/api/errors';
import { passwordStrength } from '../src/lib/password-rules';
import { resendLabel, secondsLeft } from '../src/features/auth/resend-countdown';
import { sortedRoles } from '../src/lib/role-badges';
import type { UserProfile } from '../src/lib/api/schema';
import {
  AVATAR_GRADIENTS,
  avatarGradient,
  initials,
  jwtExpiry,
  needsSession,
  parseSetCookie,
  safeCallback,
  signedInLanding,
  toSessionUser,
} from '../src/lib/session';

/** The account area's pure rules (no browser page needed): redirects, cookies, avatar, texts. */

test.describe('session helpers', () => {
  test('safeCallback keeps same-site paths and refuses everything that could leave the site', () => {
    expect(safeCallback('/account')).toBe('/account');
    expect(safeCallback('/my-comments?page=2#top')).toBe('/my-comments?page=2#top');
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'account',
      '/a\u0000b',
      '/a\r\nb',
      '',
      null,
      undefined,
    ]) {
      expect(safeCallback(bad as string | null | undefined), String(bad)).toBe('/');
    }
    // Encoded characters stay encoded: harmless in a Location header.
    expect(safeCallback('/%0d%0aSet-Cookie')).toBe('/%0d%0aSet-Cookie');
    expect(safeCallback('//evil.example', '/home')).toBe('/home');
  });

  test("signedInLanding: a signed-in visitor's /login goes to the callback, else to their dashboard (the public pages' Login link)", () => {
    expect(signedInLanding('/blog/a-post#comments', { role: 'USER' })).toBe('/blog/a-post#comments');
    expect(signedInLanding(null, { role: 'USER' })).toBe('/dashboard');
    expect(signedInLanding(undefined, { role: 'AUTHOR' })).toBe('/author');
    expect(signedInLanding('//evil.example', { role: 'ADMIN' })).toBe('/admin');
  });

  test('needsSession: the reader, author and admin areas, but not /admin/analytics nor /authors', () => {
    for (const path of [
      '/dashboard',
      '/user-dashboard/',
      '/liked-posts',
      '/my-comments',
      '/notifications',
      '/author',
      '/author/posts/new',
      '/admin',
      '/admin/users',
    ]) {
      expect(needsSession(path), path).toBe(true);
    }
    for (const path of [
      '/',
      '/account',
      '/unsubscribe',
      '/authors',
      '/admin/analytics',
      '/admin/analytics/',
      '/administrator',
      '/blog',
      '/login',
    ]) {
      expect(needsSession(path), path).toBe(false);
    }
  });

  test('parseSetCookie reads the server cookies as Astro options', () => {
    const cookie = parseSetCookie(
      'inkwell_refresh=abc.DEF_-1; Max-Age=2592000; Path=/; Expires=Tue, 22 Dec 2026 08:42:23 GMT; HttpOnly; SameSite=Lax',
    );
    expect(cookie?.name).toBe('inkwell_refresh');
    expect(cookie?.value).toBe('abc.DEF_-1');
    expect(cookie?.options).toMatchObject({ maxAge: 2592000, path: '/', httpOnly: true, sameSite: 'lax' });
    expect(cookie?.options.expires?.toISOString()).toBe('2026-12-22T08:42:23.000Z');
    expect(parseSetCookie('inkwell_access=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure')?.options).toMatchObject({
      secure: true,
      path: '/',
    });
    expect(parseSetCookie('garbage')).toBeUndefined();
  });

  test('jwtExpiry reads exp without verifying; anything else gives undefined', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 1, exp: 1_800_000_000 })).toString('base64url');
    expect(jwtExpiry(`x.${payload}.y`)).toBe(1_800_000_000_000);
    expect(jwtExpiry('not-a-jwt')).toBeUndefined();
    expect(jwtExpiry(undefined)).toBeUndefined();
  });

  test('initials and the deterministic gradient', () => {
    expect(initials('Lan Journey Tran')).toBe('LT');
    expect(initials('  madonna ')).toBe('M');
    expect(initials('')).toBe('U');
    expect(initials(null)).toBe('U');
    expect(initials('Đặng Ánh')).toBe('ĐÁ');
    expect(avatarGradient('Lan Tran')).toBe(avatarGradient('Lan Tran'));
    expect(AVATAR_GRADIENTS).toHaveLength(10);
    const used = new Set(['Ann', 'Bob', 'Chi', 'Dung', 'Em', 'Phuong', 'Giang', 'Hoa', 'Ivan', 'Khoa', 'Linh', 'Minh'].map(avatarGradient));
    expect(used.size).toBeGreaterThan(3);
  });

  test('toSessionUser needs id, fullName and email, and takes the highest role', () => {
    const profile: UserProfile = {
      id: 7,
      fullName: 'Mai',
      email: 'mai@example.com',
      avatar: null,
      bio: null,
      website: null,
      location: null,
      role: 'USER',
      roles: [
        { name: 'USER', displayName: 'User', description: 'Reads, likes and comments', assignedAt: '2026-01-01T00:00:00Z' },
        { name: 'AUTHOR', displayName: 'Author', description: 'Writes posts', assignedAt: '2026-01-02T00:00:00Z' },
      ],
      status: 'ACTIVE',
      isVerified: true,
      emailVerifiedAt: null,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      lastLoginAt: null,
      commentingMutedUntil: null,
      commentingMutedForever: false,
      commentingMutedReason: null,
    };
    expect(toSessionUser({ ...profile, fullName: '' })).toBeUndefined();
    expect(toSessionUser(undefined)).toBeUndefined();
    const user = toSessionUser(profile);
    expect(user?.role).toBe('AUTHOR');
    expect(sortedRoles(user?.roles).map((role) => role.name)).toEqual(['AUTHOR', 'USER']);
    expect(sortedRoles([]).map((role) => role.name)).toEqual(['USER']);
  });

  test('resend button texts: first at once, then the countdown, then the attempt count', () => {
    const now = 1_000_000;
    expect(resendLabel({ lastSentAt: 0, attempts: 0 }, 0, false)).toBe('Resend code');
    const sent = { lastSentAt: now, attempts: 1 };
    expect(secondsLeft(sent, now)).toBe(60);
    expect(resendLabel(sent, 60, false)).toBe('Resend in 1:00');
    // One format all the way down (not '1:00' then '59s').
    expect(resendLabel(sent, secondsLeft(sent, now + 1_000), false)).toBe('Resend in 0:59');
    expect(resendLabel(sent, secondsLeft(sent, now + 15_500), false)).toBe('Resend in 0:45');
    expect(resendLabel(sent, 5, false)).toBe('Resend in 0:05');
    expect(secondsLeft(sent, now + 60_000)).toBe(0);
    expect(resendLabel(sent, 0, false)).toBe('Resend code (1)');
    expect(resendLabel(sent, 0, true)).toBe('Sending...');
  });

  test('password strength: ≤1 weak, ≤3 medium, 4 strong, 5 very strong', () => {
    expect(passwordStrength('a').label).toBe('Yếu');
    expect(passwordStrength('abcdefgh').label).toBe('Trung bình');
    expect(passwordStrength('Abcdef1').label).toBe('Trung bình');
    expect(passwordStrength('Abcdefgh1').label).toBe('Mạnh');
    expect(passwordStrength('Abcdefg1!').label).toBe('Rất mạnh');
  });

  test('error texts by status (docs/requirements.md#errors-auth)', () => {
    const error = (status: number, message = 'server says', errors: Record<string, string[]> | null = null) =>
      new ApiError(message, status, errors);
    expect(errorText(error(400), AUTH_ERRORS)).toBe('Invalid login credentials.');
    expect(errorText(error(401), AUTH_ERRORS)).toBe('Incorrect email or password.');
    expect(errorText(error(403), AUTH_ERRORS)).toBe('Account not verified or locked.');
    expect(errorText(error(404), AUTH_ERRORS)).toBe('Account does not exist.');
    expect(errorText(error(409), AUTH_ERRORS)).toBe('Email already in use.');
    expect(errorText(error(422, 'x', { email: ['Email is taken here'] }), AUTH_ERRORS)).toBe('Email is taken here');
    expect(errorText(error(429), AUTH_ERRORS)).toBe('Too many attempts. Please wait before trying again.');
    expect(errorText(error(500, 'Boom'), AUTH_ERRORS)).toBe('Boom');
    expect(errorText(error(500, ''), AUTH_ERRORS)).toBe('An error occurred during authentication.');
    expect(errorText(error(409), REGISTER_ERRORS)).toBe('This email is already in use. Please choose a different email.');
    expect(errorText(error(400), REGISTER_ERRORS)).toBe('Invalid data. Please check your information again.');
    expect(errorText(error(503), REGISTER_ERRORS)).toBe('An error occurred during registration. Please try again.');
  });
});
