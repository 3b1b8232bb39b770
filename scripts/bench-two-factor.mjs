#!/usr/bin/env node
// Sign-in with two-factor vs without (within 2x the p50): starts the built server on
// an empty DATA_DIR (embedded PostgreSQL, THROTTLE_DISABLED=1), makes N password-only accounts and
// N accounts with two-factor sign-in, then signs each in once, alternating, one at a time: the
// password-only sign-in (one request) against the whole two-factor sign-in (the password request,
// then the code request). One account per two-factor sign-in, because a code is accepted once (an
// autocannon row repeating one request cannot measure this). `npm run build` first.
//   node scripts/bench-two-factor.mjs            (N=25; N=50 node scripts/bench-two-factor.mjs)
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from 'otplib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 25);
const PORT = Number(process.env.PORT ?? 3977);
const BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'Bench!Pass1';
const ADMIN = { email: 'admin@bench.test', password: 'Bench!Admin1pass' };

// The embedded PostgreSQL runs as another OS user: its folder must be traversable.
const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-bench-2fa-'));
chmodSync(dataDir, 0o755);
const env = {
  ...process.env,
  PORT: String(PORT),
  DATA_DIR: dataDir,
  PUBLIC_URL: BASE,
  THROTTLE_DISABLED: '1',
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  LOG_LEVEL: 'warn',
};
for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'JWT_SECRET']) delete env[name];
const logFile = join(dataDir, 'server.log');
const server = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
  cwd: ROOT,
  env,
  stdio: ['ignore', openSync(logFile, 'w'), 'inherit'],
  detached: true,
});
let stopped = false;
function stop() {
  if (stopped) return;
  stopped = true;
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
process.on('exit', stop);

async function waitForHealth() {
  for (let i = 0; i < 480; i++) {
    try {
      if ((await fetch(`${BASE}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not start (log: ${logFile})`);
}

async function call(method, path, body, token) {
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
}

function expectStatus(answer, status, what) {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

const percentile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const ms = (value) => `${value.toFixed(0)} ms`;

try {
  await waitForHealth();
  const admin = expectStatus(await call('POST', '/api/v1/auth/login', ADMIN), 200, 'admin sign-in').accessToken;
  async function account(tag, i) {
    const email = `${tag}${i}@bench.test`;
    const data = {
      fullName: `Bench ${tag} ${i}`,
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      roles: ['USER'],
      status: 'ACTIVE',
      markEmailAsVerified: true,
    };
    expectStatus(await call('POST', '/api/v1/admin/users', data, admin), 201, 'create account');
    return email;
  }
  const plain = [];
  const twoFactor = [];
  for (let i = 0; i < N; i++) plain.push(await account('plain', i));
  for (let i = 0; i < N; i++) {
    const email = await account('tfa', i);
    const token = expectStatus(
      await call('POST', '/api/v1/auth/login', { email, password: PASSWORD }),
      200,
      'sign-in before set-up',
    ).accessToken;
    const { secret } = expectStatus(await call('POST', '/api/v1/account/two-factor/setup', null, token), 200, 'set-up');
    // Confirmed with the previous step's code, so the current step's code is still unused at sign-in.
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 });
    expectStatus(await call('POST', '/api/v1/account/two-factor/confirm', { code }, token), 200, 'confirm');
    twoFactor.push({ email, secret });
  }

  const without = [];
  const withTwoFactor = [];
  const passwordStep = [];
  const codeStep = [];
  for (let i = 0; i < N; i++) {
    let start = performance.now();
    expectStatus(await call('POST', '/api/v1/auth/login', { email: plain[i], password: PASSWORD }), 200, 'password-only sign-in');
    without.push(performance.now() - start);

    start = performance.now();
    const { challengeToken } = expectStatus(
      await call('POST', '/api/v1/auth/login', { email: twoFactor[i].email, password: PASSWORD }),
      202,
      'password step',
    );
    const between = performance.now();
    const code = await generate({ secret: twoFactor[i].secret });
    expectStatus(await call('POST', '/api/v1/auth/login/two-factor', { challengeToken, code }), 200, 'code step');
    const end = performance.now();
    withTwoFactor.push(end - start);
    passwordStep.push(between - start);
    codeStep.push(end - between);
  }
  const ratio = percentile(withTwoFactor, 0.5) / percentile(without, 0.5);
  console.log(`${N} sign-ins each, one at a time (bcrypt cost 12, embedded PostgreSQL)`);
  console.log(`| sign-in | p50 | p90 |\n|---|---|---|`);
  console.log(`| password only | ${ms(percentile(without, 0.5))} | ${ms(percentile(without, 0.9))} |`);
  console.log(`| with two-factor (password + code) | ${ms(percentile(withTwoFactor, 0.5))} | ${ms(percentile(withTwoFactor, 0.9))} |`);
  console.log(`| of which the code step | ${ms(percentile(codeStep, 0.5))} | ${ms(percentile(codeStep, 0.9))} |`);
  console.log(`p50 ratio ${ratio.toFixed(2)}x (target: within 2x) ${ratio <= 2 ? 'ok' : 'OVER'}`);
  process.exitCode = ratio <= 2 ? 0 : 1;
} finally {
  stop();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  rmSync(dataDir, { recursive: true, force: true });
}
