import { setTimeout as sleep } from 'node:timers/promises';

/**
 * pg-boss's `delay` requires node:timers/promises on every call. After a suite's app has closed,
 * pg-boss still checks its stopping workers once a second (offWork's loop); when one of those checks
 * falls after jest has torn the suite's modules down, jest's require answers undefined and the suite
 * is reported as failed although every test passed. This `delay` (the same behaviour) holds the
 * timer from the start. Runs before each test file (jest setupFiles), so pg-boss loads it.
 */
type Delay = (ms: number, error?: string) => Promise<void> & { abort: () => void };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS exports object itself must be patched
const tools = require('pg-boss/src/tools') as { delay: Delay };

tools.delay = (ms, error) => {
  const ac = new AbortController();
  const promise = new Promise<void>((resolve, reject) => {
    sleep(ms, null, { signal: ac.signal })
      .then(() => (error ? reject(new Error(error)) : resolve()))
      .catch(() => resolve());
  }) as Promise<void> & { abort: () => void };
  promise.abort = () => {
    if (!ac.signal.aborted) ac.abort();
  };
  return promise;
};
