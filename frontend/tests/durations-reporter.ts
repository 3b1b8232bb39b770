import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Appends one JSON line per test attempt to TEST_DURATIONS_FILE, for the slowest-files table at
 * the end of CI (scripts/slowest-tests.mjs): `ms`, the wall time from the test's start to its end,
 * with its beforeAll and afterAll hooks (a file's data is mostly made in beforeAll), and
 * `duration`, Playwright's own figure (the test, its beforeEach and afterEach hooks and fixtures).
 * Does nothing when the variable is unset.
 */
export default class DurationsReporter implements Reporter {
  private readonly target = process.env.TEST_DURATIONS_FILE;
  private readonly run = `browser node${process.versions.node.split('.')[0]}`;

  onTestEnd(test: TestCase, result: TestResult): void {
    if (!this.target) return;
    const line = {
      run: this.run,
      kind: 'test',
      file: relative(process.cwd(), test.location.file),
      test: test.titlePath().slice(3).join(' › '),
      ms: Date.now() - result.startTime.getTime(),
      duration: result.duration,
      status: result.status,
      retry: result.retry,
    };
    try {
      appendFileSync(this.target, `${JSON.stringify(line)}\n`);
    } catch {
      // timings are a report, never a failure
    }
  }

  printsToStdio(): boolean {
    return false;
  }
}
