import type { NextFunction, Request, Response } from 'express';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './auth-user';

/** Answers that may depend on who asks: no cache, shared or the browser's, keeps them. */
export const PERSONAL_CACHE_CONTROL = 'private, no-store';
/** Anonymous reads: a cache may keep them but must ask again each time (Express's ETag answers 304). */
export const ANONYMOUS_API_CACHE_CONTROL = 'no-cache';
/** The answer differs by the caller (a shared cache must not hand one caller's answer to another) and by the coding. */
export const API_VARY = ['Authorization', 'Cookie', 'Accept-Encoding'] as const;
const API_VARY_VALUE = API_VARY.join(', ');

const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)(?:${ACCESS_COOKIE}|${REFRESH_COOKIE})=[^;\\s]`);

/** Whether a request carries credentials: a bearer token or a session cookie. */
export function carriesCredentials(req: Request): boolean {
  if (req.headers.authorization) return true;
  const cookie = req.headers.cookie;
  return !!cookie && SESSION_COOKIE.test(cookie);
}

/**
 * Cache-Control and Vary for /api/** (set before the handler, which may set its own): every
 * answer to a request with credentials, and every write, is `private, no-store` (it may carry the
 * caller's data or tokens); anonymous GET/HEAD answers are `no-cache`. All carry
 * `Vary: Authorization, Cookie, Accept-Encoding`.
 */
export function apiCacheControl(req: Request, res: Response, next: NextFunction): void {
  if (req.path.startsWith('/api/')) {
    const anonymousRead = (req.method === 'GET' || req.method === 'HEAD') && !carriesCredentials(req);
    res.setHeader('Cache-Control', anonymousRead ? ANONYMOUS_API_CACHE_CONTROL : PERSONAL_CACHE_CONTROL);
    // Nothing has set Vary yet on the way in (the usual case): the whole value at once, as res.vary would build it.
    if (res.getHeader('Vary') === undefined) res.setHeader('Vary', API_VARY_VALUE);
    else for (const field of API_VARY) res.vary(field);
  }
  next();
}
