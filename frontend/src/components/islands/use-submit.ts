/**
 * The state around one API call that a form, dialog or button sends: `busy` while it runs (a
 * second submit is ignored), the failure's text when it fails. What the failure says is the
 * caller's (usually `errorText(error, …)`), so the screens keep their own texts.
 */
import { useCallback, useRef, useState } from 'react';

export interface SubmitOptions {
  /** The text shown for a failure; leave out to handle the failure yourself in `onError`. */
  failure?: (error: unknown) => string | undefined;
  /** Called with the failure, after `failure` (field errors, focus, a toast). */
  onError?: (error: unknown) => void;
  /** Stay busy after a success (the page is leaving, or the dialog is closing). */
  keepBusy?: boolean;
}

export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  // A ref too: two clicks in one frame both see `busy` false.
  const running = useRef(false);

  const run = useCallback(
    async <T>(action: () => Promise<T>, options: SubmitOptions = {}): Promise<{ ok: true; value: T } | { ok: false }> => {
      if (running.current) return { ok: false };
      running.current = true;
      setBusy(true);
      setFailure(undefined);
      try {
        const value = await action();
        if (!options.keepBusy) {
          running.current = false;
          setBusy(false);
        }
        return { ok: true, value };
      } catch (error) {
        running.current = false;
        setBusy(false);
        setFailure(options.failure?.(error));
        options.onError?.(error);
        return { ok: false };
      }
    },
    [],
  );

  return { busy, failure, setFailure, run };
}
