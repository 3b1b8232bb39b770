/**
 * Session part of the Astro middleware: turns the session cookies into `locals.user`, renews an
 * expired access token with the refresh cookie, and applies the spec's redirects.
 *
 * Cheap on purpose: a request without session cookies makes no API call at all, and neither does a
 * public page (isomorphic/public-pages.ts): it is the same for everyone, kept by the page cache, and
 * what is personal on it comes from the fragment (pages/fragments/session.astro), whose request
 * this middleware serves like any other. Elsewhere, the session is checked once per page: the profile read resolves the caller, and every later read of
 * the page reuses it (the gateway's caller memo).
 */
import { defineMiddleware } from 'astro:middleware';
import type { ApiClient } from './api/client';
import { pageApi } from './api/page-client';
import {
  ACCESS_COOKIE,
  GUEST_PAGES,
  REFRESH_COOKIE,
  SIGNED_IN_COOKIE,
  jwtExpiry,
  loginUrl,
  needsSession,
  normalisePath,
  parseSetCookie,
  signedInLanding,
  toSessionUser,
  type SessionUser,
} from './session';
import { isPublicPagePath, PERSONAL_FRAGMENT_PATH } from '../../../isomorphic/public-pages';

interface Renewal {
  ok: boolean;
  /** The API could not answer (database away, 5xx, no connection): the session is not refused. */
  unavailable?: boolean;
  /** Set-Cookie headers of the refresh answer, to pass on to the browser. */
  setCookies: string[];
  accessToken?: string;
  refreshToken?: string;
}

/**
 * Refreshes running or just finished, by refresh token: the server rotates the refresh token,
 * so two page loads renewing the same session at once must share one call (a second use of a
 * rotated token would end the session). The answer is kept only briefly (10 s): long enough
 * for the parallel loads of one browser, short enough not to widen a stolen token's use.
 */
const renewals = new Map<string, Promise<Renewal>>();
/** Shown (HTTP 503) instead of a page that needs the session while the session cannot be checked. */
const SERVICE_UNAVAILABLE_PAGE = '/service-unavailable';
/**
 * Pages that are about the session without requiring one ('Not Logged In' would be wrong then; the
 * personal fragment must not answer 204, which drops the signed-in hint, for a session it could not check).
 */
const SESSION_VIEWS = new Set(['/account', PERSONAL_FRAGMENT_PATH]);
const RENEWAL_REUSE_MS = 10_000;

function renew(api: ApiClient, refreshToken: string): Promise<Renewal> {
  const running = renewals.get(refreshToken);
  if (running) return running;
  const renewal = (async (): Promise<Renewal> => {
    try {
      const { data, response } = await api.POST('/api/v1/auth/refresh-token', { body: {} });
      const setCookies = response.headers.getSetCookie();
      if (!response.ok) return { ok: false, unavailable: response.status >= 500, setCookies };
      const tokens = data?.data;
      const fromCookies = (name: string) => setCookies.map(parseSetCookie).find((cookie) => cookie?.name === name)?.value;
      return {
        ok: true,
        setCookies,
        accessToken: fromCookies(ACCESS_COOKIE) ?? tokens?.accessToken,
        refreshToken: fromCookies(REFRESH_COOKIE) ?? tokens?.refreshToken,
      };
    } catch {
      return { ok: false, unavailable: true, setCookies: [] };
    }
  })();
  renewals.set(refreshToken, renewal);
  setTimeout(() => renewals.delete(refreshToken), RENEWAL_REUSE_MS).unref?.();
  return renewal;
}

async function fetchProfile(api: ApiClient): Promise<{ user?: SessionUser; status: number }> {
  try {
    const { data, response } = await api.GET('/api/v1/users/profile', {});
    if (!response.ok) return { status: response.status };
    return { user: toSessionUser(data?.data), status: response.status };
  } catch {
    return { status: 0 };
  }
}

export const session = defineMiddleware(async (context, next) => {
  const { cookies, locals, url } = context;
  // A public page reads no session: its HTML is the same for every visitor (the server keeps it
  // for all of them), and its render stays as cheap signed in as anonymous.
  if (isPublicPagePath(url.pathname)) return next();
  let access = cookies.get(ACCESS_COOKIE)?.value;
  const refresh = cookies.get(REFRESH_COOKIE)?.value;
  let user: SessionUser | undefined;
  let expiry: number | undefined;
  let unavailable = false;
  const passOn: string[] = [];

  if (access || refresh) {
    let renewed = false;
    let refused = false;

    const tryRenew = async (): Promise<boolean> => {
      if (!refresh || renewed) return false;
      renewed = true;
      const result = await renew(locals.api, refresh);
      passOn.push(...result.setCookies);
      refused = !result.ok && !result.unavailable;
      unavailable ||= Boolean(result.unavailable);
      if (!result.ok || !result.accessToken) return false;
      access = result.accessToken;
      // The rest of this request's calls carry the renewed session.
      locals.gateway = locals.gateway.withCookies({ [ACCESS_COOKIE]: result.accessToken, [REFRESH_COOKIE]: result.refreshToken });
      locals.api = pageApi(locals.gateway);
      return true;
    };

    if (!access || (jwtExpiry(access) ?? Infinity) <= Date.now()) await tryRenew();
    let staleAccess = false;
    if (access) {
      let profile = await fetchProfile(locals.api);
      if (profile.status === 401 && (await tryRenew())) profile = await fetchProfile(locals.api);
      user = profile.user;
      unavailable ||= profile.status === 0 || profile.status >= 500;
      if (user) expiry = jwtExpiry(access);
      staleAccess = profile.status === 401;
    }

    for (const header of passOn) {
      const cookie = parseSetCookie(header);
      if (cookie) cookies.set(cookie.name, cookie.value, cookie.options);
    }
    // A refresh cookie the server refused is dead: drop both so later pages skip the API call.
    if (!user && refused && passOn.length === 0) {
      cookies.delete(ACCESS_COOKIE, { path: '/' });
      cookies.delete(REFRESH_COOKIE, { path: '/' });
      cookies.delete(SIGNED_IN_COOKIE, { path: '/' });
    } else if (!user && staleAccess && !refresh) {
      // An access token the API refuses, with nothing to renew it: forget it.
      cookies.delete(ACCESS_COOKIE, { path: '/' });
    }
  }

  locals.user = user;
  locals.sessionExpiry = expiry;
  // A session from before the signed-in hint existed (or whose hint was cleared) gets it back on
  // the next page that reads it, so public pages fetch their personal fragment again. For this
  // browser session only: the next sign-in or renewal sets it for the refresh cookie's lifetime.
  if (user && !cookies.has(SIGNED_IN_COOKIE)) {
    cookies.set(SIGNED_IN_COOKIE, '1', { path: '/', sameSite: 'lax', secure: url.protocol === 'https:' });
  }

  const path = normalisePath(url.pathname);
  // The session could not be checked (the database is away): say so, rather than sending a
  // signed-in reader to the login form or forgetting their cookies.
  if (!user && unavailable && (needsSession(path) || SESSION_VIEWS.has(path))) {
    locals.unavailablePath = `${url.pathname}${url.search}`;
    return context.rewrite(SERVICE_UNAVAILABLE_PAGE);
  }
  if (!user && needsSession(path)) {
    return context.redirect(loginUrl(`${url.pathname}${url.search}`), 302);
  }
  if (user && GUEST_PAGES.has(path)) {
    return context.redirect(signedInLanding(url.searchParams.get('callback'), user), 302);
  }

  const response = await next();
  if (user) {
    // A page rendered for one signed-in person must never be stored by a shared cache.
    try {
      response.headers.set('Cache-Control', 'private, no-store');
    } catch {
      // immutable response (a redirect from a page): nothing to mark
    }
  }
  return response;
});
