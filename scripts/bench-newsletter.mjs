// `npm run bench:newsletter [-- --subscribers N] [--kill K] [--dedup N] [--keep] [--profile DIR]`: the newsletter's
// send measured on the built server (npm run build first) with the Node flags of `npm start`, a
// fresh DATA_DIR (embedded PostgreSQL) and a local SMTP sink that accepts everything
// (scripts/lib/newsletter-load.mjs):
//   - dedup: N (default 1,000) subscribers following the publication, the author and the tag get
//     one e-mail each for a tagged post of that author;
//   - the send: N (default 100,000) subscribers of one author, seeded by SQL; one post published
//     (the admin's approval); the time from the approval's request until every e-mail is handed to
//     SMTP (the sink's last arrival), NEWSLETTER_RATE_PER_MINUTE unset (unlimited); the server's
//     RSS sampled every 250 ms (max); the anonymous cached post page's req/s (autocannon, 10 s,
//     10 connections) idle before and during the send, and their ratio;
//   - `--kill K`: kill -9 of the server K times during the send (at 1/(K+1), 2/(K+1)... of it),
//     each time started again on the same DATA_DIR (JOB_EXPIRE_SECONDS=15: a killed job runs
//     again 15 s later); then every recipient's e-mails are counted: delivered (distinct
//     Message-IDs) and copies received more than once.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectDataDir, deliveryStates, seedSubscribers, startCountingSink } from './lib/newsletter-load.mjs';
import { freeLoopbackPort, serverNodeFlags, sleep } from './lib/process.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = join(ROOT, 'dist', 'backend', 'src', 'main.js');
const NODE_FLAGS = serverNodeFlags(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const SUBSCRIBERS = Number(option('--subscribers', '100000'));
const KILLS = Number(option('--kill', '0'));
const DEDUP = Number(option('--dedup', '1000'));
const KEEP = args.includes('--keep');
// `--timeline`: the e-mails so far logged every second through the first 30 s of the send (else through the page's measurement).
const TIMELINE = args.includes('--timeline');
// `--profile DIR`: the server runs with --cpu-prof into DIR (one .cpuprofile per server process, written when it stops).
const PROFILE = option('--profile', '');
if (PROFILE) NODE_FLAGS.push('--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE)}`);
const ADMIN = { email: 'admin@bench.inkwell.test', password: 'bench-admin-password-2026' };
const log = (message) => process.stdout.write(`[bench:newsletter] ${message}\n`);

if (!existsSync(SERVER_ENTRY)) {
  log(`${SERVER_ENTRY} is missing: run npm run build first`);
  process.exit(1);
}

const sink = await startCountingSink();
const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-bench-newsletter-'));
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
  SMTP_URL: sink.url,
  JOB_EXPIRE_SECONDS: '15',
  JOB_RETRY_DELAY_SECONDS: '1',
};
for (const name of ['DATABASE_URL', 'REDIS_URL', 'NEWSLETTER_RATE_PER_MINUTE']) delete env[name];

let server;
function startServer() {
  const child = spawn(process.execPath, [...NODE_FLAGS, SERVER_ENTRY], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => (output = (output + chunk.toString()).slice(-100_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((done) => child.on('exit', done));
  server = { child, pid: child.pid, exited, output: () => output };
  return server;
}
async function waitHealthy(timeoutMs = 120_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const status = await fetch(`${base}/api/v1/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return (Date.now() - started) / 1000;
    await sleep(100);
  }
  throw new Error(`the server did not become healthy:\n${server.output()}`);
}
function rssMegabytes(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024 || 0;
  } catch {
    return 0;
  }
}
async function api(method, path, token, body) {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json().catch(() => undefined);
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${json?.message ?? ''}`);
  return json.data;
}
async function login() {
  return (await api('POST', '/auth/login', undefined, { email: ADMIN.email, password: ADMIN.password })).accessToken;
}
/** A post of the admin (the author here), tagged, up to PENDING_REVIEW; `approve()` publishes it. */
async function draft(token, title, tagSlug) {
  const content = [
    '## What the benchmark sends',
    '',
    'A post of ordinary length, with a heading, a list, a quote and a code block, so the e-mail is',
    'of the size a real one is (about 20 KB of HTML with its inline styles).',
    '',
    ...Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1}: ${'words of an ordinary paragraph '.repeat(8)}`),
    '',
    '> A quote from someone.',
    '',
    '```js',
    'const answer = 42;',
    '```',
  ].join('\n');
  const post = await api('POST', '/blog/posts/author/create', token, { title, content, tagSlugs: tagSlug ? [tagSlug] : [] });
  await api('POST', `/blog/posts/author/${post.id}/submit-for-review`, token);
  return { ...post, approve: () => api('PUT', `/blog/posts/admin/${post.id}/review`, token, { status: 'APPROVED' }) };
}
async function cannon(url, seconds = 10) {
  const result = await autocannon({ url, connections: 10, duration: seconds, headers: { accept: 'text/html' } });
  return { rps: result.requests.average, non2xx: result.non2xx, errors: result.errors };
}
async function waitFor(what, test, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`${what}: timed out`);
    await sleep(250);
  }
}

const rows = [];
let db;
try {
  log(`DATA_DIR ${dataDir}; SMTP sink ${sink.url}; node ${NODE_FLAGS.join(' ')}`);
  startServer();
  log(`server up after ${(await waitHealthy()).toFixed(1)} s`);
  db = await connectDataDir(dataDir);
  let token = await login();
  const adminId = (await db.query(`SELECT id FROM users WHERE email = $1`, [ADMIN.email])).rows[0].id;
  const tag = await api('POST', '/blog/tags', token, { name: `Bench letters ${Date.now()}` });

  // The page measured: a post published before any subscriber (its send has no recipients).
  const page = await draft(token, `Bench page ${Date.now()}`);
  await page.approve();
  const pageUrl = `${base}/blog/${page.slug}`;
  await cannon(pageUrl, 2);
  const idle = await cannon(pageUrl);
  log(`idle: ${idle.rps.toFixed(0)} req/s on ${pageUrl}`);

  // Dedup: DEDUP subscribers following the publication, the author and the tag.
  if (DEDUP) {
    await seedSubscribers(db, {
      prefix: 'dedup',
      count: DEDUP,
      follows: [
        { kind: 'publication', targetId: 0 },
        { kind: 'author', targetId: adminId },
        { kind: 'tag', targetId: tag.id },
      ],
    });
    const before = sink.received;
    const post = await draft(token, `Bench dedup ${Date.now()}`, tag.slug);
    await post.approve();
    await waitFor('the dedup send', async () => (await deliveryStates(db, post.id)).sent === DEDUP, 300_000);
    await sleep(1000);
    const got = [...sink.recipients.entries()].filter(([to]) => to.startsWith('dedup-'));
    const once = got.filter(([, n]) => n === 1).length;
    rows.push([
      'dedup',
      `${DEDUP} subscribers x (publication + author + tag)`,
      `${once} got exactly 1 (${sink.received - before} e-mails)`,
      once === DEDUP,
    ]);
    log(`dedup: ${once} of ${DEDUP} got exactly one e-mail; ${sink.received - before} e-mails`);
    await db.query(`DELETE FROM newsletter_subscribers WHERE email LIKE 'dedup-%'`);
    for (const [to] of got) sink.recipients.delete(to);
  }

  // The send.
  const seedStarted = Date.now();
  await seedSubscribers(db, { prefix: 'reader', count: SUBSCRIBERS, follows: [{ kind: 'author', targetId: adminId }] });
  log(`seeded ${SUBSCRIBERS} subscribers of the author in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);
  token = await login();
  const post = await draft(token, `Bench send ${Date.now()}`);
  const before = sink.received;
  const idsBefore = sink.counts.size;
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMegabytes(server.pid))), 250);
  const published = Date.now();
  await post.approve();
  log(`published post ${post.id}; sending to ${SUBSCRIBERS}`);
  // The send's first seconds, once a second: the e-mails so far and the post's send state.
  const timeline = setInterval(async () => {
    const state = (await db.query(`SELECT state FROM newsletter_post_sends WHERE post_id = $1`, [post.id]).catch(() => ({ rows: [] })))
      .rows[0]?.state;
    log(`  ${((Date.now() - published) / 1000).toFixed(1)} s: ${sink.received - before} e-mails, send ${state ?? '-'}`);
  }, 1000);
  let during;
  if (!KILLS) {
    await sleep(1500);
    during = await cannon(pageUrl);
    log(`during the send: ${during.rps.toFixed(0)} req/s (${sink.received - before} e-mails so far)`);
  }
  if (!TIMELINE) clearInterval(timeline);
  else setTimeout(() => clearInterval(timeline), 30_000);
  const kills = [];
  for (let k = 1; k <= KILLS; k++) {
    const at = Math.floor((SUBSCRIBERS * k) / (KILLS + 1));
    await waitFor(`${at} e-mails`, async () => sink.received - before >= at, 1_800_000);
    server.child.kill('SIGKILL');
    await server.exited;
    kills.push(sink.received - before);
    log(`kill -9 #${k} after ${sink.received - before} e-mails; starting again`);
    await db.end().catch(() => undefined);
    startServer();
    await waitHealthy();
    // The embedded PostgreSQL was started again too (another port).
    db = await connectDataDir(dataDir);
  }
  await waitFor(
    'every e-mail',
    async () => sink.counts.size - idsBefore >= SUBSCRIBERS && !(await deliveryStates(db, post.id)).queued,
    3_600_000,
  );
  const handedAt = sink.lastAt;
  await sleep(KILLS ? 20_000 : 2_000); // copies a killed job might still send
  clearInterval(sampler);
  const states = await deliveryStates(db, post.id);
  const seconds = (handedAt - published) / 1000;
  const duplicates = sink.duplicates();
  const distinct = sink.counts.size - idsBefore;
  rows.push(['send', 'subscribers (one author)', String(SUBSCRIBERS), true]);
  rows.push([
    'send',
    'publish → every e-mail handed to SMTP',
    `${seconds.toFixed(1)} s (${(SUBSCRIBERS / seconds).toFixed(0)} e-mails/s)${KILLS ? `, with ${KILLS} kill -9` : ''}`,
    true,
  ]);
  rows.push(['send', 'server RSS, max', `${rssMax.toFixed(0)} MB${KILLS ? ' (over the processes)' : ''}`, rssMax < 300]);
  if (during) {
    const ratio = idle.rps / during.rps;
    rows.push([
      'send',
      'cached post page req/s: idle / during the send',
      `${idle.rps.toFixed(0)} / ${during.rps.toFixed(0)} (x${ratio.toFixed(2)})`,
      ratio <= 2,
    ]);
  }
  rows.push(['send', 'delivered (distinct Message-IDs) / deliveries sent', `${distinct} / ${states.sent ?? 0}`, distinct === SUBSCRIBERS]);
  rows.push([
    'send',
    'received more than once',
    `${duplicates.ids} (${sink.received - before} e-mails received)${KILLS ? `; kills after ${kills.join(', ')} e-mails` : ''}`,
    duplicates.ids === 0,
  ]);
} finally {
  await db?.end().catch(() => undefined);
  if (server) {
    server.child.kill('SIGTERM');
    await Promise.race([server.exited, sleep(30_000)]);
  }
  await sink.close();
  if (!KEEP) rmSync(dataDir, { recursive: true, force: true });
}

process.stdout.write('\n| row | figure | measured | target met |\n|---|---|---|---|\n');
for (const [row, figure, value, ok] of rows) process.stdout.write(`| ${row} | ${figure} | ${value} | ${ok ? 'yes' : 'NO'} |\n`);
