import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { LogoutTexts } from './texts';
import { useHydrated } from '../../components/islands/form-controls';
import { broadcastLogout, clearLocalSession, markLoggingOut } from '../../lib/session-browser';
import { useSubmit } from '../../components/islands/use-submit';

/** The header's Logout (spec 000 §2): confirm, POST /auth/logout, alert on failure, / on success. */
export default function LogoutButton() {
  const { busy, run } = useSubmit();
  const hydrated = useHydrated();

  async function logout() {
    if (!window.confirm(LogoutTexts.CONFIRM)) return;
    const done = await run(() => unwrap(browserApi().POST('/api/v1/auth/logout', { body: {} })), {
      keepBusy: true,
      onError: (error) => window.alert(error instanceof Error ? error.message : String(error)),
    });
    if (!done.ok) return;
    markLoggingOut();
    clearLocalSession();
    broadcastLogout();
    window.location.assign('/');
  }

  return (
    <button type="button" className="btn-ghost px-1.5 sm:px-3" onClick={logout} disabled={busy || !hydrated}>
      <svg className="h-5 w-5 sm:hidden" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
      </svg>
      <span className="sr-only sm:not-sr-only">Logout</span>
    </button>
  );
}
