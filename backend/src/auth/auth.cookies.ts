import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../config/env';
import { ACCESS_COOKIE, ACCESS_TOKEN_TTL_SECONDS, REFRESH_COOKIE } from './auth-user';

/** httpOnly, SameSite=Lax, Path=/, secure when the site is served over https (DESIGN.md §4). */
function baseOptions(config: AppConfig): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: config.publicUrl.startsWith('https:') };
}

export function setSessionCookies(res: Response, config: AppConfig, tokens: { accessToken: string; refreshToken: string; refreshExpiresAt: Date }): void {
  res.cookie(ACCESS_COOKIE, tokens.accessToken, { ...baseOptions(config), maxAge: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  res.cookie(REFRESH_COOKIE, tokens.refreshToken, { ...baseOptions(config), maxAge: Math.max(0, tokens.refreshExpiresAt.getTime() - Date.now()) });
}

export function clearSessionCookies(res: Response, config: AppConfig): void {
  res.clearCookie(ACCESS_COOKIE, baseOptions(config));
  res.clearCookie(REFRESH_COOKIE, baseOptions(config));
}

export function cookieOf(req: Request, name: string): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value ? value : undefined;
}

export function bearerOf(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}
