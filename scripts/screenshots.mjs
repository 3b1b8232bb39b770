#!/usr/bin/env node
// `npm run screenshots [-- <playwright args>]`: a full-page PNG of every route × role × width
// (1280, 390, 320 px) × theme (light, dark) in screenshots/ (git-ignored; emptied first), from the
// route list the layout walk checks (frontend/tests/walk-routes.ts). Builds what is missing or
// stale, then starts the server exactly as the browser tests do (scripts/browser-tests.mjs, with
// the Playwright project 'screenshots' instead of the journeys).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuilds } from './lib/build-freshness.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDER = join(ROOT, 'screenshots');

for (const script of staleBuilds()) {
  process.stdout.write(`[screenshots] building (npm run ${script})\n`);
  const built = spawnSync('npm', ['run', '--silent', script], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
rmSync(FOLDER, { recursive: true, force: true });
mkdirSync(FOLDER, { recursive: true });

const started = Date.now();
const run = spawn(process.execPath, [join(ROOT, 'scripts', 'browser-tests.mjs'), ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, SKIP_BUILD: '1', BROWSER_TEST_PROJECTS: 'screenshots', SCREENSHOTS_DIR: FOLDER },
});
// Ctrl-C reaches the child too (same process group): it stops the server and cleans up itself.
process.on('SIGINT', () => {});
run.on('exit', (code) => {
  process.stdout.write(
    `[screenshots] ${code === 0 ? `written to ${FOLDER}` : `failed (exit ${code})`} in ${Math.round((Date.now() - started) / 1000)} s\n`,
  );
  process.exit(code ?? 1);
});
