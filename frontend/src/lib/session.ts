/**
 * The browser session as the server sees it (cookies inkwell_access / inkwell_refresh, set by
 * the API on login) and the helpers pages and components share: the signed-in user, safe
 * callback destinations, avatar initials and colours.
 */
import type { AstroCookieSetOptions } from 'astro';
import type { components } from '../generated/api-schema';
import { effectiveRole, type RoleName } from './roles';

/** The API's answers this area reads (generated from openapi.json). */
export type UserResponse = components['schemas']['UserResponseDto'];
export type TokenSet = components['schemas']['TokenSetResponseDto'];
export type ResetTokenValidity = components['schemas']['ResetTokenValidityResponseDto'];
export type AvatarResponse = components['schemas']['AvatarResponseDto'];

export const ACCESS_COOKIE = 'inkwell_access';
export const REFRESH_COOKIE = 'inkwell_refresh';

export interface SessionRole {
  name: string;
  displayName?: string | null;
  description?: string | null;
  assignedAt?: string | null;
}

/** The signed-in user (GET /users/profile), as pages and components read it from Astro.locals.user. */
export interface SessionUser {
  id: number;
  fullName: string;
  email: string;
  avatar: string | null;
  bio: string | null;
  website: string | null;
  location: string | null;
  roles: SessionRole[];
  /** The effective (highest) role. */
  role: RoleName;
  isVerified: boolean;
  emailVerifiedAt: string | null;
  status: string;
  createdAt: string | null;
  updatedAt: string | null;
  lastLoginAt: string | null;
  /** A comment mute (issue 19): its end, or for good, and the reason; the post page says it in place of the comment form. */
  commentingMutedUntil: string | null;
  commentingMutedForever: boolean;
  commentingMutedReason: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The profile answer as a SessionUser, or undefined when it lacks id, fullName or email
 * (spec 000 §5: such a profile is an error).
 */
export function toSessionUser(profile: unknown): SessionUser | undefined {
  if (!profile || typeof profile !== 'object') return undefined;
  const p = profile as Record<string, unknown>;
  if (typeof p.id !== 'number' || typeof p.fullName !== 'string' || typeof p.email !== 'string') return undefined;
  const roles: SessionRole[] = Array.isArray(p.roles)
    ? p.roles
        .map((role): SessionRole | undefined => {
          if (typeof role === 'string') return { name: role };
          if (role && typeof role === 'object' && typeof (role as SessionRole).name === 'string') {
            const r = role as SessionRole;
            return { name: r.name, displayName: r.displayName ?? null, description: r.description ?? null, assignedAt: text(r.assignedAt) };
          }
          return undefined;
        })
        .filter((role): role is SessionRole => role !== undefined)
    : [];
  return {
    id: p.id,
    fullName: p.fullName,
    email: p.email,
    avatar: text(p.avatar),
    bio: text(p.bio),
    website: text(p.website),
    location: text(p.location),
    roles,
    role: effectiveRole(roles.length > 0 ? roles : typeof p.role === 'string' ? [p.role] : []),
    isVerified: p.isVerified === true,
    emailVerifiedAt: text(p.emailVerifiedAt),
    status: typeof p.status === 'string' ? p.status : 'ACTIVE',
    createdAt: text(p.createdAt),
    updatedAt: text(p.updatedAt),
    lastLoginAt: text(p.lastLoginAt),
    commentingMutedUntil: text(p.commentingMutedUntil),
    commentingMutedForever: p.commentingMutedForever === true,
    commentingMutedReason: text(p.commentingMutedReason),
  };
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
