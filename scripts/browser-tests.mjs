#!/usr/bin/env node
// `npm run test:browser [-- <playwright args>]`: builds, starts Inkwell on a free loopback port
// with a fresh temporary DATA_DIR (embedded PostgreSQL), runs the Playwright journeys of
// frontend/tests against it in Debian's Chromium, stops the server (and with it PostgreSQL),
// removes the temporary folder and exits with Playwright's exit code.
//
// SKIP_BUILD=1 reuses the existing build. CHROMIUM_PATH overrides /usr/bin/chromium.
// BROWSER_TEST_PROJECTS (comma-separated) picks the Playwright projects to run, in turn.
import { spawn, spawnSync } from 'node:child_process';
import { startMailCapture } from './mail-capture.mjs';
import { chmodSync, copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freeLoopbackPort, serverNodeFlags, sleep } from './lib/process.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = join(ROOT, 'dist', 'backend', 'src', 'main.js');
const FRONTEND_ENTRY = join(ROOT, 'frontend', 'dist', 'server', 'entry.mjs');
const SAVED_LOG = join(ROOT, 'test-results', 'browser-tests-server.log');
const HEALTH_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 30_000;
const ADMIN_EMAIL = 'admin@inkwell.test';
const ADMIN_PASSWORD = 'browser-tests-admin-password';

const log = (message) => process.stdout.write(`[browser-tests] ${message}\n`);

/** Runs a command with inherited stdio; resolves with its exit code (1 when killed by a signal). */
function run(command, args, env = process.env) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: 'inherit' });
    child.on('error', (error) => {
      log(`${command} could not start: ${error.message}`);
      done(1);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

// ---------------------------------------------------------------------------------------------
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(chromium)) {
  log(`Chromium not found at ${chromium}: install Debian's chromium: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  process.exit(1);
}

if (process.env.SKIP_BUILD === '1') {
  for (const file of [SERVER_ENTRY, FRONTEND_ENTRY]) {
    if (!existsSync(file)) {
      log(`SKIP_BUILD=1 but ${file} is missing: run npm run build first`);
      process.exit(1);
    }
  }
  log('SKIP_BUILD=1: using the existing build');
} else {
  log('building (npm run build)');
  const code = await run('npm', ['run', 'build'], { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' });
  if (code !== 0) {
    log(`npm run build failed (exit ${code})`);
    process.exit(code);
  }
}

const tempDir = mkdtempSync(join(tmpdir(), 'inkwell-browser-'));
// As root the embedded PostgreSQL runs as the `postgres` OS user, which must traverse this folder.
chmodSync(tempDir, 0o755);
const dataDir = join(tempDir, 'data');
const logFile = join(tempDir, 'server.log');
const port = await freeLoopbackPort();
const baseUrl = `http://127.0.0.1:${port}`;

// Every connection the server opens to its own port is written here (scripts/lib/loopback-guard.mjs):
// pages read through the in-process gateway, so the journeys must leave it empty.
const loopbackLog = join(tempDir, 'loopback.log');
const LOOPBACK_GUARD = join(ROOT, 'scripts', 'lib', 'loopback-guard.mjs');
// The browser reports every Content-Security-Policy violation to the server, which appends it here
// (CSP_REPORT_LOG, backend/src/common/csp-report.ts): the journeys run under the strict policy and must leave it empty.
const cspReportLog = join(tempDir, 'csp-violations.log');
// TEST_CLOCK_CONTROL: PUT /api/v1/test/clock moves the server's clock (scheduled publishing's journeys; never set elsewhere).
// WEBHOOK_ALLOW_PRIVATE: the webhook journey's receiver listens on loopback; FEDERATION_ALLOW_PRIVATE: so does the federation journey's fediverse peer.
const serverEnv = {
  ...process.env,
  PORT: String(port),
  DATA_DIR: dataDir,
  PUBLIC_URL: baseUrl,
  THROTTLE_DISABLED: '1',
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  LOOPBACK_LOG: loopbackLog,
  CSP_REPORT_LOG: cspReportLog,
  TEST_CLOCK_CONTROL: '1',
  WEBHOOK_ALLOW_PRIVATE: '1',
  FEDERATION_ALLOW_PRIVATE: '1',
  JOB_RETRY_DELAY_SECONDS: process.env.JOB_RETRY_DELAY_SECONDS ?? '1',
};
// Always the embedded database and the mail catcher below: never a developer's real services.
for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'JWT_SECRET']) delete serverEnv[name];
// The server mails through an in-process SMTP catcher; the tests read the mails from MAIL_CAPTURE_URL.
const mail = await startMailCapture();
serverEnv.SMTP_URL = mail.smtpUrl;

log(`starting the server on ${baseUrl} (DATA_DIR ${dataDir})`);
const logStream = createWriteStream(logFile);
const server = spawn(
  process.execPath,
  [
    ...serverNodeFlags(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))),
    '--import',
    pathToFileURL(LOOPBACK_GUARD).href,
    SERVER_ENTRY,
  ],
  { cwd: ROOT, env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
server.stdout.pipe(logStream, { end: false });
server.stderr.pipe(logStream, { end: false });
let serverExit;
const serverExited = new Promise((done) => {
  server.on('exit', (code, signal) => {
    serverExit = { code, signal };
    done();
  });
  server.on('error', (error) => {
    logStream.write(`spawn error: ${error.message}\n`);
    serverExit = { code: 1, signal: null };
    done();
  });
});

function printServerLog(lastLines) {
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return;
  }
  const lines = text.split('\n');
  const shown = lastLines && lines.length > lastLines ? lines.slice(-lastLines) : lines;
  process.stdout.write(
    `----- server log${shown.length < lines.length ? ` (last ${lastLines} lines)` : ''} -----\n${shown.join('\n')}\n----- end of server log -----\n`,
  );
}

/** Postgres processes serving our temporary data folder, if any outlived the server. */
function strayPostgres() {
  const result = spawnSync('pgrep', ['-f', dataDir], { encoding: 'utf8' });
  return (result.stdout ?? '')
    .split('\n')
    .map(Number)
    .filter((pid) => pid > 0 && pid !== process.pid);
}

let cleanedUp = false;
async function stopServerAndCleanUp() {
  if (cleanedUp) return;
  cleanedUp = true;
  if (!serverExit) {
    log('stopping the server (SIGTERM)');
    server.kill('SIGTERM');
    const stopped = await Promise.race([serverExited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
    if (!stopped) {
      log(`the server did not stop within ${STOP_TIMEOUT_MS / 1000} s: killing its process group`);
      try {
        process.kill(-server.pid, 'SIGINT'); // PostgreSQL: fast shutdown
        await Promise.race([serverExited, sleep(10_000)]);
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
      await Promise.race([serverExited, sleep(5_000)]);
    }
  }
  let stray = strayPostgres();
  for (let i = 0; stray.length > 0 && i < 20; i++) {
    await sleep(250);
    stray = strayPostgres();
  }
  if (stray.length > 0) {
    log(`PostgreSQL processes outlived the server (${stray.join(', ')}): stopping them`);
    for (const pid of stray) {
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        // already gone
      }
    }
    await sleep(2_000);
  }
  await mail.stop();
  logStream.end();
  rmSync(tempDir, { recursive: true, force: true });
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal} received: stopping`);
    void stopServerAndCleanUp().then(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
async function waitForHealth() {
  const started = Date.now();
  while (Date.now() - started < HEALTH_TIMEOUT_MS) {
    if (serverExit) return `the server exited early (code ${serverExit.code}, signal ${serverExit.signal})`;
    try {
      const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) {
        log(`server healthy after ${((Date.now() - started) / 1000).toFixed(1)} s`);
        return undefined;
      }
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  return `GET /api/v1/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s`;
}

let exitCode = 1;
/** Why the run failed besides a failed test: said again after the server log, which hides the summary. */
const reasons = [];
try {
  const problem = await waitForHealth();
  if (problem) {
    log(problem);
    printServerLog();
  } else if (!interrupted) {
    // Two runs (playwright.config.ts): the journeys on 2 workers, then, alone, those that read
    // site-wide "newest N" lists. A file filter that matches nothing in one of them is no failure.
    // BROWSER_TEST_PROJECTS runs other projects instead (npm run screenshots: 'screenshots').
    const projects = process.env.BROWSER_TEST_PROJECTS?.split(',').filter(Boolean) ?? ['chromium', 'chromium-alone'];
    for (const project of projects) {
      const args = [
        'playwright',
        'test',
        '-c',
        'frontend/playwright.config.ts',
        `--project=${project}`,
        '--pass-with-no-tests',
        ...process.argv.slice(2),
      ];
      log(`running npx ${args.join(' ')}`);
      exitCode = await run('npx', args, {
        ...process.env,
        BASE_URL: baseUrl,
        CHROMIUM_PATH: chromium,
        E2E_ADMIN_EMAIL: ADMIN_EMAIL,
        E2E_ADMIN_PASSWORD: ADMIN_PASSWORD,
        MAIL_CAPTURE_URL: mail.url,
        CSP_REPORT_LOG: cspReportLog,
      });
      if (exitCode !== 0 || interrupted) break;
    }
    const loopbackCalls = existsSync(loopbackLog) ? readFileSync(loopbackLog, 'utf8').split('\n').filter(Boolean) : [];
    log(`loopback connections the server made to itself during the journeys: ${loopbackCalls.length}`);
    if (loopbackCalls.length > 0) {
      process.stdout.write(`${loopbackCalls.slice(0, 20).join('\n')}\n`);
      log('pages must read through the in-process gateway, never over loopback HTTP');
      reasons.push(`${loopbackCalls.length} loopback connections`);
      if (exitCode === 0) exitCode = 1;
    }
    // Less the deliberate probe of frontend/tests/request-security.spec.ts, which proves reports arrive.
    const cspViolations = existsSync(cspReportLog)
      ? readFileSync(cspReportLog, 'utf8')
          .split('\n')
          .filter((line) => line && !line.includes('csp-probe'))
      : [];
    log(`Content-Security-Policy violations the browser reported during the journeys: ${cspViolations.length}`);
    if (cspViolations.length > 0) {
      process.stdout.write(`${cspViolations.slice(0, 20).join('\n')}\n`);
      log('every inline script must be in the build (scripts/csp-script-hashes.mjs): no page may need more than the policy allows');
      reasons.push(`${cspViolations.length} Content-Security-Policy violations`);
      if (exitCode === 0) exitCode = 1;
    }
    if (exitCode !== 0) {
      log(`Playwright failed (exit ${exitCode})`);
      printServerLog(40);
      mkdirSync(join(ROOT, 'test-results'), { recursive: true });
      copyFileSync(logFile, SAVED_LOG);
      log(`the whole server log is in ${SAVED_LOG}`);
      // The server log is long: say again, below it, what failed (the failed tests are named above it,
      // in Playwright's summary, and at the end of CI).
      log(`failed: ${reasons.length ? reasons.join(', ') : 'Playwright reported failed tests (its summary is above the server log)'}`);
    }
  }
} finally {
  await stopServerAndCleanUp();
}
if (!interrupted) {
  log(exitCode === 0 ? 'browser tests passed' : `browser tests failed (exit ${exitCode})`);
  process.exit(exitCode);
}
