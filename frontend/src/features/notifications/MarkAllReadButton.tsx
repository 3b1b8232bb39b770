import { useState } from 'react';
import { Alert, Spinner, useHydrated } from '../../components/islands/form-controls';
import { announceRead, notificationActions } from './notification-actions';
import { NotificationTexts, notificationErrorMessage } from './texts';

/** 'Mark all as read' on /notifications: every unread entry and the bell follow without a reload. */
export default function MarkAllReadButton() {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string }>();

  async function markAll() {
    setBusy(true);
    setResult(undefined);
    try {
      await notificationActions.markAllRead();
      announceRead({ all: true });
      setResult({ kind: 'success', text: NotificationTexts.ALL_MARKED });
    } catch (failure) {
      setResult({ kind: 'error', text: notificationErrorMessage(failure, NotificationTexts.MARK_ALL_FAILED) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <button type="button" className="btn-secondary" onClick={() => void markAll()} disabled={!hydrated || busy}>
        {busy && <Spinner />}
        {NotificationTexts.MARK_ALL_READ}
      </button>
      {result && <Alert kind={result.kind}>{result.text}</Alert>}
    </div>
  );
}
