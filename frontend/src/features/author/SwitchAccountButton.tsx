import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { broadcastLogout, clearLocalSession, markLoggingOut } from '../../lib/session-browser';
import { AccessTexts } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';

interface Props {
  label: string;
  /** The page to come back to once signed in with the other account. */
  callback: string;
  className?: string;
}

/**
 * 'Login' / 'Switch Account' on the author list's denied view (docs/requirements.md#screen-author-posts): the visitor is signed
 * in with an account that is not an AUTHOR, so signing in again first ends this session
 * (POST /auth/logout, every tab told), then opens /login?callback=<this page>.
 */
export default function SwitchAccountButton({ label, callback, className = 'btn-secondary' }: Props) {
  const hydrated = useHydrated();
  const { busy, failure: error, run } = useSubmit();

  async function switchAccount() {
    const signedOut = await run(() => unwrap(browserApi().POST('/api/v1/auth/logout', { body: {} })), {
      keepBusy: true,
      failure: (failure) => errorText(failure, { fallback: AccessTexts.SWITCH_FAILED }),
    });
    if (!signedOut.ok) return;
    markLoggingOut();
    clearLocalSession();
    broadcastLogout();
    window.location.assign(`/login?callback=${encodeURIComponent(callback)}`);
  }

  return (
    <>
      <button type="button" className={className} onClick={switchAccount} disabled={!hydrated || busy}>
        {label}
      </button>
      {error && (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </>
  );
}
