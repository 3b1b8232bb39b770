#!/usr/bin/env node
// The upgrade test (docs/operations.md#upgrades): a data directory created and seeded by the
// PREVIOUS release, then this build started on it. The previous release is the last commit whose
// package.json version differs from this one's (the parent of the commit that set this version),
// checked out with `git worktree add` into a temporary folder, installed (npm ci) and built.
// It seeds a small demo set (npm run seed:demo), starts with a known administrator, uploads an
// image, stops. Then this build starts on the same DATA_DIR: the migrations apply, the posts,
// comments, users and images are all there, the administrator signs in with the old password, and
// public and signed-in pages render. Needs this checkout's build (npm run build) and full history.
//
//   node scripts/upgrade-test.mjs [--keep]      (--keep leaves the temporary folder for a look)
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));
const pg = require('pg');
const sharp = require('sharp');

const ADMIN_EMAIL = 'upgrade-admin@example.com';
const ADMIN_PASSWORD = 'Upgrade!Test1';
const keep = process.argv.includes('--keep');
const started = Date.now();
const say = (line) => console.log(`[upgrade-test ${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);

function git(...args) {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}
function versionAt(commit) {
  try {
    return JSON.parse(git('show', `${commit}:package.json`)).version;
  } catch {
    return undefined;
  }
}
function fail(message) {
  console.error(`upgrade test FAILED: ${message}`);
  process.exit(1);
}

/** The commit of the previous release: the parent of the newest commit that set this version. */
function previousRelease(current) {
  const changes = git('log', '--format=%H', '-G"version"', '--', 'package.json').split('\n').filter(Boolean);
  for (const commit of changes) {
    if (versionAt(commit) !== current) continue;
    let parent;
    try {
      parent = git('rev-parse', `${commit}^`);
    } catch {
      fail(
        `the commit before ${commit.slice(0, 10)} (which set version ${current}) is not in this clone: CI must run on a full clone (git fetch --unshallow)`,
      );
    }
    const before = versionAt(parent);
    if (before && before !== current) return { commit: parent, version: before };
  }
  fail(
    `no earlier release in this clone's history (no commit sets package.json's version to ${current} over another): a shallow clone? (git fetch --unshallow)`,
  );
}

function run(cwd, command, args, env = {}) {
  say(`${relative(ROOT, cwd) || '.'}: ${command} ${args.join(' ')}`);
  execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
}

const freePort = () =>
  new Promise((resolve) => {
    const server = require('node:net').createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Starts a built Inkwell (dist/backend/src/main.js of `cwd`) and waits for /api/v1/health. */
async function startServer(cwd, env, label) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(cwd, 'dist/backend/src/main.js')], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), LOG_LEVEL: 'warn', THROTTLE_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 120_000; Date.now() < until;) {
    if (child.exitCode !== null) fail(`${label} exited (${child.exitCode}) at start-up:\n${output}`);
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) {
        say(`${label} is up on ${base}`);
        return { base, child, output: () => output };
      }
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill('SIGKILL');
  fail(`${label} did not answer /api/v1/health within 120 s:\n${output}`);
}

async function stopServer(server) {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => (server.child.exitCode !== null ? resolve() : server.child.once('exit', resolve)));
}

async function signIn(base) {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  if (res.status !== 200) fail(`the administrator could not sign in (${res.status}): ${await res.text()}`);
  const body = await res.json();
  const cookies = res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
  return { token: body.data.accessToken, cookies };
}

/** Counts read straight from the embedded PostgreSQL of a running server (port in postmaster.pid). */
async function counts(dataDir) {
  const port = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const password = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).postgresPassword;
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'inkwell', password, database: 'inkwell' });
  await client.connect();
  try {
    const out = {};
    for (const table of ['users', 'posts', 'comments', 'tags', 'likes']) {
      out[table] = Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    }
    const published = (await client.query(`SELECT slug, title FROM posts WHERE status = 'PUBLISHED' ORDER BY id LIMIT 1`)).rows[0];
    const meta = (await client.query(`SELECT to_regclass('public.inkwell_meta') AS t`)).rows[0].t
      ? (await client.query(`SELECT value FROM inkwell_meta WHERE key = 'written_by'`)).rows[0]?.value
      : undefined;
    return { counts: out, published, writtenBy: meta };
  } finally {
    await client.end();
  }
}

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
}

async function expectPage(base, path, { cookies, contains } = {}) {
  const res = await fetch(`${base}${path}`, { headers: cookies ? { cookie: cookies } : {}, redirect: 'manual' });
  const text = await res.text();
  if (res.status !== 200) fail(`GET ${path} answered ${res.status}`);
  if (contains && !text.includes(contains)) fail(`GET ${path} does not show "${contains}"`);
  say(`GET ${path}: 200${contains ? `, shows "${contains}"` : ''}`);
}

async function main() {
  const current = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  if (!existsSync(join(ROOT, 'dist/backend/src/main.js')) || !existsSync(join(ROOT, 'frontend/dist')))
    fail('build this checkout first (npm run build)');
  const previous = previousRelease(current);
  say(`this is ${current}; the previous release is ${previous.version} at ${previous.commit.slice(0, 10)}`);

  git('worktree', 'prune'); // a run killed midway leaves a worktree record behind
  const scratch = mkdtempSync(join(tmpdir(), 'inkwell-upgrade-'));
  chmodSync(scratch, 0o755);
  const tree = join(scratch, 'previous');
  const dataDir = join(scratch, 'data');
  git('worktree', 'add', '--detach', tree, previous.commit);
  try {
    run(tree, 'npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
    run(tree, 'npm', ['run', 'build']);
    const env = { DATA_DIR: dataDir, ADMIN_EMAIL, ADMIN_PASSWORD };

    // The previous release creates and seeds the data directory.
    run(tree, 'npm', ['run', 'seed:demo', '--', '--posts', '40', '--readers', '10', '--likes', '60', '--comments', '50'], env);
    const old = await startServer(tree, env, `Inkwell ${previous.version}`);
    const { token } = await signIn(old.base);
    const png = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#2a6f97' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('image', new Blob([png], { type: 'image/png' }), 'upgrade.png');
    const upload = await fetch(`${old.base}/images/thumbnail/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, origin: old.base },
      body: form,
    });
    if (upload.status !== 201) fail(`the image upload to ${previous.version} answered ${upload.status}: ${await upload.text()}`);
    const imageUrl = (await upload.json()).data.url;
    const before = await counts(dataDir);
    const imagesBefore = files(join(dataDir, 'uploads'));
    say(`seeded by ${previous.version}: ${JSON.stringify(before.counts)}, ${imagesBefore.length} image files`);
    await stopServer(old);

    // This build on the same DATA_DIR.
    const now = await startServer(ROOT, env, `Inkwell ${current}`);
    try {
      const after = await counts(dataDir);
      if (after.writtenBy !== current)
        fail(`inkwell_meta says the data was written by ${after.writtenBy}, not ${current}: the migrations did not apply`);
      for (const [table, n] of Object.entries(before.counts))
        if (after.counts[table] !== n) fail(`${table}: ${n} rows before the upgrade, ${after.counts[table]} after`);
      const imagesAfter = files(join(dataDir, 'uploads'));
      if (JSON.stringify(imagesAfter) !== JSON.stringify(imagesBefore)) fail('the uploaded images changed across the upgrade');
      say(`after the upgrade: ${JSON.stringify(after.counts)}, ${imagesAfter.length} image files, written by ${after.writtenBy}`);
      const image = await fetch(`${now.base}${new URL(imageUrl, now.base).pathname}`);
      if (image.status !== 200) fail(`the image uploaded before the upgrade answers ${image.status}`);
      const { cookies } = await signIn(now.base);
      say('the administrator of the previous release signs in');
      await expectPage(now.base, '/');
      await expectPage(now.base, `/blog/${before.published.slug}`, { contains: before.published.title.replace(/&/g, '&amp;') });
      await expectPage(now.base, '/admin/settings', { cookies, contains: 'Site Settings' });
      await expectPage(now.base, '/account', { cookies });
    } finally {
      await stopServer(now);
    }
    say(`passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    if (!keep) {
      git('worktree', 'remove', '--force', tree);
      rmSync(scratch, { recursive: true, force: true });
    } else say(`kept ${scratch}`);
  }
}

main().catch((error) => fail(error instanceof Error ? error.stack : String(error)));
