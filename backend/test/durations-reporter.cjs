// A jest reporter: appends one JSON line per test file (its wall time) and per test to
// TEST_DURATIONS_FILE, for the slowest-files table at the end of CI (scripts/slowest-tests.mjs).
// A failed test carries its failure's first lines. Does nothing when the variable is unset.
const { appendFileSync } = require('node:fs');
const { relative } = require('node:path');
const { stripVTControlCharacters } = require('node:util');

/** A failure's first lines (the assertion, the locator, expected and received), without terminal colours, short enough for the end of a CI log. */
function failureLines(text) {
  const lines = stripVTControlCharacters(text ?? '')
    .split('\n')
    .map((candidate) => candidate.trim())
    .filter(Boolean);
  return lines.length ? lines.slice(0, 4).join(' | ').slice(0, 400) : undefined;
}

class DurationsReporter {
  onTestResult(_test, result) {
    const target = process.env.TEST_DURATIONS_FILE;
    if (!target) return;
    const run = `jest node${process.versions.node.split('.')[0]}`;
    const file = relative(process.cwd(), result.testFilePath);
    const lines = [
      {
        run,
        kind: 'file',
        file,
        ms: result.perfStats.end - result.perfStats.start,
        status: result.numFailingTests > 0 || result.testExecError ? 'failed' : 'passed',
      },
    ];
    if (result.testExecError) lines[0].error = failureLines(result.testExecError.message);
    for (const test of result.testResults)
      lines.push({
        run,
        kind: 'test',
        file,
        test: test.fullName,
        ms: test.duration ?? 0,
        status: test.status,
        ...(test.status === 'failed' ? { error: failureLines(test.failureMessages[0]) } : {}),
      });
    try {
      appendFileSync(target, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    } catch {
      // timings are a report, never a failure
    }
  }
}

module.exports = DurationsReporter;
