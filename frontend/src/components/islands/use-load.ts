/**
 * A read an island starts by itself (a dialog's history, a diff): loading, then the answer or the
 * failure's text, and `retry` to read again. What the failure says is the caller's, as with
 * use-submit. An answer that arrives after the island moved on (another `key`, closed) is dropped.
 */
import { useEffect, useRef, useState } from 'react';

export type LoadState<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'loaded'; data: T };

export function useLoad<T>(
  read: () => Promise<T>,
  failure: (error: unknown) => string,
  key: unknown,
): { load: LoadState<T>; retry: () => void } {
  const [load, setLoad] = useState<LoadState<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // The latest read and wording, without restarting the read on every render.
  const latest = useRef({ read, failure });
  latest.current = { read, failure };

  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    latest.current
      .read()
      .then((data) => live && setLoad({ state: 'loaded', data }))
      .catch((error: unknown) => live && setLoad({ state: 'failed', message: latest.current.failure(error) }));
    return () => {
      live = false;
    };
  }, [key, attempt]);

  return { load, retry: () => setAttempt((n) => n + 1) };
}
