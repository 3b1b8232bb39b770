import { useState } from 'react';
import { browserApi } from '../lib/api/client';
import { unwrap } from '../lib/api/errors';
import { AccountTexts } from '../lib/auth-texts';
import { useHydrated } from './form-controls';
import { broadcastLogout, clearLocalSession, markLoggingOut } from '../lib/session-browser';

/** The header's Logout (spec 000 §2): confirm, POST /auth/logout, alert on failure, / on success. */
export default function LogoutButton() {
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();

  async function logout() {
    if (!window.confirm(AccountTexts.LOGOUT_CONFIRM)) return;
    setBusy(true);
    try {
      await unwrap(browserApi().POST('/api/v1/auth/logout', { body: {} }));
    } catch (error) {
      setBusy(false);
      window.alert(error instanceof Error ? error.message : String(error));
      return;
    }
    markLoggingOut();
    clearLocalSession();
    broadcastLogout();
    window.location.assign('/');
  }

  return (
    <button type="button" className="btn-ghost px-2 sm:px-3" onClick={logout} disabled={busy || !hydrated}>
      Logout
    </button>
  );
}
