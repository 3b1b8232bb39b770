#!/usr/bin/env node
// `npm run bench`: throughput and latency of the main public routes with autocannon.
//
// Expects a data set seeded with `npm run seed:demo -- --posts 10000` in BENCH_DATA_DIR (default
// ./data) and a build (`npm run build`; built here when missing). Starts the built server twice on
// that DATA_DIR — normally, then with PAGE_CACHE=off — on a free loopback port with the Node flags
// of `npm start`, and measures each route (BENCH_CONNECTIONS=64 connections, BENCH_WARMUP=3 s
// warm-up, BENCH_DURATION=10 s). Each phase first measures a bare Node http server sending the post
// page's bytes (the ceiling); the phase's ratios use its own ceiling, because the speed of these
// machines drifts over minutes. Prints a table and PASS/FAIL per target of issue 4. Loopback only,
// bounded durations; the servers are stopped at the end.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { freeLoopbackPort, serverNodeFlags, sleep } from './lib/process.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = join(ROOT, 'dist', 'backend', 'src', 'main.js');
const FRONTEND_ENTRY = join(ROOT, 'frontend', 'dist', 'server', 'entry.mjs');
const DATA_DIR = resolve(ROOT, process.env.BENCH_DATA_DIR || './data');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 64);
const WARMUP_S = Number(process.env.BENCH_WARMUP || 3);
const DURATION_S = Number(process.env.BENCH_DURATION || 10);
const HEALTH_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;
const MIN_SEEDED_POSTS = 1_000;
/** The flags `npm start` gives Node (the heap cap): the benchmark measures the server as it runs in production. */
const NODE_FLAGS = serverNodeFlags(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));

const log = (message) => process.stdout.write(`[bench] ${message}\n`);

/** Starts the built server on DATA_DIR; resolves once /api/v1/health answers 200. */
async function startServer(label, extraEnv) {
  const port = await freeLoopbackPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), DATA_DIR, PUBLIC_URL: baseUrl, THROTTLE_DISABLED: '1', LOG_LEVEL: 'warn', NODE_ENV: 'production', ...extraEnv };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL']) delete env[name];
  const child = spawn(process.execPath, [...NODE_FLAGS, SERVER_ENTRY], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  const exit = new Promise((done) => child.on('exit', () => ((exited = true), done())));
  const started = Date.now();
  while (Date.now() - started < HEALTH_TIMEOUT_MS) {
    if (exited) break;
    try {
      const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) {
        log(`${label}: server up on ${baseUrl} after ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${child.pid})`);
        return {
          baseUrl,
          pid: child.pid,
          async stop() {
            if (exited) return;
            child.kill('SIGTERM');
            const stopped = await Promise.race([exit.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
            if (!stopped) {
              child.kill('SIGKILL');
              await exit;
            }
          },
        };
      }
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  if (!exited) child.kill('SIGTERM');
  await Promise.race([exit, sleep(STOP_TIMEOUT_MS)]);
  throw new Error(`${label}: the server did not become healthy.\n----- server output -----\n${output}\n-----`);
}

function rssMegabytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function getJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()).data;
}

/** Warm-up, then the measured run; returns req/s, p50, p99 and the count of non-2xx answers. */
async function measure(url) {
  const options = { url, connections: CONNECTIONS, pipelining: 1, headers: { accept: 'text/html,application/json' } };
  await autocannon({ ...options, duration: WARMUP_S });
  const result = await autocannon({ ...options, duration: DURATION_S });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** JavaScript the post page makes the browser load: script src, modulepreload, islands and what they import. */
async function pageJavaScript(baseUrl, path) {
  const html = await (await fetch(`${baseUrl}${path}`)).text();
  const head = html.slice(0, Math.max(0, html.indexOf('</head>')));
  const blockingInHead = [...head.matchAll(/<script\b([^>]*)>/gi)]
    .map((match) => match[1])
    .filter((attributes) => /\bsrc=/.test(attributes) && !/\b(async|defer)\b|type=["']?module/.test(attributes));
  const urls = new Set();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc=["']([^"']+)["']/gi)) urls.add(match[1]);
  for (const match of html.matchAll(/<link\b[^>]*rel=["']modulepreload["'][^>]*href=["']([^"']+)["']/gi)) urls.add(match[1]);
  for (const match of html.matchAll(/\b(?:component-url|renderer-url|before-hydration-url)=["']([^"']+)["']/gi)) urls.add(match[1]);
  const seen = new Map();
  const queue = [...urls].map((url) => new URL(url, `${baseUrl}${path}`).toString());
  while (queue.length > 0) {
    const url = queue.shift();
    if (seen.has(url) || !url.startsWith(baseUrl)) continue;
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    seen.set(url, gzipSync(body).length);
    for (const match of body.toString('utf8').matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) queue.push(new URL(match[1], url).toString());
  }
  const inlineHeadScripts = [...head.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].filter((match) => !/application\/ld\+json/.test(match[0]));
  return {
    files: [...seen.keys()].map((url) => url.slice(baseUrl.length)),
    gzipBytes: [...seen.values()].reduce((sum, size) => sum + size, 0),
    blockingInHead,
    inlineHeadBytes: inlineHeadScripts.reduce((sum, match) => sum + Buffer.byteLength(match[1]), 0),
  };
}

/**
 * A bare Node http server answering every request with the same bytes: the machine's ceiling. It
 * runs in its own process, like Inkwell's server, so that autocannon does not share its thread.
 */
async function startCeiling(body) {
  const dir = mkdtempSync(join(tmpdir(), 'inkwell-bench-'));
  const file = join(dir, 'page.html');
  writeFileSync(file, body);
  const source = `
    const body = require('node:fs').readFileSync(${JSON.stringify(file)});
    const server = require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolvePort, reject) => {
    child.stdout.once('data', (chunk) => resolvePort(Number(String(chunk).trim())));
    child.once('exit', (code) => reject(new Error(`the ceiling server exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
if (!existsSync(SERVER_ENTRY) || !existsSync(FRONTEND_ENTRY)) {
  log('no build found: running npm run build');
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
if (!existsSync(DATA_DIR)) {
  log(`BENCH_DATA_DIR ${DATA_DIR} does not exist: seed it first with DATA_DIR=${DATA_DIR} npm run seed:demo -- --posts 10000`);
  process.exit(1);
}

const rows = [];
const memory = {};
/** The ceiling of each phase, measured just before its routes (the machine's speed drifts over minutes). */
const ceilings = {};
let postJs;
let servers = [];
const stopAll = async () => {
  await Promise.all(servers.map((server) => server.stop()));
  servers = [];
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`${signal}: stopping the servers`);
    void stopAll().then(() => process.exit(130));
  });
}

try {
  for (const phase of [
    { name: 'cache on', env: {} },
    { name: 'PAGE_CACHE=off', env: { PAGE_CACHE: 'off' } },
  ]) {
    const server = await startServer(phase.name, phase.env);
    servers.push(server);
    const base = server.baseUrl;
    const firstPage = await getJson(`${base}/api/v1/blog/posts/public?page=0&size=12`);
    if (firstPage.totalElements < MIN_SEEDED_POSTS) {
      throw new Error(`only ${firstPage.totalElements} published posts in ${DATA_DIR}: seed it first with DATA_DIR=${DATA_DIR} npm run seed:demo -- --posts 10000`);
    }
    const post = firstPage.content.find((card) => card.tags.length > 0) ?? firstPage.content[0];
    const tagSlug = post.tags[0]?.slug ?? (await getJson(`${base}/api/v1/blog/tags/publish`))[0]?.slug;
    const routes = [
      ['page /', '/'],
      ['page /blog', '/blog'],
      ['page /blog/{slug}', `/blog/${post.slug}`],
      ['page /blog/tag/{slug}', `/blog/tag/${tagSlug}`],
      ['API list page=0', '/api/v1/blog/posts/public?page=0&size=12'],
      ['API list page=500', '/api/v1/blog/posts/public?page=500&size=12'],
      ['API post by slug', `/api/v1/blog/posts/public/${post.slug}`],
    ];

    postJs ??= await pageJavaScript(base, `/blog/${post.slug}`);
    const body = Buffer.from(await (await fetch(`${base}/blog/${post.slug}`)).arrayBuffer());
    const bare = await startCeiling(body);
    log(`${phase.name}: ceiling, a bare Node http server (own process) sending the post page (${body.length} bytes)`);
    try {
      ceilings[phase.name] = await measure(bare.url);
    } finally {
      await bare.stop();
    }
    rows.push({ phase: phase.name, route: 'ceiling (bare http, post page bytes)', ...ceilings[phase.name] });

    for (const [label, path] of routes) {
      log(`${phase.name}: ${label} (${path})`);
      rows.push({ phase: phase.name, route: label, path, ...(await measure(`${base}${path}`)) });
    }
    memory[phase.name] = rssMegabytes(server.pid);
    await server.stop();
    servers = servers.filter((item) => item !== server);
  }
} catch (error) {
  await stopAll();
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
const pad = (value, width) => String(value).padEnd(width);
const padLeft = (value, width) => String(value).padStart(width);
/** A row's req/s as a share of the ceiling measured in the same phase. */
const ratio = (row) => (ceilings[row.phase]?.rps > 0 ? row.rps / ceilings[row.phase].rps : 0);
process.stdout.write(
  `\nInkwell benchmark: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per route, DATA_DIR ${DATA_DIR}, LOG_LEVEL=warn, node ${NODE_FLAGS.join(' ') || '(no flags)'}\n\n`,
);
process.stdout.write(`${pad('phase', 16)}${pad('route', 40)}${padLeft('req/s', 10)}${padLeft('p50 ms', 9)}${padLeft('p99 ms', 9)}${padLeft('vs ceiling', 12)}${padLeft('errors', 8)}\n`);
for (const row of rows) {
  process.stdout.write(
    `${pad(row.phase, 16)}${pad(row.route, 40)}${padLeft(row.rps.toFixed(0), 10)}${padLeft(row.p50, 9)}${padLeft(row.p99, 9)}${padLeft(`${(ratio(row) * 100).toFixed(1)} %`, 12)}${padLeft(row.errors, 8)}\n`,
  );
}
const find = (phase, route) => rows.find((row) => row.phase === phase && row.route === route);
const cachedPost = find('cache on', 'page /blog/{slug}');
const uncachedPost = find('PAGE_CACHE=off', 'page /blog/{slug}');
const list0 = find('cache on', 'API list page=0');
const list500 = find('cache on', 'API list page=500');
const maxRss = Math.max(...Object.values(memory).filter((value) => value !== undefined));

process.stdout.write(`\nPost page JavaScript: ${(postJs.gzipBytes / 1024).toFixed(1)} KB gzipped in ${postJs.files.length} file(s)${postJs.files.length ? `: ${postJs.files.join(', ')}` : ''}\n`);
process.stdout.write(`Render-blocking external scripts in <head>: ${postJs.blockingInHead.length}; inline <head> script (theme, no flash): ${postJs.inlineHeadBytes} bytes\n`);
process.stdout.write(`Server RSS after the run: ${Object.entries(memory).map(([phase, mb]) => `${phase} ${mb === undefined ? 'n/a' : `${mb.toFixed(0)} MB`}`).join(', ')}\n\n`);

const targets = [
  ['cached /blog/{slug} >= 50 % of ceiling', ratio(cachedPost) >= 0.5, `${(ratio(cachedPost) * 100).toFixed(1)} %`],
  ['PAGE_CACHE=off /blog/{slug} >= 4 % of ceiling', ratio(uncachedPost) >= 0.04, `${(ratio(uncachedPost) * 100).toFixed(1)} %`],
  ['API public list page 0 >= 8 % of ceiling', ratio(list0) >= 0.08, `${(ratio(list0) * 100).toFixed(1)} %`],
  [
    'API page=500 within 2x of page=0 (p50 or req/s)',
    list500.p50 <= 2 * Math.max(list0.p50, 1) || list500.rps * 2 >= list0.rps,
    `p50 ${list500.p50} vs ${list0.p50} ms, req/s ${list500.rps.toFixed(0)} vs ${list0.rps.toFixed(0)}`,
  ],
  ['post page JS <= 100 KB gzipped', postJs.gzipBytes <= 100 * 1024, `${(postJs.gzipBytes / 1024).toFixed(1)} KB`],
  ['no render-blocking script before first paint', postJs.blockingInHead.length === 0, `${postJs.blockingInHead.length} blocking`],
  ['server RSS <= 300 MB', Number.isFinite(maxRss) && maxRss <= 300, Number.isFinite(maxRss) ? `${maxRss.toFixed(0)} MB` : 'n/a'],
  ['no errors or non-2xx answers', rows.every((row) => row.errors === 0), `${rows.reduce((sum, row) => sum + row.errors, 0)}`],
];
for (const [name, pass, detail] of targets) process.stdout.write(`${pass ? 'PASS' : 'FAIL'}  ${pad(name, 52)} ${detail}\n`);
process.exit(targets.every(([, pass]) => pass) ? 0 : 1);
