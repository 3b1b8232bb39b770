#!/usr/bin/env node
// `node scripts/upload-load.mjs`: the server's memory under parallel avatar uploads.
//
// Starts the built server (built here when missing) the way `npm start` does (same Node flags,
// NODE_ENV=production, rate limits on) on a fresh DATA_DIR in the temp folder, signs in as its
// first administrator, and fires UPLOAD_LOAD_COUNT (default 60) parallel POST /api/v1/users/avatar
// with one real image just under 10 MiB (a noise PNG made by sharp, stored uncompressed). It samples
// the server's RSS (/proc/<pid>/status, every 100 ms) before, during and UPLOAD_LOAD_AFTER_S
// (default 15) seconds after the last answer, then checks that nothing is lost or half-written:
// the profile's avatar is the one file in uploads/avatars and no upload is left in the temporary
// folder. Prints the figures and the status counts as one JSON object; exits 1 when an answer is
// not 2xx, 429 or 503, or when the files disagree with the profile. Loopback only; the server is
// stopped and its DATA_DIR removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { freeLoopbackPort, serverNodeFlags, sleep } from './lib/process.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = join(ROOT, 'dist', 'backend', 'src', 'main.js');
const FRONTEND_ENTRY = join(ROOT, 'frontend', 'dist', 'server', 'entry.mjs');
const COUNT = Number(process.env.UPLOAD_LOAD_COUNT || 60);
const AFTER_S = Number(process.env.UPLOAD_LOAD_AFTER_S || 15);
const SAMPLE_MS = 100;
const HEALTH_TIMEOUT_MS = 120_000;
/** The spec's largest image: 10 MiB. The test image stays just under it, so a correct server accepts it. */
const MAX_IMAGE_BYTES = 10_485_760;
/** An RGB PNG stored without compression is about 3 bytes a pixel: 1860 x 1860 is 10.38 MB. */
const SIDE = 1860;
const NODE_FLAGS = serverNodeFlags(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));

const log = (message) => process.stderr.write(`[upload-load] ${message}\n`);

function rssMegabytes(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Every file under a folder, recursively (relative names); [] when it does not exist. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(dir.length + 1));
}

if (!existsSync(SERVER_ENTRY) || !existsSync(FRONTEND_ENTRY)) {
  log('no build found: running npm run build');
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const image = await sharp({
  create: { width: SIDE, height: SIDE, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
})
  .png({ compressionLevel: 0 })
  .toBuffer();
if (image.length > MAX_IMAGE_BYTES) throw new Error(`the test image is ${image.length} bytes, over the 10 MiB limit`);

const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-upload-load-'));
// Run as root, the embedded PostgreSQL runs as the `postgres` user, which must reach DATA_DIR.
chmodSync(dataDir, 0o755);
const port = await freeLoopbackPort();
const base = `http://127.0.0.1:${port}`;
const adminEmail = 'admin@example.com';
const adminPassword = `Load-${randomBytes(12).toString('hex')}!`;
const env = {
  ...process.env,
  PORT: String(port),
  DATA_DIR: dataDir,
  PUBLIC_URL: base,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  ADMIN_EMAIL: adminEmail,
  ADMIN_PASSWORD: adminPassword,
};
for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'THROTTLE_DISABLED', 'STORAGE', 'S3_BUCKET']) delete env[name];
const child = spawn(process.execPath, [...NODE_FLAGS, SERVER_ENTRY], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
const keep = (chunk) => (output = (output + chunk.toString()).slice(-20_000));
child.stdout.on('data', keep);
child.stderr.on('data', keep);
let exited = false;
const exit = new Promise((done) => child.on('exit', () => ((exited = true), done())));

async function stop() {
  if (!exited) {
    child.kill('SIGTERM');
    if (!(await Promise.race([exit.then(() => true), sleep(30_000).then(() => false)]))) {
      child.kill('SIGKILL');
      await exit;
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}

try {
  const started = Date.now();
  for (;;) {
    if (exited || Date.now() - started > HEALTH_TIMEOUT_MS) throw new Error(`the server did not become healthy\n${output}`);
    const health = await fetch(`${base}/api/v1/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
    if (health?.status === 200) break;
    await sleep(500);
  }
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: adminEmail, password: adminPassword, rememberMe: false }),
  });
  if (!login.ok) throw new Error(`sign-in answered ${login.status}: ${await login.text()}`);
  const token = (await login.json()).data.accessToken;
  const auth = { authorization: `Bearer ${token}`, origin: base };

  // Settle: the first page render and the pools are warm before the baseline is read.
  await fetch(`${base}/`).then((res) => res.arrayBuffer());
  await sleep(2_000);
  const baseline = rssMegabytes(child.pid);
  log(`server pid ${child.pid}, RSS ${baseline?.toFixed(0)} MB; ${COUNT} parallel uploads of ${(image.length / 1048576).toFixed(2)} MiB`);

  let peak = baseline ?? 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMegabytes(child.pid) ?? 0)), SAMPLE_MS);
  const uploadStarted = Date.now();
  const statuses = await Promise.all(
    Array.from({ length: COUNT }, async () => {
      const form = new FormData();
      form.append('file', new Blob([image], { type: 'image/png' }), 'noise.png');
      try {
        const res = await fetch(`${base}/api/v1/users/avatar`, {
          method: 'POST',
          headers: auth,
          body: form,
          signal: AbortSignal.timeout(120_000),
        });
        await res.arrayBuffer();
        return res.status === 503 && !res.headers.get('retry-after') ? '503 without Retry-After' : String(res.status);
      } catch (error) {
        return `network error (${error.cause?.code ?? error.name})`;
      }
    }),
  );
  const uploadSeconds = (Date.now() - uploadStarted) / 1000;
  const peakDuring = peak;
  await sleep(AFTER_S * 1000);
  clearInterval(sampler);
  const after = rssMegabytes(child.pid);

  const counts = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  const profile = await (await fetch(`${base}/api/v1/users/profile`, { headers: auth })).json();
  const avatarName = profile.data.avatar?.split('/').pop() ?? null;
  const avatarFiles = filesUnder(join(dataDir, 'uploads', 'avatars'));
  const uploadTemp = filesUnder(join(dataDir, 'upload-tmp'));
  const consistent = avatarName === null ? avatarFiles.length === 0 : avatarFiles.length === 1 && avatarFiles[0] === avatarName;
  const unexpected = Object.keys(counts).filter((status) => !/^(2\d\d|429|503)$/.test(status));
  const report = {
    uploads: COUNT,
    imageBytes: image.length,
    rssMB: { baseline: Math.round(baseline ?? 0), peakDuring: Math.round(peakDuring), after15s: Math.round(after ?? 0) },
    afterSeconds: AFTER_S,
    uploadSeconds: Number(uploadSeconds.toFixed(1)),
    statuses: counts,
    avatar: { profile: avatarName, filesInAvatars: avatarFiles.length, consistent },
    leftInTemporaryFolder: uploadTemp.length,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (unexpected.length || !consistent || uploadTemp.length) {
    log(
      `FAIL: ${unexpected.length ? `unexpected answers ${unexpected.join(', ')}; ` : ''}${consistent ? '' : 'avatar files disagree with the profile; '}${uploadTemp.length ? 'temporary files left' : ''}`,
    );
    process.exitCode = 1;
  }
} finally {
  await stop();
}
