#!/usr/bin/env node
// `node scripts/slowest-tests.mjs <durations.jsonl> [count]`: the slowest test files and tests of a
// CI run, across jest and the browser journeys, from the lines backend/test/durations-reporter.cjs
// and frontend/tests/durations-reporter.ts append. A jest file counts its wall time; a browser
// file the sum of its tests' attempts (each with its hooks). Then the tests that failed (their last
// attempt) and the flaky ones (failed, then passed on a retry), so a failed run's last lines name
// them, with the first lines of each failure and any error outside a test. Never fails: it only reports.
import { readFileSync } from 'node:fs';

const [file, countArg] = process.argv.slice(2);
const count = Number(countArg) || 10;
let text = '';
try {
  text = readFileSync(file, 'utf8');
} catch {
  process.stdout.write(`no test durations recorded (${file ?? 'no file given'})\n`);
  process.exit(0);
}
const entries = [];
for (const line of text.split('\n')) {
  if (!line.trim()) continue;
  try {
    entries.push(JSON.parse(line));
  } catch {
    // a line cut short by a killed run
  }
}

const OK = new Set(['passed', 'skipped', 'pending', 'todo', 'disabled']);
const files = new Map();
const tests = new Map();
/** Errors outside any test (a browser worker's hook or teardown, a jest file that failed to run). */
const outsideTests = [];
for (const entry of entries) {
  if (entry.kind === 'error') {
    outsideTests.push(entry);
    continue;
  }
  // A jest file that failed to run.
  if (entry.kind === 'file' && entry.error) outsideTests.push(entry);
  const fileKey = `${entry.run}\t${entry.file}`;
  const row = files.get(fileKey) ?? { run: entry.run, file: entry.file, ms: 0, tests: 0, failed: false };
  if (entry.kind === 'file') row.ms = entry.ms;
  else {
    if (entry.run.startsWith('browser')) row.ms += entry.ms;
    row.tests += 1;
    const testKey = `${fileKey}\t${entry.test}`;
    const test = tests.get(testKey) ?? { run: entry.run, file: entry.file, test: entry.test, ms: 0 };
    test.ms += entry.ms;
    if (entry.status) {
      test.failedOnce ||= !OK.has(entry.status);
      test.last = entry.status;
      test.error = entry.error ?? test.error;
    }
    tests.set(testKey, test);
  }
  if (entry.status && !OK.has(entry.status)) row.failed = true;
  files.set(fileKey, row);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`.padStart(8);
const totals = new Map();
for (const row of files.values()) totals.set(row.run, (totals.get(row.run) ?? 0) + row.ms);
process.stdout.write(`Summed test time per run (files run in parallel, so more than the section's wall time):\n`);
for (const [run, ms] of totals) process.stdout.write(`${seconds(ms)}  ${run}\n`);

const slowestFiles = [...files.values()].sort((a, b) => b.ms - a.ms).slice(0, count);
process.stdout.write(`\nThe ${slowestFiles.length} slowest test files:\n`);
for (const row of slowestFiles)
  process.stdout.write(`${seconds(row.ms)}  ${row.run.padEnd(14)} ${row.file} (${row.tests} tests${row.failed ? ', some failed' : ''})\n`);

const slowestTests = [...tests.values()].sort((a, b) => b.ms - a.ms).slice(0, count);
process.stdout.write(`\nThe ${slowestTests.length} slowest tests:\n`);
for (const row of slowestTests) process.stdout.write(`${seconds(row.ms)}  ${row.run.padEnd(14)} ${row.file}: ${row.test}\n`);

const failed = [...tests.values()].filter((row) => row.last && !OK.has(row.last));
const flaky = [...tests.values()].filter((row) => row.failedOnce && OK.has(row.last));
for (const [title, rows] of [
  ['failed', failed],
  ['flaky (failed, then passed on a retry)', flaky],
]) {
  if (!rows.length) continue;
  process.stdout.write(`\nTests ${title}: ${rows.length}\n`);
  for (const row of rows)
    process.stdout.write(`  ${row.run.padEnd(14)} ${row.file}: ${row.test} (${row.last})${row.error ? `\n      ${row.error}` : ''}\n`);
}
if (outsideTests.length) {
  process.stdout.write(`\nErrors outside any test: ${outsideTests.length}\n`);
  for (const entry of outsideTests)
    process.stdout.write(`  ${entry.run.padEnd(14)} ${entry.file || '(no file)'}: ${entry.error ?? '(no message)'}\n`);
}
