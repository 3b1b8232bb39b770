#!/usr/bin/env node
// The cost of a backup (docs/benchmarks.md#backup): on the 10,000-post demo set, `npm run backup`
// against the running server, timed, its archive's size, and the site's p99 on a cached page and
// an API route while the backup runs, against the same load when idle. Needs `npm run build`.
//
//   node scripts/bench-backup.mjs [--posts 10000] [--connections 8] [--idle-seconds 10] [--data-dir DIR]
//
// --data-dir reuses (and keeps) a seeded DATA_DIR; without it a temporary one is seeded and removed.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));
const autocannon = require('autocannon');

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
}
const posts = Number(option('--posts', '10000'));
const connections = Number(option('--connections', '8'));
const idleSeconds = Number(option('--idle-seconds', '10'));
const givenDataDir = option('--data-dir');
const PASSPHRASE = 'bench passphrase, not a secret';
const say = (line) => console.log(`[bench-backup] ${line}`);

const dataDir = givenDataDir ?? mkdtempSync(join(tmpdir(), 'inkwell-bench-backup-'));
chmodSync(dataDir, 0o755);
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  THROTTLE_DISABLED: '1',
  BACKUP_PASSPHRASE: PASSPHRASE,
};

const freePort = () =>
  new Promise((resolve) => {
    const server = require('node:net').createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function load(url, seconds) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds }, (error, result) => (error ? reject(error) : resolve(result)));
    load.running.push(instance);
  });
}
load.running = [];

const summary = (r) => ({
  requests: r.requests.total,
  rps: Math.round(r.requests.average),
  p50: r.latency.p50,
  p99: r.latency.p99,
  errors: r.errors + r.non2xx,
});

async function main() {
  if (!existsSync(join(ROOT, 'dist/backend/src/main.js'))) throw new Error('build first: npm run build');
  if (!givenDataDir || !existsSync(join(dataDir, 'postgres'))) {
    say(`seeding ${posts} posts into ${dataDir}`);
    const t0 = Date.now();
    execFileSync('npm', ['run', '--silent', 'seed:demo', '--', '--posts', String(posts)], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    say(`seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  const port = await freePort();
  const server = spawn(process.execPath, ['--max-old-space-size=256', join(ROOT, 'dist/backend/src/main.js')], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let tries = 0; ; tries++) {
      try {
        if ((await fetch(`${base}/api/v1/health`)).ok) break;
      } catch {
        // not yet
      }
      if (tries > 300) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 300));
    }
    const routes = { page: `${base}/`, api: `${base}/api/v1/blog/posts/public?page=50&size=12` };
    // Warm the caches, then the idle baseline: both routes at once, as during the backup.
    await Promise.all(Object.values(routes).map((url) => load(url, 3)));
    const idle = await Promise.all(Object.values(routes).map((url) => load(url, idleSeconds)));
    say(`idle: page ${JSON.stringify(summary(idle[0]))}; api ${JSON.stringify(summary(idle[1]))}`);

    const backupDir = join(dataDir, 'backups');
    const before = new Set(existsSync(backupDir) ? readdirSync(backupDir) : []);
    load.running = [];
    const during = Promise.all(Object.values(routes).map((url) => load(url, 3600)));
    const t0 = Date.now();
    let output = '';
    await new Promise((resolve, reject) => {
      const backup = spawn(process.execPath, ['-r', '@swc-node/register', 'backend/src/bin/backup.ts'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      backup.stdout.on('data', (chunk) => (output += chunk));
      backup.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`backup exited ${code}`))));
    });
    const seconds = (Date.now() - t0) / 1000;
    for (const instance of load.running) instance.stop();
    const busy = await during;
    const archive = readdirSync(backupDir).find((name) => !before.has(name) && name.endsWith('.zip'));
    const bytes = statSync(join(backupDir, archive)).size;
    say(`during: page ${JSON.stringify(summary(busy[0]))}; api ${JSON.stringify(summary(busy[1]))}`);
    const result = {
      posts,
      commandSeconds: Number(seconds.toFixed(1)),
      archiveWriteSeconds: Number(/ in ([\d.]+) s\n/.exec(output)?.[1] ?? NaN),
      archiveMB: Number((bytes / 1024 / 1024).toFixed(1)),
      p99IdleMs: { page: idle[0].latency.p99, api: idle[1].latency.p99 },
      p99DuringMs: { page: busy[0].latency.p99, api: busy[1].latency.p99 },
      ratio: {
        page: Number((busy[0].latency.p99 / Math.max(1, idle[0].latency.p99)).toFixed(2)),
        api: Number((busy[1].latency.p99 / Math.max(1, idle[1].latency.p99)).toFixed(2)),
      },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    if (!givenDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`bench-backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
