import { ForbiddenException } from '@nestjs/common';
import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import { CommonMessages } from '../common/messages';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './auth-user';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SESSION_COOKIE = new RegExp(`(?:^|;)\\s*(?:${ACCESS_COOKIE}|${REFRESH_COOKIE})=`);

/**
 * Whether a state-changing request may go on (the cross-site request rule, docs/decisions.md):
 * - a safe method, or a Bearer token without a session cookie (a page on another site cannot
 *   attach the token) always may;
 * - otherwise the browser's `Origin` must be this server's origin (PUBLIC_URL's, or the
 *   request's own Host under any scheme, since TLS may end at a proxy); without `Origin`,
 *   `Sec-Fetch-Site` must be `same-origin`;
 * - a request with neither header did not come from a browser (every browser Inkwell supports
 *   sends `Origin` on a cross-origin POST, PUT, PATCH and DELETE), so it may: a non-browser client
 *   chooses its own cookies and cannot be tricked into sending the victim's.
 * This covers requests without a session cookie too: a cross-origin form could otherwise sign a
 * visitor in to the attacker's account, or clear their cookies through logout's answer.
 */
export function isSameOriginWrite(req: IncomingMessage, publicOrigin: string): boolean {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return true;
  const { origin, host, cookie, authorization } = req.headers;
  const hasSessionCookie = cookie !== undefined && SESSION_COOKIE.test(cookie);
  if (!hasSessionCookie && /^Bearer\s+\S/i.test(authorization ?? '')) return true;
  if (origin !== undefined) return origin === publicOrigin || originHost(origin) === host?.toLowerCase();
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  return true;
}

/** The host[:port] of an Origin header, or undefined for `null` and anything unparseable. */
function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/** Refuses cross-origin writes with 403 before the body is read (registered ahead of the parsers). */
export function refuseCrossOriginWrites(publicUrl: string): RequestHandler {
  const publicOrigin = new URL(publicUrl).origin;
  return (req, _res, next) => {
    if (isSameOriginWrite(req, publicOrigin)) return next();
    next(new ForbiddenException(CommonMessages.CROSS_ORIGIN_WRITE));
  };
}
