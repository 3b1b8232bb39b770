import { useRef, useState } from 'react';
import { Alert, BusyButton, Spinner, useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { ApiError } from '../../lib/api/errors';
import { formatShortDateTime } from '../../lib/dates';
import { sessionActions, type AccountSession, type SignInAlerts } from './sessions';
import { sessionErrorMessage, SessionTexts } from './session-texts';

type Notice = { kind: 'success' | 'error'; text: string };

/**
 * 'Where you're signed in' on /account: the caller's live sessions, this device
 * first and marked, a Sign out button on every other one, Sign out all other sessions, and the
 * new-device e-mail switch (saved as it is changed). A session signed out leaves the list; focus
 * then goes to the section's heading, so keyboard users are not left on a removed button.
 */
export default function AccountSessions({ initial, alerts }: { initial: AccountSession[]; alerts: SignInAlerts }) {
  const [sessions, setSessions] = useState(() => [...initial].sort((a, b) => Number(b.current) - Number(a.current)));
  const [notice, setNotice] = useState<Notice>();
  const [pending, setPending] = useState<string>();
  const [alertOn, setAlertOn] = useState(alerts.newDeviceEmail);
  const [alertNotice, setAlertNotice] = useState<Notice>();
  const signOut = useSubmit();
  const saveAlert = useSubmit();
  const hydrated = useHydrated();
  const heading = useRef<HTMLHeadingElement>(null);

  const others = sessions.filter((session) => !session.current);

  async function endOne(session: AccountSession) {
    setNotice(undefined);
    setPending(session.id);
    await signOut.run(
      async () => {
        await sessionActions.signOut(session.id);
        setSessions((list) => list.filter((item) => item.id !== session.id));
        setNotice({ kind: 'success', text: SessionTexts.signedOut(session.device) });
        heading.current?.focus();
      },
      {
        onError: (error) => {
          setNotice({ kind: 'error', text: sessionErrorMessage(error, SessionTexts.SIGN_OUT_FAILED) });
          // Already ended elsewhere: it is not live any more, so it leaves the list too.
          if (error instanceof ApiError && error.status === 404) setSessions((list) => list.filter((item) => item.id !== session.id));
        },
      },
    );
    setPending(undefined);
  }

  async function endOthers() {
    setNotice(undefined);
    setPending('others');
    await signOut.run(
      async () => {
        const { signedOut } = await sessionActions.signOutOthers();
        setSessions((list) => list.filter((item) => item.current));
        setNotice({ kind: 'success', text: SessionTexts.signedOutOthers(signedOut) });
        heading.current?.focus();
      },
      { onError: (error) => setNotice({ kind: 'error', text: sessionErrorMessage(error, SessionTexts.SIGN_OUT_OTHERS_FAILED) }) },
    );
    setPending(undefined);
  }

  async function toggleAlert() {
    const next = !alertOn;
    setAlertNotice(undefined);
    setAlertOn(next);
    const result = await saveAlert.run(() => sessionActions.saveAlerts({ newDeviceEmail: next }), {
      onError: (error) => {
        setAlertOn(!next);
        setAlertNotice({ kind: 'error', text: sessionErrorMessage(error, SessionTexts.ALERT_FAILED) });
      },
    });
    if (result.ok)
      setAlertNotice({ kind: 'success', text: result.value.newDeviceEmail ? SessionTexts.ALERT_SAVED_ON : SessionTexts.ALERT_SAVED_OFF });
  }

  return (
    <section id="sessions" className="card p-6" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        {SessionTexts.TITLE}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{SessionTexts.INTRO}</p>
      {sessions.length === 0 ? (
        <p className="mt-4 text-sm">{SessionTexts.NONE}</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100 dark:divide-slate-800" aria-labelledby="sessions-heading">
          {sessions.map((session) => (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <span className="break-words">{session.device}</span>
                  {session.current && (
                    <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100">
                      {SessionTexts.THIS_DEVICE}
                    </span>
                  )}
                </p>
                <p className="text-sm text-slate-600 dark:text-slate-400">{session.place}</p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {SessionTexts.signedIn(formatShortDateTime(session.createdAt))} ·{' '}
                  {SessionTexts.lastActive(formatShortDateTime(session.lastUsedAt))}
                </p>
              </div>
              {!session.current && (
                <button
                  type="button"
                  className="btn-secondary"
                  disabled={!hydrated || signOut.busy}
                  onClick={() => void endOne(session)}
                  aria-label={SessionTexts.signOutLabel(session.device, session.place)}
                >
                  {signOut.busy && pending === session.id && <Spinner />}
                  {SessionTexts.SIGN_OUT}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {sessions.length > 0 && others.length === 0 && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{SessionTexts.ONLY_THIS_DEVICE}</p>
      )}
      {others.length > 0 && (
        <div className="mt-4">
          <BusyButton
            className="btn-secondary w-full sm:w-auto"
            busy={signOut.busy && pending === 'others'}
            disabled={!hydrated || signOut.busy}
            onClick={() => void endOthers()}
          >
            {SessionTexts.SIGN_OUT_OTHERS}
          </BusyButton>
        </div>
      )}
      <div aria-live="polite" className="mt-3 empty:hidden">
        {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      </div>
      <div className="mt-6 flex items-start gap-3 border-t border-slate-100 pt-4 dark:border-slate-800">
        <input
          id="new-device-alert"
          type="checkbox"
          checked={alertOn}
          disabled={!hydrated || saveAlert.busy}
          onChange={() => void toggleAlert()}
          aria-describedby="new-device-alert-hint"
          className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        />
        <div>
          <label htmlFor="new-device-alert" className="text-sm font-medium">
            {SessionTexts.ALERT_LABEL}
          </label>
          <p id="new-device-alert-hint" className="text-xs text-slate-600 dark:text-slate-400">
            {SessionTexts.ALERT_HINT}
          </p>
        </div>
      </div>
      <div aria-live="polite" className="mt-3 empty:hidden">
        {alertNotice && <Alert kind={alertNotice.kind}>{alertNotice.text}</Alert>}
      </div>
    </section>
  );
}
