/**
 * The session in the browser. Tokens live only in httpOnly cookies the server sets; the page
 * keeps just `tokenExpiry` (ms) and `rememberMe` in localStorage for the silent-refresh timer,
 * and tabs tell each other when the session ends. The shared refresh and the client whose 401s
 * wait for it are `refreshSession()` and `browserApi()` in api/client.ts.
 */

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

/** The session is over (a refused refresh): clear the local state and tell this tab and the others. */
export function endLocalSession(): void {
  clearLocalSession();
  broadcastLogout();
  window.dispatchEvent(new Event('inkwell:logout'));
}

// ---- the signed-in user's avatar ---------------------------------------------------------------

const AVATAR_EVENT = 'inkwell:avatar';

/** The user's avatar is now `src` (null: removed): the header shows it at once, without a reload. */
export function announceAvatar(src: string | null): void {
  window.dispatchEvent(new CustomEvent<string | null>(AVATAR_EVENT, { detail: src }));
}

/** Calls `listener` with the new avatar whenever `announceAvatar` runs on this page. */
export function onAvatarChange(listener: (src: string | null) => void): () => void {
  const handle = (event: Event) => {
    if (event instanceof CustomEvent) listener(typeof event.detail === 'string' ? event.detail : null);
  };
  window.addEventListener(AVATAR_EVENT, handle);
  return () => window.removeEventListener(AVATAR_EVENT, handle);
}
