/**
 * The browser session as the server sees it (cookies inkwell_access / inkwell_refresh, set by
 * the API on login) and the helpers pages and components share: the signed-in user, safe
 * callback destinations, avatar initials and colours.
 */
import type { AstroCookieSetOptions } from 'astro';
import type { Schema, UserProfile } from './api/schema';
import { dashboardPath, effectiveRole } from './roles';

/** The API's answers this area reads (generated from openapi.json). */
export type UserResponse = Schema<'UserResponseDto'>;
export type TokenSet = Schema<'TokenSetResponseDto'>;
export type ResetTokenValidity = Schema<'ResetTokenValidityResponseDto'>;
export type AvatarResponse = Schema<'AvatarResponseDto'>;

export const ACCESS_COOKIE = 'inkwell_access';
export const REFRESH_COOKIE = 'inkwell_refresh';
export { SIGNED_IN_HINT_COOKIE as SIGNED_IN_COOKIE } from '../../../isomorphic/public-pages';

/** A role as the badges show it: the profile's role entry, whose details a list may leave out. */
export type SessionRole = { name: string } & Partial<Omit<Schema<'UserRoleResponseDto'>, 'name'>>;

/** The signed-in user (GET /users/profile), as pages and components read it from Astro.locals.user. */
export type SessionUser = UserProfile;

/**
 * The profile answer as the session's user, with `role` the highest role held; undefined when it
 * lacks id, fullName or email (docs/requirements.md#validation-register: such a profile is an error).
 */
export function toSessionUser(profile: UserProfile | undefined): SessionUser | undefined {
  if (!profile?.id || !profile.fullName || !profile.email) return undefined;
  const roles = profile.roles ?? [];
  return { ...profile, roles, role: effectiveRole(roles.length > 0 ? roles : [profile.role ?? 'USER']) };
}

/**
 * A callback destination that stays on this site: a path starting with one '/' (not '//', not
 * '/\'), no scheme, no control characters. Anything else gives `fallback` (no open redirect).
 */
export function safeCallback(value: string | null | undefined, fallback = '/'): string {
  if (!value || value.length > 2000) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  try {
    const url = new URL(value, 'http://inkwell.invalid');
    if (url.origin !== 'http://inkwell.invalid') return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/**
 * Where a signed-in visitor who opens /login or /register goes: the callback when one is given;
 * without one, their dashboard. The public pages' header offers Login to everyone (it is the same
 * for all; without JavaScript no account menu replaces it), so that link must take a signed-in
 * reader to their account, not back to the page they came from.
 */
export function signedInLanding(callback: string | null | undefined, user: Pick<SessionUser, 'role'>): string {
  return safeCallback(callback, dashboardPath(user.role ?? 'USER'));
}

/** `/login?callback=<path+query>` for a page that needs a session. */
export function loginUrl(pathWithQuery: string): string {
  return `/login?callback=${encodeURIComponent(pathWithQuery)}`;
}

/** The expiry (ms since epoch) written in a JWT's payload, without verifying it (timers only). */
export function jwtExpiry(token: string | undefined): number | undefined {
  if (!token) return undefined;
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

// ---- redirects and cookies (used by the session middleware) -------------------------------

/** Pages that need a session: anonymous visitors get a 302 to /login?callback=<path+query>. */
const PROTECTED_PAGES = ['/dashboard', '/user-dashboard', '/liked-posts', '/my-comments', '/notifications'];
const PROTECTED_SECTIONS = ['/author', '/admin'];
const OPEN_IN_PROTECTED = new Set(['/admin/analytics']);
/** Pages a signed-in user has no business on: they go to the callback or /. */
export const GUEST_PAGES = new Set(['/login', '/register']);

export function normalisePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

export function needsSession(pathname: string): boolean {
  const path = normalisePath(pathname);
  if (OPEN_IN_PROTECTED.has(path)) return false;
  return PROTECTED_PAGES.includes(path) || PROTECTED_SECTIONS.some((section) => path === section || path.startsWith(`${section}/`));
}

interface ParsedCookie {
  name: string;
  value: string;
  options: AstroCookieSetOptions;
}

/** One Set-Cookie header → name, raw value and options for Astro's cookie API. */
export function parseSetCookie(header: string): ParsedCookie | undefined {
  const [pair, ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  if (eq <= 0) return undefined;
  const options: AstroCookieSetOptions = { encode: (value: string) => value };
  for (const attribute of attributes) {
    const [rawKey, ...rest] = attribute.trim().split('=');
    const key = rawKey.toLowerCase();
    const value = rest.join('=');
    if (key === 'path') options.path = value;
    else if (key === 'domain') options.domain = value;
    else if (key === 'max-age' && /^-?\d+$/.test(value)) options.maxAge = Number(value);
    else if (key === 'expires' && !Number.isNaN(Date.parse(value))) options.expires = new Date(value);
    else if (key === 'httponly') options.httpOnly = true;
    else if (key === 'secure') options.secure = true;
    else if (key === 'samesite') options.sameSite = value.toLowerCase() as 'lax' | 'strict' | 'none';
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), options };
}

// ---- avatar --------------------------------------------------------------------------------

/** Initials: first letter of the first and of the last word of the name; 'U' without a name. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'U';
  const first = Array.from(words[0])[0] ?? '';
  const last = words.length > 1 ? (Array.from(words[words.length - 1])[0] ?? '') : '';
  return (first + last).toUpperCase() || 'U';
}

/** The 10 avatar gradients (Tailwind classes, spelled out so the build keeps them). */
export const AVATAR_GRADIENTS = [
  'from-rose-500 to-pink-600',
  'from-orange-500 to-amber-600',
  'from-amber-400 to-yellow-600',
  'from-lime-500 to-green-600',
  'from-emerald-500 to-teal-600',
  'from-cyan-500 to-sky-600',
  'from-blue-500 to-indigo-600',
  'from-violet-500 to-purple-600',
  'from-fuchsia-500 to-pink-600',
  'from-slate-500 to-slate-700',
] as const;

/** One of the 10 gradients, chosen deterministically from the name. */
export function avatarGradient(name: string | null | undefined): string {
  let hash = 0;
  for (const char of name ?? '') hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return AVATAR_GRADIENTS[hash % AVATAR_GRADIENTS.length];
}

export type AvatarSize = 'sm' | 'md' | 'lg' | 'xl';
export const AVATAR_SIZES: Record<AvatarSize, string> = {
  sm: 'h-8 w-8 text-xs',
  md: 'h-10 w-10 text-sm',
  lg: 'h-16 w-16 text-xl',
  xl: 'h-24 w-24 text-3xl',
};
