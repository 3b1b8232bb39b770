import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../config/env';
import { ACCESS_COOKIE, ACCESS_TOKEN_TTL_SECONDS, REFRESH_COOKIE } from './auth-user';
import { SIGNED_IN_HINT_COOKIE } from '../../../isomorphic/public-pages';

/** httpOnly, SameSite=Lax, Path=/, secure when the site is served over https (docs/requirements.md#decision-browser-session). */
function baseOptions(config: AppConfig): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: config.publicUrl.startsWith('https:') };
}

/**
 * The signed-in hint (isomorphic/public-pages.ts): readable by the page's script, so a public page
 * fetches its personal fragment only when a session exists. Lives as long as the refresh cookie.
 */
function hintOptions(config: AppConfig): CookieOptions {
  return { ...baseOptions(config), httpOnly: false };
}

export function setSessionCookies(
  res: Response,
  config: AppConfig,
  tokens: { accessToken: string; refreshToken: string; refreshExpiresAt: Date },
): void {
  const refreshMaxAge = Math.max(0, tokens.refreshExpiresAt.getTime() - Date.now());
  res.cookie(ACCESS_COOKIE, tokens.accessToken, { ...baseOptions(config), maxAge: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  res.cookie(REFRESH_COOKIE, tokens.refreshToken, { ...baseOptions(config), maxAge: refreshMaxAge });
  res.cookie(SIGNED_IN_HINT_COOKIE, '1', { ...hintOptions(config), maxAge: refreshMaxAge });
}

export function clearSessionCookies(res: Response, config: AppConfig): void {
  res.clearCookie(ACCESS_COOKIE, baseOptions(config));
  res.clearCookie(REFRESH_COOKIE, baseOptions(config));
  clearSignedInHint(res, config);
}

/** Drops the signed-in hint alone (a fragment asked for without a live session). */
export function clearSignedInHint(res: Response, config: AppConfig): void {
  res.clearCookie(SIGNED_IN_HINT_COOKIE, hintOptions(config));
}

export function cookieOf(req: Request, name: string): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value ? value : undefined;
}

export function bearerOf(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}
