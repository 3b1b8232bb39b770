import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { LogoutTexts } from './texts';
import { useHydrated } from '../../components/islands/form-controls';
import { broadcastLogout, clearLocalSession, markLoggingOut } from '../../lib/session-browser';
import { useSubmit } from '../../components/islands/use-submit';

/** The header's Logout (docs/requirements.md#shell-logout): confirm, POST /auth/logout, alert on failure, / on success. In the header's menu it is a full-width row. */
export default function LogoutButton({ variant = 'bar' }: { variant?: 'bar' | 'menu' }) {
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
    <button
      type="button"
      className={variant === 'menu' ? 'btn-ghost mt-2 w-full justify-start whitespace-nowrap px-3' : 'btn-ghost whitespace-nowrap px-3'}
      onClick={logout}
      disabled={busy || !hydrated}
    >
      Logout
    </button>
  );
}
