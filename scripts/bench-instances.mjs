#!/usr/bin/env node
// `BENCH_INSTANCES=2 npm run bench` (or `node scripts/bench-instances.mjs`): throughput of one
// instance against two behind a round-robin proxy.
//
// Uses the same seeded DATA_DIR as the benchmark (BENCH_DATA_DIR, default ./data; `npm run
// seed:demo -- --posts 10000`) and the build (`npm run build`; built here when missing). Starts
// the embedded PostgreSQL of that DATA_DIR once, a redis-server on a free port when one is
// installed (REDIS_URL: shared rate limits and cache invalidation, as in production), then the
// built server BENCH_INSTANCES times (default 2) on that database with PAGE_CACHE=off, each with
// its own scratch DATA_DIR, and scripts/lib/round-robin-proxy.mjs in its own process. Measures
// (BENCH_CONNECTIONS, BENCH_WARMUP, BENCH_DURATION as in bench.mjs) the uncached post page and
// the public list API through the proxy with one instance behind it, then with all of them, and
// prints req/s, latencies, the speed-up and the PASS/FAIL of the target (>= 1.6x with two), with
// the machine's CPU count and the CPU time PostgreSQL used, to show where the limit is.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freeLoopbackPort, serverNodeFlags, sleep } from './lib/process.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = join(ROOT, 'dist', 'backend', 'src', 'main.js');
const FRONTEND_ENTRY = join(ROOT, 'frontend', 'dist', 'server', 'entry.mjs');
const DATA_DIR = resolve(ROOT, process.env.BENCH_DATA_DIR || './data');
const INSTANCES = Number(process.env.BENCH_INSTANCES || 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 64);
const WARMUP_S = Number(process.env.BENCH_WARMUP || 3);
const DURATION_S = Number(process.env.BENCH_DURATION || 10);
const TARGET = 1.6;
const NODE_FLAGS = serverNodeFlags(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
const JWT_SECRET = 'bench-instances-shared-secret-of-32-chars-or-more';

const log = (message) => process.stdout.write(`[bench:instances] ${message}\n`);
if (!Number.isInteger(INSTANCES) || INSTANCES < 2 || INSTANCES > 8) {
  log(`BENCH_INSTANCES must be a whole number from 2 to 8 (got "${process.env.BENCH_INSTANCES}")`);
  process.exit(1);
}

const children = [];
const cleanups = [];
/** Stops every child (SIGTERM, SIGKILL after 30 s) and waits for them, then PostgreSQL and the scratch folders. */
async function stopAll() {
  // Last started first: the proxy, the instances, then redis-server (an instance stops with Redis still there).
  for (const child of children.splice(0).reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stopAll().then(() => process.exit(130)));

/** Spawns a process and resolves when its output contains `ready` (rejects when it exits first). */
function startProcess(label, command, args, env, ready) {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolveStart, reject) => {
    const onData = (chunk) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (ready && output.includes(ready)) resolveStart(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${label} exited (${code}).\n${output}`)));
    if (!ready) resolveStart(child);
  });
}

async function waitHealthy(label, baseUrl, child) {
  const started = Date.now();
  while (Date.now() - started < 120_000) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2_000) })).status === 200) {
        log(`${label}: up on ${baseUrl} (pid ${child.pid})`);
        return;
      }
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`${label} did not become healthy`);
}

async function measure(url, headers = {}) {
  const options = { url, connections: CONNECTIONS, pipelining: 1, headers: { accept: 'text/html,application/json', ...headers } };
  await autocannon({ ...options, duration: WARMUP_S });
  const result = await autocannon({ ...options, duration: DURATION_S });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** CPU seconds (user + system) of a process and its children so far, from /proc. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    return ticks / 100;
  } catch {
    return undefined;
  }
}
/** CPU seconds of this DATA_DIR's PostgreSQL: the postmaster (postmaster.pid) and its backends, from /proc. */
function postgresCpu() {
  let postmaster;
  try {
    postmaster = Number(readFileSync(join(DATA_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  const run = spawnSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' });
  const pids = [
    postmaster,
    ...run.stdout
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0),
  ];
  return pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);
}

const rows = [];
try {
  if (!existsSync(SERVER_ENTRY) || !existsSync(FRONTEND_ENTRY)) {
    log('no build found: npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const { startEmbeddedPostgres } = await import(
    pathToFileURL(join(ROOT, 'dist', 'backend', 'src', 'database', 'embedded-postgres.js')).href
  );
  const { ensureDatabase } = await import(pathToFileURL(join(ROOT, 'dist', 'backend', 'src', 'database', 'data-source.js')).href);
  const embedded = await startEmbeddedPostgres(DATA_DIR, (line) => log(`postgres: ${line}`));
  cleanups.push(() => embedded.stop());
  const databaseUrl = await ensureDatabase(embedded.url, 'inkwell');
  log(`PostgreSQL of ${DATA_DIR} up`);

  let redisUrl;
  const redisBinary = ['redis-server', '/usr/bin/redis-server'].find((bin) => spawnSync(bin, ['--version']).status === 0);
  if (redisBinary) {
    const port = await freeLoopbackPort();
    await startProcess(
      'redis-server',
      redisBinary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      process.env,
      'Ready to accept connections',
    );
    redisUrl = `redis://127.0.0.1:${port}`;
    log(`redis-server up on ${redisUrl}`);
  } else log('redis-server not installed: instances run without REDIS_URL');

  const servers = [];
  for (let i = 0; i < INSTANCES; i++) {
    const port = await freeLoopbackPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-bench-instance-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const env = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      PUBLIC_URL: baseUrl,
      THROTTLE_DISABLED: '1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      PAGE_CACHE: 'off',
    };
    delete env.SMTP_URL;
    if (redisUrl) env.REDIS_URL = redisUrl;
    else delete env.REDIS_URL;
    const child = await startProcess(`instance ${i + 1}`, process.execPath, [...NODE_FLAGS, SERVER_ENTRY], env);
    await waitHealthy(`instance ${i + 1}`, baseUrl, child);
    servers.push({ baseUrl, child });
  }

  const firstPage = (await (await fetch(`${servers[0].baseUrl}/api/v1/blog/posts/public?page=0&size=12`)).json()).data;
  if (firstPage.totalElements < 1000)
    throw new Error(
      `only ${firstPage.totalElements} published posts in ${DATA_DIR}: seed it first with DATA_DIR=${DATA_DIR} npm run seed:demo -- --posts 10000`,
    );
  const post = firstPage.content[0];
  const routes = [
    ['page /blog/{slug} (PAGE_CACHE=off)', `/blog/${post.slug}`, { 'accept-encoding': 'br, gzip' }],
    ['API list page=0', '/api/v1/blog/posts/public?page=0&size=12', {}],
  ];

  for (const count of [1, INSTANCES]) {
    const port = await freeLoopbackPort();
    const proxy = await startProcess(
      'proxy',
      process.execPath,
      [join(ROOT, 'scripts', 'lib', 'round-robin-proxy.mjs'), String(port), ...servers.slice(0, count).map((s) => s.baseUrl)],
      process.env,
      `listening ${port}`,
    );
    log(`${count} instance(s) behind the round-robin proxy on :${port}`);
    for (const [label, path, headers] of routes) {
      const pgBefore = postgresCpu();
      const appBefore = servers.slice(0, count).map((s) => cpuSeconds(s.child.pid) ?? 0);
      log(`${count} instance(s): ${label}`);
      const result = await measure(`http://127.0.0.1:${port}${path}`, headers);
      const pgAfter = postgresCpu();
      const appCpu = servers.slice(0, count).reduce((sum, s, i) => sum + ((cpuSeconds(s.child.pid) ?? 0) - appBefore[i]), 0);
      rows.push({
        count,
        label,
        ...result,
        pgCpu: pgBefore !== undefined && pgAfter !== undefined ? pgAfter - pgBefore : undefined,
        appCpu,
      });
    }
    await new Promise((done) => {
      proxy.once('exit', done);
      proxy.kill('SIGTERM');
    });
    children.splice(children.indexOf(proxy), 1);
  }
} catch (error) {
  await stopAll();
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
await stopAll();

const pad = (value, width) => String(value).padEnd(width);
const padLeft = (value, width) => String(value).padStart(width);
const seconds = WARMUP_S + DURATION_S;
process.stdout.write(
  `\n${cpus().length} CPUs (load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}); ${CONNECTIONS} connections, ${DURATION_S} s per row; CPU columns: share of one CPU over warm-up + run\n`,
);
process.stdout.write(
  `${pad('instances', 11)}${pad('route', 38)}${padLeft('req/s', 10)}${padLeft('p50 ms', 9)}${padLeft('p99 ms', 9)}${padLeft('errors', 8)}${padLeft('app CPU', 10)}${padLeft('PG CPU', 9)}\n`,
);
for (const row of rows) {
  const cpu = (value) => (value === undefined ? '-' : `${Math.round((value / seconds) * 100)} %`);
  process.stdout.write(
    `${pad(row.count, 11)}${pad(row.label, 38)}${padLeft(row.rps.toFixed(0), 10)}${padLeft(row.p50, 9)}${padLeft(row.p99, 9)}${padLeft(row.errors, 8)}${padLeft(cpu(row.appCpu), 10)}${padLeft(cpu(row.pgCpu), 9)}\n`,
  );
}
let failed = false;
process.stdout.write('\n');
for (const [label] of [...new Set(rows.map((row) => row.label))].map((label) => [label])) {
  const one = rows.find((row) => row.count === 1 && row.label === label);
  const many = rows.find((row) => row.count === INSTANCES && row.label === label);
  const speedup = one.rps > 0 ? many.rps / one.rps : 0;
  const pass = INSTANCES !== 2 || speedup >= TARGET;
  failed ||= !pass || one.errors > 0 || many.errors > 0;
  process.stdout.write(
    `${pass ? 'PASS' : 'FAIL'}  ${label}: ${INSTANCES} instances ${speedup.toFixed(2)}x one (target >= ${TARGET}x with 2)${one.errors || many.errors ? ' — errors' : ''}\n`,
  );
}
if (cpus().length < INSTANCES + 2) {
  process.stdout.write(
    `note: ${cpus().length} CPUs for ${INSTANCES} instances, PostgreSQL, the proxy and the load generator: the machine, not the app, bounds the speed-up here\n`,
  );
}
process.exit(failed ? 1 : 0);
