import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';

/** A failure's first lines (the assertion, the locator, expected and received), without terminal colours, short enough for the end of a CI log. */
function failureLines(error: TestError | undefined): string | undefined {
  const lines = stripVTControlCharacters(error?.message ?? error?.value ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.length ? lines.slice(0, 4).join(' | ').slice(0, 400) : undefined;
}

/**
 * Appends one JSON line per test attempt to TEST_DURATIONS_FILE, for the slowest-files table at
 * the end of CI (scripts/slowest-tests.mjs): `ms`, the wall time from the test's start to its end,
 * with its beforeAll and afterAll hooks (a file's data is mostly made in beforeAll), and
 * `duration`, Playwright's own figure (the test, its beforeEach and afterEach hooks and fixtures).
 * A failed attempt carries its error's first lines, and an error outside any test (a worker's
 * hook or teardown) is a line of its own, so the end of CI names every failure.
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
      ...(result.status === 'passed' || result.status === 'skipped' ? {} : { error: failureLines(result.errors[0]) }),
    };
    this.append(line);
  }

  onError(error: TestError): void {
    this.append({
      run: this.run,
      kind: 'error',
      file: error.location ? relative(process.cwd(), error.location.file) : '',
      error: failureLines(error),
    });
  }

  private append(line: object): void {
    if (!this.target) return;
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
