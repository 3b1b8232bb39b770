/**
 * The session in the browser. Tokens live only in httpOnly cookies the server sets; the page
 * keeps just `tokenExpiry` (ms) and `rememberMe` in localStorage for the silent-refresh timer.
 *
 * - `refreshSession()`: one POST /auth/refresh-token at a time, shared by every caller.
 * - `sessionApi()`: the typed client whose requests, on a 401, wait for that one refresh and are
 *   retried once; a failed refresh clears the local state and tells every tab (logout event).
 */
import createClient from 'openapi-fetch';
import { browserApi, type ApiClient } from './api/client';
import type { paths } from './api/schema';

const EXPIRY_KEY = 'tokenExpiry';
const REMEMBER_KEY = 'rememberMe';
const CHANNEL = 'inkwell-session';
const LOGOUT_KEY = 'inkwell-logout';

/** Refresh when this much time or less remains (spec: 5 minutes), checked every 60 s. */
export const REFRESH_THRESHOLD_MS = 5 * 60_000;
export const REFRESH_CHECK_MS = 60_000;

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function tokenExpiry(): number | undefined {
  const value = Number(storage()?.getItem(EXPIRY_KEY));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

export function setTokenExpiry(expiresAt: number): void {
  storage()?.setItem(EXPIRY_KEY, String(expiresAt));
}

/** After a login: when the access token expires, and whether the user asked to be remembered. */
export function rememberLogin(expiresInSeconds: number | undefined, rememberMe: boolean): void {
  setTokenExpiry(Date.now() + (expiresInSeconds && expiresInSeconds > 0 ? expiresInSeconds : 3600) * 1000);
  storage()?.setItem(REMEMBER_KEY, String(rememberMe));
}

export function clearLocalSession(): void {
  storage()?.removeItem(EXPIRY_KEY);
  storage()?.removeItem(REMEMBER_KEY);
}

// ---- logout event across tabs ---------------------------------------------------------------

let loggingOut = false;
/** This tab is logging out itself (it navigates on its own; the logout event must not reload it). */
export function markLoggingOut(): void {
  loggingOut = true;
}
export function isLoggingOut(): boolean {
  return loggingOut;
}

/** Tells the other tabs the session is over (BroadcastChannel, with a storage event as fallback). */
export function broadcastLogout(): void {
  try {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage('logout');
    channel.close();
  } catch {
    storage()?.setItem(LOGOUT_KEY, String(Date.now()));
  }
}

/** Calls `listener` when another tab (or a failed refresh here) ends the session. */
export function onLogout(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === LOGOUT_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  let channel: BroadcastChannel | undefined;
  try {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event) => {
      if (event.data === 'logout') listener();
    };
  } catch {
    channel = undefined;
  }
  const local = () => listener();
  window.addEventListener('inkwell:logout', local);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener('inkwell:logout', local);
    channel?.close();
  };
}

function endSession(): void {
  clearLocalSession();
  broadcastLogout();
  window.dispatchEvent(new Event('inkwell:logout'));
}

// ---- refresh ------------------------------------------------------------------------------

let running: Promise<boolean> | undefined;

/** Renews the tokens (the refresh cookie goes along). Concurrent callers share one request. */
export function refreshSession(): Promise<boolean> {
  running ??= (async () => {
    try {
      const { data, response } = await browserApi().POST('/api/v1/auth/refresh-token', { body: {} });
      if (!response.ok) {
        // 4xx: the refresh token is gone or refused. Network trouble or 5xx: try again later.
        if (response.status >= 400 && response.status < 500) endSession();
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
const NO_RETRY = /\/api\/v1\/auth\//;

async function refreshingFetch(request: Request): Promise<Response> {
  const retry = NO_RETRY.test(new URL(request.url).pathname) ? undefined : request.clone();
  const response = await fetch(request);
  if (response.status !== 401 || !retry) return response;
  if (!(await refreshSession())) return response;
  retry.headers.set('X-Request-Timestamp', String(Date.now()));
  return fetch(retry);
}

let client: ApiClient | undefined;

/** The typed client for signed-in islands: a 401 waits for the shared refresh and retries once. */
export function sessionApi(): ApiClient {
  if (!client) {
    client = createClient<paths>({ baseUrl: '', credentials: 'same-origin', fetch: refreshingFetch });
    client.use({
      onRequest({ request }) {
        request.headers.set('X-Request-Timestamp', String(Date.now()));
        return request;
      },
    });
  }
  return client;
}
