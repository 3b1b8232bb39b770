import { useState } from 'react';
import { Alert, BusyButton, useHydrated } from '../../components/islands/form-controls';
import { announceRead, notificationActions } from './notification-actions';
import { NotificationTexts, notificationErrorMessage } from './texts';
import { useSubmit } from '../../components/islands/use-submit';

/** 'Mark all as read' on /notifications: every unread entry and the bell follow without a reload. */
export default function MarkAllReadButton() {
  const hydrated = useHydrated();
  const { busy, run } = useSubmit();
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string }>();

  async function markAll() {
    setResult(undefined);
    await run(
      async () => {
        await notificationActions.markAllRead();
        announceRead({ all: true });
        setResult({ kind: 'success', text: NotificationTexts.ALL_MARKED });
      },
      { onError: (failure) => setResult({ kind: 'error', text: notificationErrorMessage(failure, NotificationTexts.MARK_ALL_FAILED) }) },
    );
  }

  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <BusyButton className="btn-secondary" onClick={() => void markAll()} busy={busy} disabled={!hydrated}>
        {NotificationTexts.MARK_ALL_READ}
      </BusyButton>
      {result && <Alert kind={result.kind}>{result.text}</Alert>}
    </div>
  );
}
