#!/usr/bin/env node
// `npm run bench:analytics`: the analytics rows (docs/analytics.md, docs/benchmarks.md), each
// judged in one run:
// - the anonymous cached post page with counting on, against the same page with ANALYTICS=off:
//   two servers on one database (the second on the first's embedded PostgreSQL), measured in
//   alternating runs (BENCH_PAIRS=3 x BENCH_DURATION=8 s, BENCH_CONNECTIONS=64), each beside the
//   page's own-bytes ceiling (scripts/lib/own-ceiling.mjs); target: on >= 95 % of off;
// - counting under load: 64 connections for BENCH_COUNT_SECONDS=60 on the cached post page with a
//   browser's user agent (a benchmark tool's own agent is a bot's, and bots are not counted), then
//   the rows written with this run's Referer host against the 2xx answers: target equal;
// - the Stats API over the seeded views (p95 of BENCH_API_REQUESTS=200 requests per route, 4 at a
//   time): the author's own figures and a post's (author-1), the site's and an author's (the admin),
//   over 90 days; target p95 <= 100 ms;
// - the Stats pages (/author/stats and /admin/stats, 90 days) against their own-bytes ceilings:
//   target >= 3 %.
// The data set: BENCH_ANALYTICS_DATA_DIR (default <tmpdir>/inkwell-bench-analytics), seeded once
// with seed:demo --posts 10000 --views 10000000 (BENCH_VIEWS changes the count). Needs a build.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { captureAnswer, describeAnswer, median, startOwnCeiling, summarizePairs } from './lib/own-ceiling.mjs';
import { freeLoopbackPort, seedDemoOnce, serverNodeFlags, sleep } from './lib/process.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = join(ROOT, 'dist', 'backend', 'src', 'main.js');
const VIEWS = Number(process.env.BENCH_VIEWS || 10_000_000);
const DATA_DIR = resolve(process.env.BENCH_ANALYTICS_DATA_DIR || join(tmpdir(), 'inkwell-bench-analytics'), 'data');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 64);
const DURATION_S = Number(process.env.BENCH_DURATION || 8);
const WARMUP_S = Number(process.env.BENCH_WARMUP || 3);
const PAIRS = Number(process.env.BENCH_PAIRS || 3);
const COUNT_SECONDS = Number(process.env.BENCH_COUNT_SECONDS || 60);
const API_REQUESTS = Number(process.env.BENCH_API_REQUESTS || 200);
const NODE_FLAGS = serverNodeFlags(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
/** BENCH_ROWS=cost,count,api,pages runs some rows only (default: all). */
const ROWS = new Set((process.env.BENCH_ROWS || 'cost,count,api,pages').split(',').map((row) => row.trim()));
/** BENCH_PROFILE_DIR: the counting server writes a CPU profile there (node --cpu-prof) when it stops. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const DEMO_PASSWORD = 'Demo-pass-2026!';
const AUTHOR = 'author-1@demo.inkwell.test';
const ADMIN = { email: 'bench-admin@inkwell.test', password: 'Bench-admin-pass-1!' };
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const PAGE_HEADERS = { accept: 'text/html', 'accept-encoding': 'br, gzip', 'user-agent': BROWSER };

const log = (message) => process.stdout.write(`[bench:analytics] ${message}\n`);
const results = [];
const verdict = (name, pass, figure) => results.push({ name, pass, figure });

/** The embedded PostgreSQL of a running server on DATA_DIR (its postmaster.pid and the data folder's secret). */
function embeddedDatabaseUrl() {
  const lines = readFileSync(join(DATA_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  const { postgresPassword } = JSON.parse(readFileSync(join(DATA_DIR, 'secrets.json'), 'utf8'));
  return `postgres://inkwell:${encodeURIComponent(postgresPassword)}@127.0.0.1:${Number(lines[3])}/inkwell`;
}

async function startServer(label, extraEnv, extraFlags = []) {
  const port = await freeLoopbackPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR,
    PUBLIC_URL: baseUrl,
    THROTTLE_DISABLED: '1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL']) delete env[name];
  Object.assign(env, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }, extraEnv);
  const child = spawn(process.execPath, [...NODE_FLAGS, ...extraFlags, SERVER_ENTRY], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exit = new Promise((done) => child.on('exit', done));
  const started = Date.now();
  while (Date.now() - started < 120_000 && child.exitCode === null) {
    try {
      if ((await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2_000) })).status === 200) {
        log(`${label}: up on ${baseUrl} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
        return {
          baseUrl,
          async stop() {
            if (child.exitCode !== null) return;
            child.kill('SIGTERM');
            await Promise.race([exit, sleep(30_000).then(() => child.kill('SIGKILL'))]);
          },
        };
      }
    } catch {
      // not up yet
    }
    await sleep(500);
  }
  child.kill('SIGKILL');
  throw new Error(`${label} did not become healthy:\n${output}`);
}

async function run(url, headers, duration = DURATION_S) {
  const result = await autocannon({ url, connections: CONNECTIONS, pipelining: 1, headers, duration });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    sent: result['2xx'],
  };
}

async function signIn(base, email, password) {
  const response = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, rememberMe: false }),
  });
  if (!response.ok) throw new Error(`sign-in as ${email}: ${response.status} ${await response.text()}`);
  const body = await response.json();
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return { token: body.data.accessToken, cookie };
}

/** p50 and p95 (ms) of `count` GETs, `parallel` at a time. */
async function latencies(url, headers, count, parallel = 4) {
  const times = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const started = performance.now();
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)], p95: times[Math.floor(times.length * 0.95)], max: times[times.length - 1] };
}

/** A page row against its own ceiling: warm-up, then PAIRS alternating runs. */
async function pageRow(label, url, headers) {
  const answer = await captureAnswer(url, { headers }).then(() => captureAnswer(url, { headers }));
  const ceiling = await startOwnCeiling(answer);
  try {
    await run(url, headers, WARMUP_S);
    const pairs = [];
    for (let i = 0; i < PAIRS; i++) pairs.push({ app: await run(url, headers), ceiling: await run(ceiling.url, headers) });
    const row = summarizePairs(pairs);
    log(
      `${label}: ${row.rps.toFixed(0)} req/s (p50 ${row.p50} ms, p99 ${row.p99} ms), own ceiling ${row.ceilingRps.toFixed(0)} req/s: ${(row.ownRatio * 100).toFixed(1)} % (${describeAnswer(answer)}), errors ${row.errors}`,
    );
    return row;
  } finally {
    await ceiling.stop();
  }
}

const started = Date.now();
seedDemoOnce({ root: ROOT, dataDir: DATA_DIR, args: ['--posts', '10000', '--views', String(VIEWS)], log });
const on = await startServer('counting on', {}, PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE_DIR)}`] : []);
const off = await startServer('ANALYTICS=off', { ANALYTICS: 'off', DATABASE_URL: embeddedDatabaseUrl() });
const db = new pg.Client({ connectionString: embeddedDatabaseUrl() });
await db.connect();
try {
  const [{ slug }] = (await db.query(`SELECT slug FROM posts WHERE status = 'PUBLISHED' ORDER BY published_at DESC LIMIT 1`)).rows;
  const [{ n: rawRows }] = (await db.query(`SELECT count(*)::int AS n FROM analytics_views`)).rows;
  const [{ n: rolled }] = (await db.query(`SELECT coalesce(sum(views), 0)::bigint AS n FROM analytics_daily_scope WHERE scope = -1`)).rows;
  log(`data: ${rolled} views rolled up over 90 days, ${rawRows} raw rows kept; the post page /blog/${slug}`);

  const path = `/blog/${slug}`;
  let onRps = 0;
  if (ROWS.has('cost')) {
    // 1. The cached post page, counting on against ANALYTICS=off, alternating.
    const answer = await captureAnswer(`${on.baseUrl}${path}`, { headers: PAGE_HEADERS }).then(() =>
      captureAnswer(`${on.baseUrl}${path}`, { headers: PAGE_HEADERS }),
    );
    await captureAnswer(`${off.baseUrl}${path}`, { headers: PAGE_HEADERS });
    const ceiling = await startOwnCeiling(answer);
    await run(`${on.baseUrl}${path}`, PAGE_HEADERS, WARMUP_S);
    await run(`${off.baseUrl}${path}`, PAGE_HEADERS, WARMUP_S);
    const onPairs = [];
    const offPairs = [];
    const ratios = [];
    for (let i = 0; i < PAIRS; i++) {
      const first = i % 2 === 0 ? 'on' : 'off';
      const a = await run(`${(first === 'on' ? on : off).baseUrl}${path}`, PAGE_HEADERS);
      const b = await run(`${(first === 'on' ? off : on).baseUrl}${path}`, PAGE_HEADERS);
      const c = await run(ceiling.url, PAGE_HEADERS);
      const [onRun, offRun] = first === 'on' ? [a, b] : [b, a];
      onPairs.push({ app: onRun, ceiling: c });
      offPairs.push({ app: offRun, ceiling: c });
      ratios.push(onRun.rps / offRun.rps);
      log(`pair ${i + 1}: on ${onRun.rps.toFixed(0)} req/s, off ${offRun.rps.toFixed(0)} req/s, ceiling ${c.rps.toFixed(0)} req/s`);
    }
    await ceiling.stop();
    const onRow = summarizePairs(onPairs);
    onRps = onRow.rps;
    const offRow = summarizePairs(offPairs);
    const ratio = median(ratios);
    log(
      `cached post page (${describeAnswer(answer)}): counting on ${onRow.rps.toFixed(0)} req/s (${(onRow.ownRatio * 100).toFixed(1)} % of own ceiling ${onRow.ceilingRps.toFixed(0)}), ANALYTICS=off ${offRow.rps.toFixed(0)} req/s (${(offRow.ownRatio * 100).toFixed(1)} %)`,
    );
    verdict(
      'cached post page, counting on >= 95 % of ANALYTICS=off (same run)',
      ratio >= 0.95,
      `${(ratio * 100).toFixed(1)} % (on ${onRow.rps.toFixed(0)}, off ${offRow.rps.toFixed(0)} req/s; own ceiling ${onRow.ceilingRps.toFixed(0)})`,
    );
  }
  await off.stop();

  if (ROWS.has('count')) {
    // Without the cost row: the page's rate from a short run of its own.
    if (!onRps) onRps = (await run(`${on.baseUrl}${path}`, PAGE_HEADERS, 5)).rps;
    // 2. Every view written under 64 connections for COUNT_SECONDS.
    // A fixed number of requests (what the page did per second above, for COUNT_SECONDS): every one is answered before the count.
    const marker = `bench-${Date.now().toString(36)}.example`;
    const amount = Math.round(onRps * COUNT_SECONDS);
    const countStarted = Date.now();
    const result = await autocannon({
      url: `${on.baseUrl}${path}`,
      connections: CONNECTIONS,
      pipelining: 1,
      headers: { ...PAGE_HEADERS, referer: `https://${marker}/` },
      amount,
    });
    const counted = {
      sent: result['2xx'],
      rps: result['2xx'] / ((Date.now() - countStarted) / 1000),
      errors: result.errors + result.timeouts + result.non2xx,
    };
    await sleep(3_000);
    const [{ n: written }] = (await db.query(`SELECT count(*)::int AS n FROM analytics_views WHERE source_host = $1`, [marker])).rows;
    log(
      `counting: ${amount} requests sent, ${counted.sent} answered (2xx, ${counted.errors} errors) in ${((Date.now() - countStarted) / 1000 - 3).toFixed(0)} s at ${counted.rps.toFixed(0)} req/s, ${written} rows written`,
    );
    verdict(
      `views written == requests answered, ${CONNECTIONS} connections x ${COUNT_SECONDS} s`,
      written === counted.sent,
      `${written} / ${counted.sent}`,
    );
  }

  // 3. The Stats API and 4. the pages, over the seeded views.
  const author = await signIn(on.baseUrl, AUTHOR, DEMO_PASSWORD);
  const admin = await signIn(on.baseUrl, ADMIN.email, ADMIN.password);
  const [{ id: authorId }] = (await db.query(`SELECT id FROM users WHERE email = $1`, [AUTHOR])).rows;
  const [{ id: postId }] = (
    await db.query(`SELECT post_id AS id FROM analytics_daily WHERE author_id = $1 GROUP BY post_id ORDER BY sum(views) DESC LIMIT 1`, [
      authorId,
    ])
  ).rows;
  const apiRoutes = [
    ['author: GET /analytics/me?days=90', '/api/v1/analytics/me?days=90', author],
    ['author: GET /analytics/me?days=7', '/api/v1/analytics/me?days=7', author],
    ['author: GET /analytics/posts/{id}?days=90', `/api/v1/analytics/posts/${postId}?days=90`, author],
    ['admin: GET /admin/analytics?days=90', '/api/v1/admin/analytics?days=90', admin],
    ['admin: GET /admin/analytics?days=30', '/api/v1/admin/analytics?days=30', admin],
    ['admin: GET /admin/analytics/authors/{id}?days=90', `/api/v1/admin/analytics/authors/${authorId}?days=90`, admin],
  ];
  for (const [label, route, who] of ROWS.has('api') ? apiRoutes : []) {
    const headers = { authorization: `Bearer ${who.token}` };
    const cold = await latencies(`${on.baseUrl}${route}`, headers, 1, 1);
    await latencies(`${on.baseUrl}${route}`, headers, 20);
    const figures = await latencies(`${on.baseUrl}${route}`, headers, API_REQUESTS);
    log(
      `${label}: first (computed) ${cold.max.toFixed(0)} ms; then p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms`,
    );
    verdict(
      `Stats API p95 <= 100 ms: ${label}`,
      figures.p95 <= 100,
      `p95 ${figures.p95.toFixed(1)} ms (p50 ${figures.p50.toFixed(1)}; first, computed: ${cold.max.toFixed(0)} ms)`,
    );
  }
  for (const [label, route, who] of ROWS.has('pages')
    ? [
        ['page /author/stats?days=90 (author-1)', '/author/stats?days=90', author],
        ['page /admin/stats?days=90', '/admin/stats?days=90', admin],
      ]
    : []) {
    const row = await pageRow(label, `${on.baseUrl}${route}`, { ...PAGE_HEADERS, cookie: who.cookie });
    verdict(
      `Stats page >= 3 % of its own-bytes ceiling: ${label}`,
      row.ownRatio >= 0.03,
      `${(row.ownRatio * 100).toFixed(1)} % (${row.rps.toFixed(0)} req/s, p99 ${row.p99} ms)`,
    );
  }
} finally {
  await db.end();
  await on.stop();
  await off.stop();
}
log(`done in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
for (const row of results) process.stdout.write(`${row.pass ? 'PASS' : 'FAIL'}  ${row.name}: ${row.figure}\n`);
process.exitCode = results.every((row) => row.pass) ? 0 : 1;
