#!/usr/bin/env node
// `npm run chaos [-- --fuzz-runs N] [--keep]`: faults a real deployment meets, measured on the
// built server with the embedded PostgreSQL, on a fresh temporary DATA_DIR with demo data:
//   1. kill -9 of Node under 4 parallel writers: acknowledged writes lost (target 0), and the
//      next start comes up healthy by itself (the orphan postmaster is stopped);
//   2. SIGTERM to the server's process group with 20 avatar uploads in flight and 30 requests
//      written just before it: all answered normally (20 of 20, 30 of 30); then a kept-alive
//      connection's next request gets 503 and a new connection is refused; exit code 0,
//      PostgreSQL stopped after the drain;
//   3. kill -9 of the postmaster under load: no answer but 503 while it is away, none slower than
//      the 3 s connect timeout, healthy again within 10 s without an app restart;
//   4. kill -9 of Node during a burst of 200 replies to one comment: after the restart every reply
//      that exists has its notification, and each notification is e-mailed exactly once (counted
//      in a local SMTP capture by the Message-ID, which names the notification);
//   5. the OpenAPI fuzz run (`npm run fuzz`): requests and 5xx (targets >= 5,000 and 0);
//   6. the server is down (kill -9) when a scheduled post falls due: after the restart it is
//      public within 30 s, with publishedAt = its scheduled time (`--only scheduling` runs this alone;
//      `--only sigterm` runs scenario 2 alone);
//   7. a webhook receiver down for 2 minutes while events happen, then up: every event delivered,
//      none twice (counted by X-Inkwell-Delivery; `--only webhooks` runs this alone);
//   8. kill -9 of Node during a newsletter send to 3,000 subscribers (seeded by SQL) of author-1:
//      after the restart every subscriber has exactly one e-mail of the post in the capture
//      (counted by the Message-ID, which names post and subscriber; `--only newsletter` runs this alone).
// Prints a table of figures with PASS/FAIL and exits 1 when a target fails. Needs `npm run build`.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startMailCapture } from './mail-capture.mjs';
import { freeLoopbackPort, serverNodeFlags, sleep } from './lib/process.mjs';
import { connectDataDir, deliveryStates, seedSubscribers } from './lib/newsletter-load.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = join(ROOT, 'dist', 'backend', 'src', 'main.js');
const NODE_FLAGS = serverNodeFlags(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
const ADMIN = { email: 'admin@chaos.inkwell.test', password: 'chaos-admin-password-2026' };
const AUTHOR_PASSWORD = 'Demo-pass-2026!';
const author = (n) => `author-${n}@demo.inkwell.test`;

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const FUZZ_RUNS = Number(option('--fuzz-runs', '5000'));
const KEEP = args.includes('--keep');
const ONLY = option('--only', undefined);

const log = (message) => process.stdout.write(`[chaos] ${message}\n`);
const rows = [];
const record = (scenario, figure, value, target, pass) => rows.push({ scenario, figure, value: String(value), target, pass });

if (!existsSync(SERVER_ENTRY)) {
  log(`${SERVER_ENTRY} is missing: run npm run build first`);
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-chaos-'));
chmodSync(dataDir, 0o755); // the postgres OS user (when run as root) must traverse it
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
  // Scenario 2 measures the drain of 20 admitted uploads: the decode queue (2 + 8 by default)
  // would answer the rest 503 + Retry-After at once, which is right but not what it measures.
  IMAGE_DECODE_QUEUE: '20',
};
for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL']) delete env[name];
// Notification e-mails go to a local capture (scenario 4); a job whose instance was killed runs
// again after 15 s instead of the default 2 minutes.
const mailCapture = await startMailCapture();
Object.assign(env, { SMTP_URL: mailCapture.smtpUrl, JOB_EXPIRE_SECONDS: '15', JOB_RETRY_DELAY_SECONDS: '1' });
// Scenario 7: its receiver listens on loopback; retries 5 s, 10 s, 20 s, ... apart (30 s by default).
Object.assign(env, { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_BASE_MS: '5000' });

// ---------------------------------------------------------------------------------------------
// The server: started in its own process group, as a service manager or a terminal would.

let server;
function startServer() {
  const child = spawn(process.execPath, [...NODE_FLAGS, SERVER_ENTRY], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => (output = (output + chunk.toString()).slice(-400_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal })));
  server = { child, pid: child.pid, exited, output: () => output };
  return server;
}

async function waitHealthy(timeoutMs) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const status = await fetch(`${base}/api/v1/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return (Date.now() - started) / 1000;
    await sleep(100);
  }
  return undefined;
}

async function stopServer() {
  if (!server) return;
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([server.exited, sleep(40_000)]);
}

const api = async (method, path, { token, body, timeoutMs = 10_000 } = {}) => {
  const started = Date.now();
  try {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const json = await response.json().catch(() => undefined);
    return { status: response.status, json, ms: Date.now() - started, headers: response.headers };
  } catch (error) {
    return { status: 0, error: error.cause?.code ?? error.name, ms: Date.now() - started };
  }
};

async function login(email, password, timeoutMs = 10_000) {
  const res = await api('POST', '/auth/login', { body: { email, password }, timeoutMs });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${res.json?.message ?? res.error}`);
  return res.json.data.accessToken;
}

function postmasterPid() {
  try {
    return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}
/** A live process (a zombie waiting for its parent to reap it counts as gone). */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
async function seed() {
  log(`seeding demo data into ${dataDir}`);
  const seeded = spawnSync(process.execPath, ['-r', '@swc-node/register', 'backend/src/bin/seed-demo.ts', '--posts', '300'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  if (seeded.status !== 0) throw new Error(`seed:demo failed:\n${seeded.stdout}\n${seeded.stderr}`);
}

/** Every title of the author's own posts (My Posts, all pages). */
async function authorTitles(token) {
  const titles = new Set();
  for (let page = 0, pages = 1; page < pages; page++) {
    const res = await api('GET', `/blog/posts/author/my-posts?page=${page}&size=100`, { token });
    if (res.status !== 200) throw new Error(`my-posts: ${res.status} ${res.json?.message ?? res.error}`);
    for (const post of res.json.data.content) titles.add(post.title);
    pages = res.json.data.totalPages;
  }
  return titles;
}

/** 1. kill -9 of Node while 4 authors keep saving drafts; every acknowledged draft must be there after the restart. */
async function killNodeUnderWriters() {
  log('scenario 1: kill -9 of Node under 4 parallel writers');
  const tokens = await Promise.all([1, 2, 3, 4].map((n) => login(author(n), AUTHOR_PASSWORD)));
  const acknowledged = [];
  let unanswered = 0;
  let stop = false;
  const writer = async (w) => {
    for (let n = 0; !stop; n++) {
      const title = `Chaos draft ${w}-${n} ${Date.now()}`;
      const res = await api('POST', '/blog/posts/author/create', {
        token: tokens[w],
        body: { title, content: `Body of ${title}. `.repeat(20) },
      });
      // A 201 whose body the kill cut off is still an acknowledgement: it is found by its title.
      if (res.status === 201) acknowledged.push({ w, id: res.json?.data?.id, title });
      else if (res.status === 0) {
        unanswered++;
        return;
      }
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  await sleep(3_000);
  const pgBefore = postmasterPid();
  process.kill(server.pid, 'SIGKILL');
  await server.exited;
  stop = true;
  await Promise.all(writers);
  log(
    `  killed Node with ${acknowledged.length} acknowledged drafts (${unanswered} writes cut off unanswered); postmaster ${pgBefore} left ${alive(pgBefore) ? 'running' : 'stopped'}`,
  );

  startServer();
  const healthyAfter = await waitHealthy(60_000);
  const restarted = healthyAfter !== undefined;
  record(
    'kill -9 Node, 4 writers',
    'restart: healthy without a manual step',
    restarted ? `yes, in ${healthyAfter.toFixed(1)} s` : `no: ${server.output().slice(-400)}`,
    'healthy',
    restarted,
  );
  if (!restarted) return false;
  const again = await Promise.all([1, 2, 3, 4].map((n) => login(author(n), AUTHOR_PASSWORD)));
  let lost = 0;
  for (const draft of acknowledged) {
    if (draft.id === undefined) {
      if (!(await authorTitles(again[draft.w])).has(draft.title)) lost++;
      continue;
    }
    const res = await api('GET', `/blog/posts/${draft.id}`, { token: again[draft.w] });
    if (res.status !== 200 || res.json.data.title !== draft.title) lost++;
  }
  record(
    'kill -9 Node, 4 writers',
    'acknowledged writes lost',
    `${lost} of ${acknowledged.length}`,
    '0',
    lost === 0 && acknowledged.length > 0,
  );
  return true;
}

/** Sends one multipart upload over `agent`; once the body is sent, resolves with `{ answered }`, a promise of the status. */
function upload(agent, token, image) {
  const boundary = `----chaos${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((sent) => {
    const answered = new Promise((done) => {
      const req = httpRequest(`${base}/api/v1/users/avatar`, {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + image.length + tail.length,
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode));
      });
      req.on('error', (error) => done(`error ${error.code}`));
      req.on('finish', () => sent({ answered }));
      req.end(Buffer.concat([head, image, tail]));
    });
  });
}

/** A new connection (open when this resolves) for one GET of `path`: `send()` writes it, `status` is its answer's status. */
async function rawRequest(path) {
  const socket = await new Promise((done, fail) => {
    const opened = connect(port, '127.0.0.1', () => done(opened));
    opened.once('error', fail);
  });
  let head = '';
  const status = new Promise((done) => {
    socket.on('data', (chunk) => (head += head.length < 64 ? chunk.toString('latin1') : ''));
    socket.on('close', () => done(Number(head.split(' ')[1]) || `closed: ${head.slice(0, 40) || 'nothing'}`));
    socket.on('error', () => undefined);
  });
  return { status, send: () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`) };
}

function getOver(agent, path) {
  return new Promise((done) => {
    const req = httpRequest(`${base}${path}`, { agent, timeout: 2_000 }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode));
    });
    req.on('error', (error) => done(`error ${error.code}`));
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.end();
  });
}

/** 2. SIGTERM to the process group with 20 uploads in flight. */
async function sigtermWithUploadsInFlight() {
  log('scenario 2: SIGTERM to the process group with 20 avatar uploads in flight');
  const tokens = [];
  for (let n = 1; n <= 20; n++) tokens.push(await login(author(n), AUTHOR_PASSWORD));
  // A photo-sized JPEG of noise: sharp needs a while for each, so all 20 are surely in flight.
  const image = await sharp(Buffer.from(Array.from({ length: 1200 * 900 * 3 }, () => Math.floor(Math.random() * 256))), {
    raw: { width: 1200, height: 900, channels: 3 },
  })
    .resize(3600, 2700)
    .jpeg({ quality: 92 })
    .toBuffer();
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  // Open the connections first: these are requests a server has accepted, not ones still queued.
  await Promise.all(Array.from({ length: 21 }, () => getOver(agent, '/api/v1/health')));
  let answeredEarly = 0;
  const answers = (await Promise.all(tokens.map((token) => upload(agent, token, image)))).map(({ answered }) => answered);
  for (const answer of answers) void answer.then(() => answeredEarly++);
  await sleep(20);
  const inFlightAtSignal = answers.length - answeredEarly;
  // 30 more requests on new connections, written just before the signal: most are still unread
  // when the server takes it (pages, the tag list, health).
  const lastMoment = await Promise.all(
    Array.from({ length: 30 }, (_, i) => rawRequest(i % 3 === 0 ? '/blog' : i % 3 === 1 ? '/api/v1/blog/tags' : '/api/v1/health')),
  );
  const pg = postmasterPid();
  const signalled = Date.now();
  for (const request of lastMoment) request.send();
  process.kill(-server.pid, 'SIGTERM');
  // Once the server has taken in what it had received (it says so), a kept-alive connection's
  // next request gets 503 and a new connection is refused.
  for (const until = Date.now() + 5_000; !server.output().includes('no longer accepting connections') && Date.now() < until;)
    await sleep(5);
  const healthAfter = await getOver(agent, '/api/v1/health');
  // On a connection of its own (agent: false): fetch would reuse a connection its pool kept alive
  // from the sign-ins above, and that is the kept-alive case (503), not a new connection.
  const newConnection = await getOver(false, '/api/v1/health').then((status) =>
    status === 'error ECONNREFUSED' ? 'refused' : String(status),
  );
  const lastStatuses = await Promise.all(lastMoment.map((request) => request.status));
  const statuses = await Promise.all(answers);
  const { code, signal } = await server.exited;
  const stoppedAfter = (Date.now() - signalled) / 1000;
  const ok = statuses.filter((s) => s === 200).length;
  record(
    'SIGTERM to the group',
    'in-flight uploads completed',
    `${ok} of ${statuses.length}, ${inFlightAtSignal} still unanswered at the signal (${(image.length / 1e6).toFixed(1)} MB each) (${statuses.filter((s) => s !== 200).join(', ') || 'all 200'})`,
    '20 of 20',
    ok === 20,
  );
  const lastOk = lastStatuses.filter((status) => status === 200).length;
  record(
    'SIGTERM to the group',
    'requests written just before the signal answered',
    `${lastOk} of 30 (${lastStatuses.filter((s) => s !== 200).join(', ') || 'all 200'})`,
    '30 of 30',
    lastOk === 30,
  );
  record('SIGTERM to the group', "a kept-alive connection's next request", healthAfter, '503', healthAfter === 503);
  record('SIGTERM to the group', 'a new connection after the signal', newConnection, 'refused', newConnection === 'refused');
  record(
    'SIGTERM to the group',
    'exit code; PostgreSQL after exit',
    `${code ?? signal}; ${pg && alive(pg) ? 'still running' : 'stopped'} (exit ${stoppedAfter.toFixed(1)} s after the signal)`,
    '0; stopped',
    code === 0 && !(pg && alive(pg)),
  );
  agent.destroy();
  server = undefined;
}

/** 3. kill -9 of the postmaster under load. */
async function killPostmasterUnderLoad() {
  log('scenario 3: kill -9 of the postmaster under load');
  startServer();
  const up = await waitHealthy(60_000);
  if (up === undefined) {
    record('kill -9 postmaster', 'server start', 'failed', 'healthy', false);
    return;
  }
  const token = await login(author(1), AUTHOR_PASSWORD);
  const statuses = new Map();
  const samples = [];
  let slowest = 0;
  let stop = false;
  let page = 0;
  // Reads that need the database each time: the session check, an author's own list, deep public pages (not in the 5 s cache).
  const paths = () => [
    `/users/profile`,
    `/blog/posts/author/my-posts?page=0&size=5`,
    `/blog/posts/public?page=${(page = (page + 1) % 25)}&size=7`,
  ];
  const loop = async () => {
    while (!stop) {
      for (const path of paths()) {
        const res = await api('GET', path, { token, timeoutMs: 15_000 });
        const key = res.status === 503 && res.headers?.get('retry-after') ? '503+Retry-After' : String(res.status || res.error);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (!['200', '503+Retry-After'].includes(key) && samples.length < 5) samples.push(`${path} -> ${key} ${res.json?.message ?? ''}`);
        slowest = Math.max(slowest, res.ms);
      }
    }
  };
  const loops = [0, 1, 2, 3].map(loop);
  await sleep(2_000);
  const pg = postmasterPid();
  process.kill(pg, 'SIGKILL');
  const killed = Date.now();
  let recovered;
  while (Date.now() - killed < 30_000) {
    await sleep(100);
    if ((await api('GET', '/health', { timeoutMs: 5_000 })).status === 200) {
      recovered = (Date.now() - killed) / 1000;
      break;
    }
  }
  await sleep(2_000);
  stop = true;
  await Promise.all(loops);
  const bad = [...statuses].filter(([key]) => !['200', '503+Retry-After'].includes(key)).reduce((sum, [, n]) => sum + n, 0);
  const summary = [...statuses].map(([key, n]) => `${key}: ${n}`).join(', ');
  record('kill -9 postmaster', 'answers during the outage', summary, 'only 200 and 503', bad === 0);
  for (const sample of samples) log(`  unexpected: ${sample}`);
  if (process.env.CHAOS_DEBUG) log(server.output());
  record('kill -9 postmaster', 'slowest answer', `${(slowest / 1000).toFixed(2)} s`, '<= 3 s (connect timeout) + margin', slowest <= 3_500);
  record(
    'kill -9 postmaster',
    'healthy again after',
    recovered === undefined
      ? 'not within 30 s'
      : `${recovered.toFixed(1)} s (postmaster ${pg} -> ${postmasterPid()}, same app pid ${server.pid})`,
    '<= 10 s',
    recovered !== undefined && recovered <= 10,
  );
  await stopServer();
  server = undefined;
}

/** 4. kill -9 of Node during a burst of 200 replies: every notification e-mailed exactly once after the restart. */
async function killNodeDuringReplies() {
  log('scenario 4: kill -9 of Node during a burst of 200 replies (notification e-mails)');
  startServer();
  if ((await waitHealthy(60_000)) === undefined) {
    record('kill -9 Node, 200 replies', 'server start', 'failed', 'healthy', false);
    return;
  }
  const REPLIES = 200;
  const ownerEmail = author(2);
  const owner = await login(ownerEmail, AUTHOR_PASSWORD, 30_000);
  const postId = (await api('GET', '/blog/posts/public?page=0&size=1')).json.data.content[0].id;
  const parent = await api('POST', '/comments', { token: owner, body: { postId, content: 'Chaos: reply to me' } });
  if (parent.status !== 201) throw new Error(`parent comment: ${parent.status} ${parent.json?.message}`);
  const parentId = parent.json.data.id;
  // One sign-in at a time (each hashes a password): a loaded machine answers them all.
  const signIn = async () => {
    const tokens = [];
    for (const n of [3, 4, 5, 6]) tokens.push(await login(author(n), AUTHOR_PASSWORD, 30_000));
    return tokens;
  };
  const repliers = await signIn();
  let next = 0;
  let acknowledged = 0;
  let unanswered = 0;
  let killed = false;
  const burst = async (w) => {
    while (next < REPLIES && !killed) {
      const n = next++;
      const res = await api('POST', '/comments', { token: repliers[w], body: { postId, content: `Chaos reply ${n}`, parentId } });
      if (res.status === 201) acknowledged++;
      else if (res.status === 0) {
        unanswered++;
        return;
      }
    }
  };
  let workers = repliers.map((_, w) => burst(w));
  while (acknowledged < REPLIES / 2 && next < REPLIES) await sleep(5);
  process.kill(server.pid, 'SIGKILL');
  await server.exited;
  killed = true;
  await Promise.all(workers);
  log(`  killed Node after ${acknowledged} acknowledged replies (${unanswered} cut off unanswered)`);
  startServer();
  if ((await waitHealthy(60_000)) === undefined) {
    record('kill -9 Node, 200 replies', 'restart', `failed: ${server.output().slice(-400)}`, 'healthy', false);
    return;
  }
  // The rest of the burst, on the restarted server.
  killed = false;
  repliers.splice(0, repliers.length, ...(await signIn()));
  workers = repliers.map((_, w) => burst(w));
  await Promise.all(workers);

  // What exists: the replies, and the owner's reply notifications.
  const ownerAgain = await login(ownerEmail, AUTHOR_PASSWORD, 30_000);
  const replies = (await api('GET', `/comments/${parentId}/replies`)).json.data;
  const replyIds = new Set(replies.map((reply) => reply.id));
  const notifications = new Map();
  for (let page = 0, pages = 1; page < pages; page++) {
    const res = await api('GET', `/notifications?page=${page}&size=100`, { token: ownerAgain });
    for (const n of res.json.data.content)
      if (n.type === 'COMMENT_REPLY' && replyIds.has(n.commentId)) notifications.set(n.id, n.commentId);
    pages = res.json.data.totalPages;
  }
  const mailsPer = () => {
    const counts = new Map();
    for (const message of mailCapture.messages) {
      const id = Number(/notification-(\d+)@/.exec(message.messageId ?? '')?.[1]);
      if (notifications.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };
  // Jobs cut off by the kill run again once they expire (15 s); wait for every e-mail, then as long
  // again for a late duplicate.
  const started = Date.now();
  while (mailsPer().size < notifications.size && Date.now() - started < 180_000) await sleep(500);
  const waited = (Date.now() - started) / 1000;
  await sleep(25_000);
  const counts = mailsPer();
  const once = [...notifications.keys()].filter((id) => counts.get(id) === 1).length;
  const twice = [...counts.values()].filter((n) => n > 1).length;
  const missing = notifications.size - counts.size;
  record(
    'kill -9 Node, 200 replies',
    'replies with their notification',
    `${notifications.size} of ${replyIds.size} (${acknowledged} acknowledged, ${unanswered} cut off)`,
    'all',
    notifications.size === replyIds.size && replyIds.size >= acknowledged,
  );
  record(
    'kill -9 Node, 200 replies',
    'notifications e-mailed exactly once',
    `${once} of ${notifications.size} (${twice} more than once, ${missing} never; waited ${waited.toFixed(1)} s after the burst, then 25 s for late copies)`,
    'all',
    once === notifications.size && notifications.size > 0,
  );
  await stopServer();
  server = undefined;
}

/** 6. Node is killed before a scheduled post's time and started again after it: the post is public within 30 s of the restart. */
async function downAtScheduledTime() {
  log('scenario 6: the server is down at a scheduled time');
  startServer();
  if ((await waitHealthy(60_000)) === undefined) {
    record('down at a scheduled time', 'server start', 'failed', 'healthy', false);
    return;
  }
  const admin = await login(ADMIN.email, ADMIN.password, 30_000);
  const writer = await login(author(1), AUTHOR_PASSWORD, 30_000);
  const title = `Chaos scheduled ${Date.now()}`;
  const created = await api('POST', '/blog/posts/author/create', { token: writer, body: { title, content: `Body of ${title}.` } });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.json?.message}`);
  const { id, slug } = created.json.data;
  await api('POST', `/blog/posts/author/${id}/submit-for-review`, { token: writer });
  // The earliest time the API takes is a minute ahead.
  const publishAt = new Date(Date.now() + 65_000);
  const approved = await api('PUT', `/blog/posts/admin/${id}/review`, {
    token: admin,
    body: { status: 'APPROVED', publishAt: publishAt.toISOString() },
  });
  if (approved.status !== 200) throw new Error(`approve with publishAt: ${approved.status} ${approved.json?.message}`);
  const hiddenBefore = (await api('GET', `/blog/posts/public/${slug}`)).status === 404;

  process.kill(server.pid, 'SIGKILL');
  await server.exited;
  log(`  killed Node; post ${id} is due at ${publishAt.toISOString()}, waiting until 10 s past it`);
  while (Date.now() < publishAt.getTime() + 10_000) await sleep(500);

  const restartedAt = Date.now();
  startServer();
  const healthyAfter = await waitHealthy(60_000);
  let publicAfter;
  let answer;
  while (Date.now() - restartedAt < 60_000) {
    answer = await api('GET', `/blog/posts/public/${slug}`);
    if (answer.status === 200) {
      publicAfter = (Date.now() - restartedAt) / 1000;
      break;
    }
    await sleep(200);
  }
  const publishedAt = answer?.json?.data?.publishedAt;
  log(
    `  restarted: healthy after ${healthyAfter?.toFixed(1) ?? 'never'} s, the post public after ${publicAfter?.toFixed(1) ?? 'never'} s (publishedAt ${publishedAt})`,
  );
  record('down at a scheduled time', 'hidden before its time', hiddenBefore ? 'yes (404)' : 'no', 'yes', hiddenBefore);
  record(
    'down at a scheduled time',
    'public after the restart',
    publicAfter === undefined
      ? 'not within 60 s'
      : `${publicAfter.toFixed(1)} s after the start (healthy after ${healthyAfter?.toFixed(1)} s)`,
    '<= 30 s',
    publicAfter !== undefined && publicAfter <= 30,
  );
  record('down at a scheduled time', 'publishedAt', publishedAt ?? 'none', 'the scheduled time', publishedAt === publishAt.toISOString());
  await stopServer();
  server = undefined;
}

/** 7. A webhook receiver down for 2 minutes while events happen, then up: every event delivered, none twice. */
async function webhookReceiverDown() {
  log('scenario 7: a webhook receiver down for 2 minutes');
  const DOWN_MS = 120_000;
  const EVENTS = 40;
  if (!server) {
    startServer();
    if ((await waitHealthy(60_000)) === undefined) throw new Error(`the server did not become healthy:\n${server.output()}`);
  }
  const admin = await login(ADMIN.email, ADMIN.password, 30_000);
  const receiverPort = await freeLoopbackPort();
  const created = await api('POST', '/admin/webhooks', {
    token: admin,
    body: { url: `http://127.0.0.1:${receiverPort}/chaos`, events: ['tag.created'] },
  });
  if (created.status !== 201) throw new Error(`webhook: ${created.status} ${created.json?.message}`);
  const webhookId = created.json.data.id;
  // Nothing listens on the port yet: every attempt is refused, as with a receiver that is down.
  const downSince = Date.now();
  const prefix = `Chaos hook ${Date.now().toString(36)}`;
  for (let n = 0; n < EVENTS; n++) {
    const tag = await api('POST', '/blog/tags', { token: admin, body: { name: `${prefix} ${n}` } });
    if (tag.status !== 201) throw new Error(`tag: ${tag.status} ${tag.json?.message}`);
    // Spread over the first minute of the outage: some events wait their first retry, some their fourth.
    await sleep(60_000 / EVENTS);
  }
  while (Date.now() - downSince < DOWN_MS) await sleep(500);

  const received = [];
  const receiverServer = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ key: req.headers['x-inkwell-delivery'], name: JSON.parse(body).data?.name });
      res.end('ok');
    });
  });
  await new Promise((done) => receiverServer.listen(receiverPort, '127.0.0.1', done));
  const upAt = Date.now();
  log(`  receiver up after ${((upAt - downSince) / 1000).toFixed(0)} s; waiting for ${EVENTS} deliveries`);
  const names = () => new Set(received.map((hook) => hook.name).filter((name) => name?.startsWith(prefix)));
  // The longest wait between two tries in the outage is 80 s (5 s doubling): all arrive within it.
  while (names().size < EVENTS && Date.now() - upAt < 150_000) await sleep(500);
  const allAfter = (Date.now() - upAt) / 1000;
  // A little longer: a second copy would come now if any were coming.
  await sleep(15_000);
  await new Promise((done) => receiverServer.close(done));
  const keys = received.map((hook) => hook.key);
  const duplicates = keys.length - new Set(keys).size;
  const log100 = await api('GET', `/admin/webhooks/${webhookId}/attempts`, { token: admin });
  const failedAttempts = (log100.json?.data ?? []).filter((attempt) => !attempt.ok).length;
  log(
    `  ${names().size} of ${EVENTS} delivered ${allAfter.toFixed(1)} s after the receiver came up; ${received.length} requests, ${duplicates} duplicates; ${failedAttempts} failed attempts in the log`,
  );
  record(
    'webhook receiver down 2 min',
    'events delivered',
    `${names().size} of ${EVENTS} (all ${allAfter.toFixed(1)} s after it came up; ${failedAttempts} failed attempts logged)`,
    `${EVENTS} of ${EVENTS}`,
    names().size === EVENTS,
  );
  record('webhook receiver down 2 min', 'delivered twice', duplicates, '0', duplicates === 0 && received.length === EVENTS);
  await stopServer();
  server = undefined;
}

/** 5. The OpenAPI fuzz run, as `npm run fuzz` prints it. */
function fuzz() {
  if (FUZZ_RUNS <= 0) return;
  log(`scenario 5: npm run fuzz -- --runs ${FUZZ_RUNS}`);
  const run = spawnSync('npm', ['run', '--silent', 'fuzz', '--', '--runs', String(FUZZ_RUNS)], {
    cwd: ROOT,
    env: process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${run.stdout}\n${run.stderr}`;
  const requests = Number(/requests:\s*([\d,]+)/i.exec(output)?.[1]?.replace(/,/g, '') ?? NaN);
  const fives = Number(/5xx:\s*([\d,]+)/i.exec(output)?.[1]?.replace(/,/g, '') ?? NaN);
  record(
    'fuzz (OpenAPI, 4 roles)',
    'requests sent',
    Number.isNaN(requests) ? `unreadable (exit ${run.status})` : requests.toLocaleString('en-US'),
    '>= 5,000',
    requests >= 5_000,
  );
  record(
    'fuzz (OpenAPI, 4 roles)',
    '5xx answers',
    Number.isNaN(fives) ? `unreadable (exit ${run.status})` : fives,
    '0',
    fives === 0 && run.status === 0,
  );
  if (run.status !== 0) log(output.slice(-3_000));
}

/** 8. kill -9 of Node during a newsletter send: afterwards every subscriber has exactly one e-mail. */
async function killNodeDuringNewsletter() {
  const SUBSCRIBERS = 3_000;
  log(`scenario 8: kill -9 of Node during a newsletter send to ${SUBSCRIBERS} subscribers`);
  startServer();
  if ((await waitHealthy(90_000)) === undefined) {
    record('kill -9 Node, newsletter send', 'server start', 'failed', 'healthy', false);
    return;
  }
  let db = await connectDataDir(dataDir);
  const authorId = (await db.query(`SELECT id FROM users WHERE email = $1`, [author(1)])).rows[0].id;
  await seedSubscribers(db, { prefix: 'chaos-reader', count: SUBSCRIBERS, follows: [{ kind: 'author', targetId: authorId }] });
  const writer = await login(author(1), AUTHOR_PASSWORD, 30_000);
  const admin = await login(ADMIN.email, ADMIN.password, 30_000);
  const created = await api('POST', '/blog/posts/author/create', {
    token: writer,
    body: { title: `Chaos letter ${Date.now()}`, content: 'A post every follower gets exactly once, whatever happens.' },
  });
  const postId = created.json.data.id;
  await api('POST', `/blog/posts/author/${postId}/submit-for-review`, { token: writer });
  const ours = () => mailCapture.messages.filter((message) => (message.messageId ?? '').startsWith(`<newsletter-${postId}-`));
  const approved = await api('PUT', `/blog/posts/admin/${postId}/review`, { token: admin, body: { status: 'APPROVED' } });
  if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${approved.json?.message ?? ''}`);
  while (ours().length < SUBSCRIBERS / 3) await sleep(5);
  process.kill(server.pid, 'SIGKILL');
  await server.exited;
  const atKill = ours().length;
  log(`  killed Node after ${atKill} e-mails; starting again`);
  await db.end().catch(() => undefined);
  startServer();
  if ((await waitHealthy(60_000)) === undefined) {
    record('kill -9 Node, newsletter send', 'restart', `failed: ${server.output().slice(-400)}`, 'healthy', false);
    return;
  }
  db = await connectDataDir(dataDir);
  const started = Date.now();
  const distinct = () => new Set(ours().map((message) => message.messageId)).size;
  while (distinct() < SUBSCRIBERS && Date.now() - started < 300_000) await sleep(500);
  const waited = (Date.now() - started) / 1000;
  await sleep(20_000);
  const perSubscriber = new Map();
  for (const message of ours()) perSubscriber.set(message.messageId, (perSubscriber.get(message.messageId) ?? 0) + 1);
  const once = [...perSubscriber.values()].filter((n) => n === 1).length;
  const twice = [...perSubscriber.values()].filter((n) => n > 1).length;
  const states = await deliveryStates(db, postId);
  await db.end().catch(() => undefined);
  record(
    'kill -9 Node, newsletter send',
    'subscribers e-mailed exactly once',
    `${once} of ${SUBSCRIBERS} (${twice} more than once, ${SUBSCRIBERS - perSubscriber.size} never; killed after ${atKill}; all in ${waited.toFixed(1)} s after the restart, then 20 s for late copies; rows ${JSON.stringify(states)})`,
    'all',
    once === SUBSCRIBERS,
  );
  await stopServer();
  server = undefined;
}

// ---------------------------------------------------------------------------------------------
let failed = false;
try {
  await seed();
  if (ONLY === 'scheduling') await downAtScheduledTime();
  else if (ONLY === 'webhooks') await webhookReceiverDown();
  else if (ONLY === 'newsletter') await killNodeDuringNewsletter();
  else if (ONLY === 'sigterm') {
    startServer();
    if ((await waitHealthy(90_000)) === undefined) throw new Error(`the server did not become healthy:\n${server.output()}`);
    await sigtermWithUploadsInFlight();
  } else {
    startServer();
    if ((await waitHealthy(90_000)) === undefined) throw new Error(`the server did not become healthy:\n${server.output()}`);
    if (await killNodeUnderWriters()) await sigtermWithUploadsInFlight();
    await killPostmasterUnderLoad();
    await killNodeDuringReplies();
    await downAtScheduledTime();
    await webhookReceiverDown();
    await killNodeDuringNewsletter();
    fuzz();
  }
} catch (error) {
  failed = true;
  log(`aborted: ${error instanceof Error ? error.stack : String(error)}`);
  if (server) log(`server output:\n${server.output().slice(-4_000)}`);
} finally {
  await stopServer();
  const pg = postmasterPid();
  if (pg && alive(pg)) process.kill(pg, 'SIGQUIT');
  if (!KEEP) rmSync(dataDir, { recursive: true, force: true });
  await mailCapture.stop();
}

const table = [
  '| scenario | figure | measured | target | result |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.scenario} | ${r.figure} | ${r.value} | ${r.target} | ${r.pass ? 'PASS' : 'FAIL'} |`),
];
process.stdout.write(`\n${table.join('\n')}\n\n`);
if (failed || rows.some((r) => !r.pass)) process.exit(1);
