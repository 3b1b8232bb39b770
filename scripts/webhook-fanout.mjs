#!/usr/bin/env node
// `node scripts/webhook-fanout.mjs [--events 1000] [--receivers 3] [--writers 8]` (
// 'Measured'): the lag of webhook fan-out on the built server with the embedded PostgreSQL, on a
// fresh temporary DATA_DIR. Three receivers on loopback (WEBHOOK_ALLOW_PRIVATE=1), a webhook each
// for tag.created; 1,000 tags created through the API by 8 writers; every delivery's lag is its
// receipt time minus the event's time (the payload's createdAt, the change's transaction).
// Prints delivered / expected, duplicates, p50 / p99 / max lag and the write time; exits 1 when a
// delivery is missing or duplicated, or p99 > 5 s. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort, serverNodeFlags, sleep } from './lib/process.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = join(ROOT, 'dist', 'backend', 'src', 'main.js');
const ADMIN = { email: 'admin@fanout.inkwell.test', password: 'fanout-admin-password-2026' };
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const EVENTS = option('--events', 1000);
const RECEIVERS = option('--receivers', 3);
const WRITERS = option('--writers', 8);
const P99_TARGET_MS = 5_000;
const log = (message) => process.stdout.write(`[fanout] ${message}\n`);

if (!existsSync(SERVER_ENTRY)) {
  log(`${SERVER_ENTRY} is missing: run npm run build first`);
  process.exit(1);
}

/** A receiver: answers 200 at once and keeps each delivery's id, type, event time and receipt time. */
async function receiver(index) {
  const received = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const at = Date.now();
      const json = JSON.parse(body);
      received.push({ key: req.headers['x-inkwell-delivery'], name: json.data?.name, lagMs: at - Date.parse(json.createdAt) });
      res.end('ok');
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    index,
    url: `http://127.0.0.1:${server.address().port}/fanout-${index}`,
    received,
    close: () => new Promise((done) => server.close(done)),
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-fanout-'));
chmodSync(dataDir, 0o755);
const port = await freeLoopbackPort();
const base = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  PORT: String(port),
  DATA_DIR: dataDir,
  PUBLIC_URL: base,
  THROTTLE_DISABLED: '1',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  WEBHOOK_ALLOW_PRIVATE: '1',
};
for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL']) delete env[name];

const server = spawn(process.execPath, [...serverNodeFlags(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))), SERVER_ENTRY], {
  cwd: ROOT,
  env,
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
server.stdout.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
server.stderr.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
const exited = new Promise((done) => server.on('exit', done));

const api = async (method, path, { token, body } = {}) => {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, json: await response.json().catch(() => undefined) };
};

const receivers = [];
let failed = false;
try {
  const started = Date.now();
  for (;;) {
    const status = await fetch(`${base}/api/v1/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() - started > 120_000) throw new Error(`the server did not become healthy:\n${output}`);
    await sleep(200);
  }
  const login = await api('POST', '/auth/login', { body: ADMIN });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.json?.message}`);
  const token = login.json.data.accessToken;
  for (let i = 0; i < RECEIVERS; i++) {
    const target = await receiver(i);
    receivers.push(target);
    const created = await api('POST', '/admin/webhooks', { token, body: { url: target.url, events: ['tag.created'] } });
    if (created.status !== 201) throw new Error(`webhook: ${created.status} ${created.json?.message}`);
  }

  log(`${EVENTS} tags by ${WRITERS} writers, ${RECEIVERS} webhooks: ${EVENTS * RECEIVERS} deliveries`);
  const prefix = `Fanout ${Date.now().toString(36)}`;
  let next = 0;
  const writeStarted = Date.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < EVENTS) {
        const n = next++;
        const res = await api('POST', '/blog/tags', { token, body: { name: `${prefix} ${n}` } });
        if (res.status !== 201) throw new Error(`tag ${n}: ${res.status} ${res.json?.message}`);
      }
    }),
  );
  const writeSeconds = (Date.now() - writeStarted) / 1000;
  const expected = EVENTS * RECEIVERS;
  const waitUntil = Date.now() + 120_000;
  const count = () => receivers.reduce((sum, r) => sum + r.received.length, 0);
  while (count() < expected && Date.now() < waitUntil) await sleep(100);
  const allSeconds = (Date.now() - writeStarted) / 1000;

  const lags = receivers.flatMap((r) => r.received.map((hook) => hook.lagMs)).sort((a, b) => a - b);
  const at = (q) => lags[Math.min(lags.length - 1, Math.ceil(q * lags.length) - 1)] ?? NaN;
  const duplicates = receivers.reduce((sum, r) => sum + (r.received.length - new Set(r.received.map((hook) => hook.key)).size), 0);
  const missing = receivers.reduce((sum, r) => sum + (EVENTS - new Set(r.received.map((hook) => hook.name)).size), 0);
  const rows = [
    [
      'deliveries received',
      `${count().toLocaleString('en-US')} of ${expected.toLocaleString('en-US')}`,
      `${expected}`,
      count() === expected && missing === 0,
    ],
    ['duplicates', duplicates, '0', duplicates === 0],
    ['lag p50', `${(at(0.5) / 1000).toFixed(2)} s`, '', true],
    ['lag p99', `${(at(0.99) / 1000).toFixed(2)} s`, '<= 5 s', at(0.99) <= P99_TARGET_MS],
    ['lag max', `${(at(1) / 1000).toFixed(2)} s`, '', true],
    ['events written in', `${writeSeconds.toFixed(1)} s (${(EVENTS / writeSeconds).toFixed(0)} events/s)`, '', true],
    ['all delivered after', `${allSeconds.toFixed(1)} s from the first write`, '', true],
  ];
  process.stdout.write(
    `\n| figure | measured | target | result |\n|---|---|---|---|\n${rows.map(([f, v, t, ok]) => `| ${f} | ${v} | ${t} | ${ok ? 'PASS' : 'FAIL'} |`).join('\n')}\n\n`,
  );
  failed = rows.some((row) => !row[3]);
} catch (error) {
  failed = true;
  log(`aborted: ${error instanceof Error ? error.stack : String(error)}`);
} finally {
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await Promise.race([exited, sleep(30_000)]);
  for (const r of receivers) await r.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
