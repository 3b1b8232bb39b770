// Small helpers shared by the scripts that start the built server (browser tests, benchmark).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** A port nothing listens on right now, on the loopback interface. */
export function freeLoopbackPort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * The Node flags `npm start` runs the server with (package.json scripts.start, e.g. the V8 heap
 * cap), so that the benchmark and the browser tests run the server the way production does.
 */
export function serverNodeFlags(packageJson) {
  const start = packageJson.scripts?.start ?? '';
  const words = start.trim().split(/\s+/);
  if (words[0] !== 'node') return [];
  return words.slice(1).filter((word) => word.startsWith('--'));
}

/** The file in a data dir that says which seed:demo arguments the bench seeded it with. */
export const SEED_MARKER = 'bench-small-seed.json';

/** Whether the bench seeded `dataDir` with exactly `args` (its marker file says so). */
export function seededWith(dataDir, args) {
  try {
    return JSON.stringify(JSON.parse(readFileSync(join(dataDir, SEED_MARKER), 'utf8')).seed) === JSON.stringify(args);
  } catch {
    return false;
  }
}

/**
 * Seeds `dataDir` (the embedded database there) with `npm run seed:demo -- --reset <args>` unless
 * the bench already did (seededWith); --reset makes a rerun after a failed seed start clean.
 * Throws when seeding fails.
 */
export function seedDemoOnce({ root, dataDir, args, log }) {
  if (seededWith(dataDir, args)) return;
  log(`seeding ${dataDir} (seed:demo --reset ${args.join(' ')})`);
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL; // the embedded database in DATA_DIR, as the bench's servers use it
  const seeded = spawnSync('npm', ['run', 'seed:demo', '--', '--reset', ...args], { cwd: root, stdio: 'inherit', env });
  if (seeded.status !== 0) throw new Error(`seed:demo into ${dataDir} exited ${seeded.status}`);
  writeFileSync(join(dataDir, SEED_MARKER), `${JSON.stringify({ seed: args, at: new Date().toISOString() })}\n`);
}
