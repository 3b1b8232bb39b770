import { useEffect } from 'react';
import { refreshSession } from '../../lib/api/client';
import { isLoggingOut, onLogout, REFRESH_CHECK_MS, REFRESH_THRESHOLD_MS, setTokenExpiry, tokenExpiry } from '../../lib/session-browser';

interface Props {
  /** When the access token the server saw expires (ms); the server's word wins over the stored one. */
  expiresAt: number | null;
}

/**
 * Silent refresh (docs/requirements.md#session): every 60 s, renew the tokens when 5 minutes or less remain.
 * When the session ends in another tab (or a refresh fails), the page reloads logged out.
 */
export default function SessionRefresh({ expiresAt }: Props) {
  useEffect(() => {
    if (expiresAt) setTokenExpiry(expiresAt);
    const check = () => {
      const expiry = tokenExpiry();
      if (expiry !== undefined && expiry - Date.now() <= REFRESH_THRESHOLD_MS) void refreshSession();
    };
    check();
    const timer = window.setInterval(check, REFRESH_CHECK_MS);
    const stop = onLogout(() => {
      if (!isLoggingOut()) window.location.reload();
    });
    return () => {
      window.clearInterval(timer);
      stop();
    };
  }, [expiresAt]);
  return null;
}
