// `node scripts/bench-import.mjs [--source wordpress|ghost] [--posts 10000] [--padding 8192]`: the
// import bench. On a fresh DATA_DIR it starts the built server as `npm
// start` does (256 MB heap cap), measures the anonymous pages' latency idle, then uploads a
// generated WXR or Ghost export of N posts (backend/test/fixtures) through /admin/import and
// measures the same pages while the job imports it. Prints the import's time, the server process's
// peak memory (VmHWM, and the highest RSS sampled during the import) and the pages' p99 idle and
// during the import. Needs `npm run build` first. --padding (Ghost only) adds that many characters
// of plaintext to each post: Ghost keeps a post's text as html, lexical and plaintext, so a real
// 10,000-post export is about 100 MB, which the default makes.
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const SOURCE = arg('--source', 'wordpress');
if (SOURCE !== 'wordpress' && SOURCE !== 'ghost') throw new Error('--source is wordpress or ghost');
const POSTS = Number(arg('--posts', '10000'));
const PADDING = SOURCE === 'ghost' ? arg('--padding', '8192') : '0';
const PORT = Number(arg('--port', '3917'));
const SECONDS = Number(arg('--seconds', '10'));
const PAGES = ['/', '/blog'];
const base = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-bench-import-'));
// Traversable by the embedded PostgreSQL's OS user when run as root (mkdtemp makes it 700).
chmodSync(dataDir, 0o755);
const extension = SOURCE === 'ghost' ? 'json' : 'xml';
const fixture = (posts, out) =>
  execFileSync(
    process.execPath,
    ['-r', '@swc-node/register', join(root, 'backend/test/fixtures/write-fixture.ts'), SOURCE, String(posts), out, PADDING],
    { cwd: root, stdio: 'inherit' },
  );
const exportFile = join(dataDir, `bench.${extension}`);

const log = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const memory = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
};

log(`writing a ${POSTS}-post ${SOURCE === 'ghost' ? 'Ghost export' : 'WXR'}...`);
fixture(POSTS, exportFile);
log(`  ${(statSync(exportFile).size / 1024 / 1024).toFixed(1)} MB`);

const password = 'Bench-pass-2026!';
const server = spawn(process.execPath, ['--max-old-space-size=256', join(root, 'scripts/start.mjs')], {
  cwd: root,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(PORT),
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: password,
    THROTTLE_DISABLED: '1',
    LOG_LEVEL: 'warn',
    JOB_POLL_SECONDS: '1',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => {
  if (server.exitCode === null) server.kill('SIGTERM');
};
process.on('exit', stop);

try {
  for (let i = 0; ; i += 1) {
    const ok = await fetch(`${base}/api/v1/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    if (i > 240 || server.exitCode !== null) throw new Error('the server did not start');
    await sleep(500);
  }
  const login = await (
    await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password }),
    })
  ).json();
  const token = login.data?.accessToken ?? login.data?.token;
  if (!token) throw new Error(`login failed: ${JSON.stringify(login).slice(0, 200)}`);
  const auth = { authorization: `Bearer ${token}` };

  const measure = async () => {
    const results = [];
    for (const path of PAGES) {
      const result = await autocannon({ url: `${base}${path}`, connections: 4, duration: SECONDS });
      results.push({
        path,
        p99: result.latency.p99,
        p50: result.latency.p50,
        rps: result.requests.average,
        errors: result.errors + result.non2xx,
      });
    }
    return results;
  };

  // Idle, with a few posts to show: the first 50 of the same file imported before.
  log('idle: importing 50 posts first so the pages are not empty...');
  const first = join(dataDir, `first.${extension}`);
  fixture(50, first);
  const startImport = async (file) => {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(file)]), `bench.${extension}`);
    const res = await fetch(`${base}/api/v1/admin/imports?source=${SOURCE}`, { method: 'POST', headers: auth, body: form });
    const body = await res.json();
    if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body.data.id;
  };
  const waitFor = async (id, onPoll) => {
    for (;;) {
      const row = (await (await fetch(`${base}/api/v1/admin/imports/${id}`, { headers: auth })).json()).data;
      onPoll?.(row);
      if (!['QUEUED', 'RUNNING'].includes(row.state)) return row;
      await sleep(1000);
    }
  };
  await waitFor(await startImport(first));
  const idle = await measure();
  const before = memory(server.pid);

  log(`importing ${POSTS} posts...`);
  const started = Date.now();
  const id = await startImport(exportFile);
  let peakRss = before.rss;
  let lastLine = 0;
  const done = waitFor(id, (row) => {
    peakRss = Math.max(peakRss, memory(server.pid).rss);
    if (Date.now() - lastLine > 30_000) {
      lastLine = Date.now();
      log(
        `  ${row.state} ${row.processed}/${row.total ?? '?'} after ${Math.round((Date.now() - started) / 1000)} s, RSS ${memory(server.pid).rss.toFixed(0)} MB`,
      );
    }
  });
  // Let the first pass (the survey) end, then measure while posts are being written.
  await sleep(5000);
  const during = await measure();
  const row = await done;
  const seconds = (Date.now() - started) / 1000;
  const after = memory(server.pid);

  log('');
  log(
    `import of ${POSTS} ${SOURCE} posts (${(statSync(exportFile).size / 1024 / 1024).toFixed(1)} MB): ${row.state} in ${seconds.toFixed(0)} s (${(POSTS / seconds).toFixed(1)} posts/s); imported ${JSON.stringify(row.counts)}, skipped ${row.skippedCount}`,
  );
  log(
    `server memory: RSS before ${before.rss.toFixed(0)} MB, highest sampled during ${peakRss.toFixed(0)} MB, peak (VmHWM) ${after.hwm.toFixed(0)} MB (target < 300 MB)`,
  );
  log('page latency (4 connections, anonymous):');
  for (const [i, page] of idle.entries()) {
    const busy = during[i];
    log(
      `  ${page.path.padEnd(6)} p99 idle ${page.p99} ms, during import ${busy.p99} ms (${(busy.p99 / Math.max(page.p99, 1)).toFixed(2)}x; target within 2x); p50 ${page.p50} → ${busy.p50} ms; errors ${page.errors}/${busy.errors}`,
    );
  }
} finally {
  stop();
  await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve()));
  rmSync(dataDir, { recursive: true, force: true });
}
