// npm run fuzz -- [--runs 5000] [--seed N]
// Runs the API fuzz property (backend/test/helpers/api-fuzz.ts, through backend/test/fuzz.e2e-spec.ts
// and jest, which starts the embedded PostgreSQL) with more cases than `npm test`, then prints the
// figures: requests, answers by status, 5xx, and each distinct failure with the request that
// reproduces it. Exits 1 when anything failed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const options = { runs: 5000, seed: Math.floor(Math.random() * 2 ** 31) };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = inline ?? argv[++i];
    if ((flag === '--runs' || flag === '--seed') && /^\d+$/.test(value ?? '')) options[flag.slice(2)] = Number(value);
    else {
      process.stderr.write(`usage: npm run fuzz -- [--runs N] [--seed N]   (got ${argv.join(' ')})\n`);
      process.exit(2);
    }
  }
  return options;
}

const { runs, seed } = parseArgs(process.argv.slice(2));
const dir = mkdtempSync(join(tmpdir(), 'inkwell-fuzz-'));
const reportFile = join(dir, 'report.json');
process.stdout.write(`Fuzzing every API operation: ${runs} cases, seed ${seed} (repeat with --seed ${seed})\n`);
const started = Date.now();
const jest = spawnSync(
  process.execPath,
  [join(root, 'node_modules/jest/bin/jest.js'), '--config', 'backend/jest.config.js', 'backend/test/fuzz.e2e-spec.ts'],
  {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, FUZZ_RUNS: String(runs), FUZZ_SEED: String(seed), FUZZ_REPORT: reportFile, FUZZ_PROGRESS: '1' },
  },
);
let report;
try {
  report = JSON.parse(readFileSync(reportFile, 'utf8'));
} catch {
  process.stdout.write(`\nNo report: the fuzz run did not finish (jest exit ${jest.status}).\n`);
  process.exit(1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`\n${report.text}\nwall time (including PostgreSQL start): ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(report.failures.length || report.serverErrors ? 1 : 0);
