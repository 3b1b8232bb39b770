#!/usr/bin/env node
// `npm run bench:federation`: one author with 10,000 fediverse followers on 1,000 instances
// (docs/federation.md, docs/benchmarks.md). A stub fediverse on loopback (1,000 inbox servers, one
// port each, every request's HTTP signature verified with Fedify) receives the Create{Article} of
// one publish; one instance is down for the run and comes back at the end. It measures: the time
// from the publish until every live inbox has its Create, and until the down one has it after it
// came back (retried with backoff); the server's peak RSS; the cached post page's req/s while the
// deliveries run and at rest; the CPU time of the server, PostgreSQL and this script at rest and
// over the delivery. Needs Node >= 22 (Fedify) and a build (`npm run build`).
// BENCH_INSTANCES / BENCH_FOLLOWERS make it smaller.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import pg from 'pg';
import { freeLoopbackPort, serverNodeFlags, sleep } from './lib/process.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1000);
const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 10_000);
const log = (line) => process.stdout.write(`[bench-federation] ${line}\n`);

if (Number(process.versions.node.split('.')[0]) < 22) {
  log(`Node ${process.versions.node}: federation needs Node 22 or later (Fedify); run this with Node 24.`);
  process.exit(1);
}
const fedify = await import('@fedify/fedify');

// ---- the stub fediverse: INSTANCES inbox servers, each verifying every signature ----
// In this process by default (as the figures of docs/benchmarks.md were measured), or with
// BENCH_STUB_THREAD=1 in a worker thread of its own: the verifications then stop sharing an event
// loop with autocannon (the page figures' load generator).
async function startStub({ accepted, refuse }) {
  const documents = new Map();
  const baseLoader = fedify.getDocumentLoader({ allowPrivateAddress: true });
  const documentLoader = async (url) => {
    if (!documents.has(url)) documents.set(url, baseLoader(url));
    return documents.get(url);
  };
  async function inbox(req, res, port) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, String(value));
    const request = new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers, body });
    const key = await fedify.verifyRequest(request, { documentLoader, contextLoader: documentLoader }).catch(() => null);
    if (!key) {
      refuse();
      res.writeHead(401).end();
      return;
    }
    const activity = JSON.parse(body.toString('utf8'));
    if (activity.type === 'Create') accepted(port);
    res.writeHead(202).end();
  }
  const ports = [];
  const servers = new Map();
  /** An inbox server on `requested` (0: any free port); answers its port. */
  async function listen(requested) {
    let port = requested;
    const server = createServer((req, res) => void inbox(req, res, port).catch(() => res.writeHead(500).end()));
    server.keepAliveTimeout = 30_000;
    await new Promise((done, fail) => server.once('error', fail).listen(requested, '127.0.0.1', done));
    port = server.address().port;
    servers.set(port, server);
    return port;
  }
  // Every instance listens on a port of its own (held from the start: no port is handed out twice);
  // the first one is then stopped: it is the instance that is down, until it comes back on that port.
  for (let i = 0; i < INSTANCES; i += 1) ports.push(await listen(0));
  const downPort = ports[0];
  await new Promise((done) => servers.get(downPort).close(done));
  servers.delete(downPort);
  const close = async () => {
    for (const server of servers.values()) server.close();
  };
  return { ports, downPort, comeBack: listen, close };
}

const received = new Map(); // port -> Create count
let refused = 0;
const count = { accepted: (port) => received.set(port, (received.get(port) ?? 0) + 1), refuse: () => (refused += 1) };
if (!isMainThread) {
  const stub = await startStub({
    accepted: (port) => parentPort.postMessage({ type: 'accepted', port }),
    refuse: () => parentPort.postMessage({ type: 'refused' }),
  });
  parentPort.on('message', async (message) => {
    if (message.type === 'come-back') parentPort.postMessage({ type: 'back', port: await stub.comeBack(message.port) });
  });
  parentPort.postMessage({ type: 'ready', ports: stub.ports, downPort: stub.downPort });
  await new Promise(() => {}); // serves until terminated
}
let stub;
if (process.env.BENCH_STUB_THREAD === '1') {
  const worker = new Worker(new URL(import.meta.url));
  const waiting = new Map();
  worker.on('message', (message) => {
    if (message.type === 'accepted') count.accepted(message.port);
    else if (message.type === 'refused') count.refuse();
    else waiting.get(message.type)?.(message);
  });
  const answer = (type) => new Promise((done) => waiting.set(type, done));
  const { ports, downPort } = await answer('ready');
  stub = {
    ports,
    downPort,
    comeBack: (port) => {
      const back = answer('back');
      worker.postMessage({ type: 'come-back', port });
      return back;
    },
    close: () => worker.terminate(),
  };
} else stub = await startStub(count);
const { ports, downPort } = stub;
log(
  `${INSTANCES - 1} stub instances listening on loopback (one down: 127.0.0.1:${downPort})${process.env.BENCH_STUB_THREAD === '1' ? ', in a worker thread' : ''}`,
);

// ---- Inkwell ----
const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-bench-fed-'));
chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as its own OS user when started by root
const port = await freeLoopbackPort();
const base = `http://127.0.0.1:${port}`;
const ADMIN_EMAIL = 'bench-admin@inkwell.test';
const ADMIN_PASSWORD = 'bench-federation-password';
// The server runs with the Node flags of `npm start` (package.json), as the other benchmarks do.
const NODE_FLAGS = serverNodeFlags(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
const server = spawn(process.execPath, [...NODE_FLAGS, 'dist/backend/src/main.js'], {
  cwd: ROOT,
  env: {
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    THROTTLE_DISABLED: '1',
    FEDERATION_ALLOW_PRIVATE: '1',
    JOB_RETRY_DELAY_SECONDS: '2',
    JOB_RETRY_LIMIT: '10',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
/** CPU seconds so far (user + system, from /proc) of the server, of the embedded PostgreSQL (its postmaster, its live backends and the ones it reaped) and of this script. */
const TICKS = 100; // USER_HZ
function procTimes(pid, withChildren = false) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12]) + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0)) / TICKS;
  } catch {
    return 0;
  }
}
function postgresTimes() {
  let postmaster;
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (
        postmaster === undefined &&
        readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(dataDir) &&
        readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('postgres')
      )
        postmaster = entry;
      parents.set(entry, readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
    } catch {
      // gone
    }
  }
  if (!postmaster) return 0;
  let total = procTimes(postmaster, true);
  for (const [pid, parent] of parents) if (parent === postmaster) total += procTimes(pid);
  return total;
}
const cpuNow = () => ({ server: procTimes(server.pid), postgres: postgresTimes(), script: process.cpuUsage() });
const cpuSince = (start) => {
  const now = cpuNow();
  const script = process.cpuUsage(start.script);
  return { server: now.server - start.server, postgres: now.postgres - start.postgres, script: (script.user + script.system) / 1e6 };
};
const cpuText = (spent) => `${spent.server.toFixed(1)} / ${spent.postgres.toFixed(1)} / ${spent.script.toFixed(1)}`;
let rssMax = 0;
let rssMaxAt = 0; // when the peak was sampled (Date.now())
const rssTimer = setInterval(() => {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0);
    if (kb * 1024 > rssMax) [rssMax, rssMaxAt] = [kb * 1024, Date.now()];
  } catch {
    // not started yet, or gone
  }
}, 100);
const stop = async () => {
  clearInterval(rssTimer);
  server.kill('SIGTERM');
  await new Promise((done) => server.once('exit', done));
  await stub.close();
  rmSync(dataDir, { recursive: true, force: true });
};
try {
  for (let tries = 0; ; tries += 1) {
    const up = await fetch(`${base}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (tries > 600) throw new Error('the server did not start');
    await sleep(200);
  }
  const login = await (
    await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    })
  ).json();
  const auth = { authorization: `Bearer ${login.data.accessToken}`, 'content-type': 'application/json' };
  const profile = (await (await fetch(`${base}/api/v1/users/profile`, { headers: auth })).json()).data;
  const publish = async (title) => {
    const res = await fetch(`${base}/api/v1/blog/posts`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title, content: `${title}\n\n${'Words of the post. '.repeat(200)}`, status: 'PUBLISHED' }),
    });
    if (res.status !== 201) throw new Error(`publish: ${res.status} ${await res.text()}`);
    return (await res.json()).data;
  };
  // The page measured: published before any follower exists, then cached.
  const page = await publish('The cached page');
  for (let i = 0; i < 3; i += 1) await (await fetch(`${base}/blog/${page.slug}`)).arrayBuffer();

  // The followers: FOLLOWERS remote actors on INSTANCES servers, each with its shared inbox.
  const { runningEmbeddedPostgres } = await import(join(ROOT, 'dist/backend/src/database/embedded-postgres.js'));
  const running = runningEmbeddedPostgres(dataDir);
  const db = new pg.Client({ connectionString: running.url.replace('/postgres', '/inkwell') });
  await db.connect();
  await db.query(
    `INSERT INTO federation_remote_actors (uri, host, inbox, shared_inbox, handle, name)
     SELECT 'http://127.0.0.1:' || p.port || '/users/u' || n, '127.0.0.1:' || p.port,
            'http://127.0.0.1:' || p.port || '/users/u' || n || '/inbox', 'http://127.0.0.1:' || p.port || '/inbox',
            '@u' || n || '@127.0.0.1:' || p.port, 'Reader ' || n
       FROM generate_series(0, $1::int - 1) AS n
       JOIN unnest($2::int[]) WITH ORDINALITY AS p(port, i) ON p.i = (n % $3::int) + 1`,
    [FOLLOWERS, ports, INSTANCES],
  );
  await db.query(`INSERT INTO federation_followers (actor, remote_actor_id) SELECT $1, id FROM federation_remote_actors`, [
    String(profile.id),
  ]);
  const slug = (await db.query(`SELECT slug FROM users WHERE id = $1`, [profile.id])).rows[0].slug;
  log(`${FOLLOWERS} followers of @${slug} on ${INSTANCES} instances seeded; node ${NODE_FLAGS.join(' ')}`);

  const cannon = (seconds) =>
    new Promise((done, fail) =>
      autocannon({ url: `${base}/blog/${page.slug}`, connections: 16, duration: seconds }, (error, result) =>
        error ? fail(error) : done(result.requests.average),
      ),
    );
  const idleCpu = cpuNow();
  const idle = await cannon(5);
  const idleSpent = cpuSince(idleCpu);
  const rssIdle = rssMax;

  // The page is measured in 3 s windows from the publish until every live inbox has its Create
  // (the last window may end after it): their mean is the 'during' figure.
  const live = INSTANCES - 1;
  const started = Date.now();
  const deliveryCpu = cpuNow();
  let delivering = true;
  const windows = [];
  const during = (async () => {
    do windows.push(await cannon(3));
    while (delivering);
  })();
  const post = await publish('Delivered to ten thousand followers');
  const publishMs = Date.now() - started;
  let allLiveMs;
  let deliverySpent;
  try {
    for (;;) {
      const count = [...received.keys()].filter((p) => p !== downPort).length;
      if (count >= live) {
        allLiveMs = Date.now() - started;
        deliverySpent = cpuSince(deliveryCpu);
        break;
      }
      if (Date.now() - started > 600_000) throw new Error(`only ${count} of ${live} live inboxes got the Create`);
      await sleep(50);
    }
  } finally {
    delivering = false;
  }
  await during;
  const duringRps = windows.reduce((sum, rps) => sum + rps, 0) / windows.length;
  const failed = (await db.query(`SELECT count(*)::int AS n FROM federation_deliveries WHERE status = 'FAILED'`)).rows[0].n;
  log(`every live inbox has its Create; the down one has failed ${failed} time(s) so far: it comes back`);
  await stub.comeBack(downPort);
  const back = Date.now();
  while (!received.has(downPort)) {
    if (Date.now() - back > 300_000) throw new Error('the down instance never got its Create');
    await sleep(50);
  }
  const recoveredMs = Date.now() - back;
  const deliveries = (
    await db.query(`SELECT status, count(*)::int AS n, max(attempts) AS attempts FROM federation_deliveries GROUP BY status`)
  ).rows;
  const twice = [...received.values()].filter((n) => n > 1).length;
  await db.end();
  const rows = [
    ['followers / instances (shared inboxes)', `${FOLLOWERS} / ${INSTANCES}`],
    ['publish request (ms)', publishMs],
    [`every live inbox (${live}) has its signed Create (s)`, (allLiveMs / 1000).toFixed(1)],
    ['down instance: delivered after it came back (s)', (recoveredMs / 1000).toFixed(1)],
    ['inboxes that got the Create twice', twice],
    ['requests the stub refused (bad signature)', refused],
    ['deliveries by status', deliveries.map((row) => `${row.status} ${row.n} (max attempts ${row.attempts})`).join(', ')],
    [
      'server RSS before the publish / max (MB), when the max was sampled',
      `${(rssIdle / 1048576).toFixed(0)} / ${(rssMax / 1048576).toFixed(0)}, ${rssMaxAt < started ? 'before the publish' : `${((rssMaxAt - started) / 1000).toFixed(1)} s after the publish`}`,
    ],
    ['cached post page req/s, idle', idle.toFixed(0)],
    ['CPU s over the idle 5 s: server / PostgreSQL / this script (autocannon, stub)', cpuText(idleSpent)],
    [`CPU s from the publish to the last live inbox: server / PostgreSQL / this script`, cpuText(deliverySpent)],
    [
      `cached post page req/s, during delivery (${windows.length} windows of 3 s)`,
      `${duringRps.toFixed(0)} (windows ${windows.map((rps) => rps.toFixed(0)).join(', ')}); idle / during x${(idle / duringRps).toFixed(2)}`,
    ],
  ];
  log(`post ${post.slug}`);
  for (const [name, value] of rows) process.stdout.write(`| ${name} | ${value} |\n`);
} finally {
  await stop();
}
