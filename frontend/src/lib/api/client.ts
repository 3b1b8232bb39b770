/**
 * The islands' one API client, typed from openapi.json (pages use `Astro.locals.api`, the same
 * operations answered in process: page-client.ts). Every request carries X-Request-Timestamp (the
 * spec's client header; the CSRF rule for cookie sessions needs it) and the session cookie
 * (same origin). A 401 waits for the one shared token refresh and is retried once; a refused
 * refresh ends the local session and tells every tab (session-browser.ts).
 */
import createClient from 'openapi-fetch';
import { endLocalSession, setTokenExpiry } from '../session-browser';
import type { paths } from '@inkwell/client/schema';

export type ApiClient = ReturnType<typeof createClient<paths>>;

/** The spec's client header, on every request (the CSRF rule for cookie sessions needs it). */
export const TIMESTAMP_HEADER = 'X-Request-Timestamp';

let running: Promise<boolean> | undefined;

/** Renews the tokens (the refresh cookie goes along). Concurrent callers share one request. */
export function refreshSession(): Promise<boolean> {
  running ??= (async () => {
    try {
      const { data, response } = await browserApi().POST('/api/v1/auth/refresh-token', { body: {} });
      if (!response.ok) {
        // 4xx: the refresh token is gone or refused. Network trouble or 5xx: try again later.
        if (response.status >= 400 && response.status < 500) endLocalSession();
        return false;
      }
      const expiresIn = data?.data?.expiresIn;
      setTokenExpiry(Date.now() + (expiresIn && expiresIn > 0 ? expiresIn : 3600) * 1000);
      return true;
    } catch {
      return false;
    } finally {
      running = undefined;
    }
  })();
  return running;
}

/** Requests that must not wait for a refresh on 401 (they are the session calls themselves). */
const NO_RETRY = /^\/api\/v1\/auth\//;

/** Whether a 401 on this path is worth one refresh and a second try. */
export function retriesAfterRefresh(path: string): boolean {
  return !NO_RETRY.test(path);
}

async function refreshingFetch(request: Request): Promise<Response> {
  const retry = retriesAfterRefresh(new URL(request.url).pathname) ? request.clone() : undefined;
  const response = await fetch(request);
  if (response.status !== 401 || !retry) return response;
  if (!(await refreshSession())) return response;
  retry.headers.set(TIMESTAMP_HEADER, String(Date.now()));
  return fetch(retry);
}

let client: ApiClient | undefined;

/** The browser's client: same origin, the session cookie goes along; a 401 refreshes once and retries. */
export function browserApi(): ApiClient {
  if (!client) {
    client = createClient<paths>({ baseUrl: '', credentials: 'same-origin', fetch: refreshingFetch });
    client.use({
      onRequest({ request }) {
        request.headers.set(TIMESTAMP_HEADER, String(Date.now()));
        return request;
      },
    });
  }
  return client;
}
