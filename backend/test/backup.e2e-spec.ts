import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { generate } from 'otplib';
import { Client } from 'pg';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { inkwellVersion } from '../src/backup/backup-format';
import { restoreBackup } from '../src/backup/backup-restore';
import { BackupResult, writeBackup } from '../src/backup/backup-writer';
import { APP_CONFIG, AppConfig, loadConfig } from '../src/config/env';
import { PasswordHasher } from '../src/auth/password-hasher';
import { ensureDatabase } from '../src/database/data-source';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';
import { RoleName } from '../src/users/roles';
import { secretContext, webhookSecretBox } from '../src/webhooks/webhook-delivery.service';
import { createTestApp, TestApp } from './helpers/app';
import { api } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { startS3Server } from './helpers/s3-server';
import { createUser } from './helpers/users';

/**
 * Backup and restore (docs/operations.md#backup): a seeded site is backed up while a writer keeps
 * inserting, restored into a fresh DATA_DIR (a second embedded PostgreSQL), and compared: every
 * table's count against the manifest, every row that existed before the backup, the images byte
 * for byte; the old password and two-factor code sign in, the webhook's secret opens. Then the faults.
 */
const PASSWORD = 'Back!up2Pass';
const PASSPHRASE = 'correct horse battery staple';

const TABLES_SQL = `SELECT n.nspname AS schema, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%' ORDER BY 1, 2`;

async function rowHashes(url: string): Promise<Map<string, Set<string>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const out = new Map<string, Set<string>>();
    for (const { schema, name } of (await client.query<{ schema: string; name: string }>(TABLES_SQL)).rows) {
      const { rows } = await client.query<{ h: string }>(`SELECT md5(t::text) AS h FROM "${schema}"."${name}" t`);
      out.set(`${schema}.${name}`, new Set(rows.map((r) => r.h)));
    }
    return out;
  } finally {
    await client.end();
  }
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

describe('Backup and restore', () => {
  let source: TestApp;
  let sourceUrl: string;
  let sourceDir: string;
  let config: AppConfig;
  const scratch: string[] = [];
  let backup: BackupResult;
  let twoFactorSecret: string;
  let signInEmail: string;
  let webhook: { id: number; secret: string };
  let thumbnailUrl: string;

  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    chmodSync(dir, 0o755);
    scratch.push(dir);
    return dir;
  };
  const backupInput = (overrides: Partial<Parameters<typeof writeBackup>[0]> = {}) => ({
    databaseUrl: sourceUrl,
    dataDir: sourceDir,
    backupDir: join(sourceDir, 'backups'),
    storage: config.storage,
    secrets: { jwtSecret: config.jwtSecret, passwordPepper: config.passwordPepper, fromEnvironment: [] },
    passphrase: PASSPHRASE,
    inkwellVersion: inkwellVersion(),
    ...overrides,
  });

  beforeAll(async () => {
    sourceUrl = await createFreshDatabase('inkwell_backup');
    source = await createTestApp({ databaseUrl: sourceUrl, env: { WEBHOOK_ALLOW_PRIVATE: '1' } });
    sourceDir = source.dataDir;
    config = source.app.get<AppConfig>(APP_CONFIG);
    const db = source.app.get(DataSource);
    const hash = await source.app.get(PasswordHasher).hash(PASSWORD);
    const admin = await createUser(source, [RoleName.ADMIN]);
    const author = await createUser(source, [RoleName.AUTHOR]);
    await db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [hash, author.id]);
    signInEmail = author.email;
    // Two-factor on for the author, with the code of the step before (this one and the next stay usable).
    const setup = await source.http.post(api('/account/two-factor/setup')).set(author.auth).expect(200);
    twoFactorSecret = setup.body.data.secret as string;
    await source.http
      .post(api('/account/two-factor/confirm'))
      .set(author.auth)
      .send({ code: await generate({ secret: twoFactorSecret, epoch: Math.floor(Date.now() / 1000) - 30 }) })
      .expect(200);
    const hook = await source.http
      .post(api('/admin/webhooks'))
      .set(admin.auth)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['post.published'] })
      .expect(201);
    webhook = { id: hook.body.data.id as number, secret: hook.body.data.secret as string };
    const png = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const uploaded = await source.http
      .post('/images/thumbnail/upload')
      .set(author.auth)
      .attach('image', png, { filename: 'cover.png', contentType: 'image/png' })
      .expect(201);
    thumbnailUrl = uploaded.body.data.url as string;
    await source.http
      .post(api('/blog/posts/author/create'))
      .set(author.auth)
      .send({ title: 'Kept through a backup', content: 'A body that must survive.', thumbnail: thumbnailUrl })
      .expect(201);
    // A table of several megabytes: its COPY spans many socket reads, and the zip falls behind it.
    await db.query(
      `INSERT INTO tags (name, slug, description) SELECT 'bulk-' || g, 'bulk-' || g, repeat(md5(g::text), 15) FROM generate_series(1, 6000) g`,
    );
    // The app's own background work (queue, sweeps) stops: only the test's writer changes rows now.
    await source.app.close();
  }, 60_000);

  afterAll(async () => {
    for (const dir of [...scratch, sourceDir]) rmSync(dir, { recursive: true, force: true });
  });

  it('round trip: a backup taken while rows are written restores every count, every earlier row, the images, sign-in and webhooks', async () => {
    const before = await rowHashes(sourceUrl);
    const writer = new Client({ connectionString: sourceUrl });
    await writer.connect();
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        await writer.query(`INSERT INTO tags (name, slug) VALUES ($1, $1)`, [`written-during-${written}`]);
        written++;
      }
    })();
    try {
      const lines: string[] = [];
      backup = await writeBackup(
        backupInput({ progress: (line) => lines.push(line), afterSnapshot: () => new Promise((r) => setTimeout(r, 150)) }),
      );
      expect(lines.some((line) => /tables, \d+ rows/.test(line))).toBe(true);
    } finally {
      writing = false;
      await writes;
      await writer.end();
    }
    expect(written).toBeGreaterThan(0);
    expect(backup.file).toMatch(/inkwell-backup-\d{8}-\d{6}\.zip$/);
    expect(statSync(backup.file).mode & 0o077).toBe(0);
    // Secrets are never in plain text in the archive.
    const raw = readFileSync(backup.file);
    expect(raw.includes(Buffer.from(config.jwtSecret))).toBe(false);
    expect(raw.includes(Buffer.from(config.passwordPepper))).toBe(false);
    const { manifest } = backup;
    expect(manifest.tables.map((t) => `${t.schema}.${t.name}`)).toEqual(
      expect.arrayContaining(['public.users', 'public.posts', 'pgboss.version']),
    );
    expect(manifest.images.driver).toBe('local');
    expect(manifest.images.files).toBeGreaterThan(0);

    const target = tempDir('inkwell-restore-');
    const restored = await restoreBackup({
      file: backup.file,
      dataDir: target,
      databaseUrl: undefined,
      passphrase: PASSPHRASE,
      force: false,
    });
    for (const table of manifest.tables)
      expect([`${table.schema}.${table.name}`, restored.counts[`${table.schema}.${table.name}`]]).toEqual([
        `${table.schema}.${table.name}`,
        table.rows,
      ]);

    // Images byte-identical.
    const sourceImages = filesUnder(join(sourceDir, 'uploads'));
    expect(sourceImages.length).toBe(manifest.images.files);
    expect(filesUnder(join(target, 'uploads'))).toEqual(sourceImages);
    for (const file of sourceImages)
      expect(readFileSync(join(target, 'uploads', file)).equals(readFileSync(join(sourceDir, 'uploads', file)))).toBe(true);

    const embedded = await startEmbeddedPostgres(target, () => undefined);
    let app: TestApp | undefined;
    try {
      const url = await ensureDatabase(embedded.url, 'inkwell');
      // Every row that existed before the backup started is there, unchanged.
      const after = await rowHashes(url);
      for (const [table, hashes] of before) {
        // pg-boss's version row is the one the restore's construction wrote (its maintenance times are pg-boss's own).
        if (table === 'pgboss.version') continue;
        const now = after.get(table);
        expect([table, now !== undefined]).toEqual([table, true]);
        const lost = [...hashes].filter((h) => !now!.has(h));
        expect([table, lost.length]).toEqual([table, 0]);
      }
      // The restored site: same secrets (DATA_DIR/secrets.json), old password + two-factor code, webhook secret.
      app = await createTestApp({ databaseUrl: url, env: { DATA_DIR: target } });
      const challenge = await app.http.post(api('/auth/login')).send({ email: signInEmail, password: PASSWORD }).expect(202);
      await app.http
        .post(api('/auth/login/two-factor'))
        .send({ challengeToken: challenge.body.data.challengeToken, code: await generate({ secret: twoFactorSecret }) })
        .expect(200);
      const restoredConfig = app.app.get<AppConfig>(APP_CONFIG);
      const [row] = (await app.app.get(DataSource).query('SELECT secret_sealed FROM webhooks WHERE id = $1', [webhook.id])) as {
        secret_sealed: string;
      }[];
      expect(webhookSecretBox(restoredConfig).open(row.secret_sealed, secretContext(webhook.id))).toBe(webhook.secret);
      const image = await app.http.get(new URL(thumbnailUrl, 'http://localhost').pathname).buffer(true).expect(200);
      const stored = readFileSync(join(sourceDir, 'uploads', new URL(thumbnailUrl, 'http://localhost').pathname.replace('/images/', '')));
      expect(Buffer.isBuffer(image.body) && (image.body as Buffer).equals(stored)).toBe(true);
    } finally {
      await app?.app.close();
      await embedded.stop();
    }
  }, 90_000);

  it('refuses a wrong passphrase, a truncated or altered archive and a non-empty DATA_DIR, before writing anything', async () => {
    const restore = (file: string, dataDir: string, passphrase = PASSPHRASE, force = false) =>
      restoreBackup({ file, dataDir, databaseUrl: undefined, passphrase, force });
    const empty = tempDir('inkwell-refused-');

    await expect(restore(backup.file, empty, 'not the passphrase')).rejects.toThrow(/the passphrase does not open this backup/);
    expect(readdirSync(empty)).toEqual([]);

    const bytes = readFileSync(backup.file);
    const truncated = join(empty, '..', `${Date.now()}-truncated.zip`);
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    scratch.push(truncated);
    await expect(restore(truncated, empty)).rejects.toThrow(/is not a complete Inkwell backup \(truncated or damaged/);

    // One byte changed inside the users table's rows.
    const altered = Buffer.from(bytes);
    const at = altered.indexOf(Buffer.from('database/public.users.copy')) + 200;
    altered[at] ^= 0xff;
    const alteredFile = join(empty, '..', `${Date.now()}-altered.zip`);
    writeFileSync(alteredFile, altered);
    scratch.push(alteredFile);
    await expect(restore(alteredFile, empty)).rejects.toThrow(/(damaged|does not match its checksum).*nothing was restored/);
    expect(readdirSync(empty)).toEqual([]);

    const used = tempDir('inkwell-used-');
    writeFileSync(join(used, 'notes.txt'), 'mine');
    await expect(restore(backup.file, used)).rejects.toThrow(/is not empty \(notes\.txt\): restore into an empty folder, or add --force/);
    expect(readdirSync(used)).toEqual(['notes.txt']);
  }, 30_000);

  it('kill -9 during a backup leaves no archive named as complete; the next backup removes the leftover', async () => {
    const backupDir = tempDir('inkwell-killed-');
    // The child pauses inside its snapshot (after the images, before the tables), then is killed.
    const script = [
      "require('@swc-node/register');",
      "const { writeBackup } = require('./backend/src/backup/backup-writer');",
      `const input = ${JSON.stringify({ ...backupInput(), backupDir })};`,
      "input.afterSnapshot = () => { process.stdout.write('snapshot\\n'); return new Promise(() => {}); };",
      'writeBackup(input).catch(() => {});',
    ].join('\n');
    const child = spawn(process.execPath, ['-e', script], { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('snapshot') && resolve());
      child.on('exit', (code) => reject(new Error(`backup child exited (${code}) before its snapshot`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const left = readdirSync(backupDir);
    expect(left.filter((name) => name.endsWith('.zip'))).toEqual([]);
    expect(left.some((name) => name.includes('.partial-'))).toBe(true);
    const next = await writeBackup({ ...backupInput(), backupDir });
    expect(readdirSync(backupDir)).toEqual([relative(backupDir, next.file)]);
  }, 60_000);

  it('with DATABASE_URL and S3 storage: the archive holds the bucket listing and the secrets, and restores the secrets', async () => {
    const s3 = await startS3Server('inkwell-backup-test');
    try {
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'images/thumbnails/abc.webp', Body: Buffer.alloc(1234, 7) }));
      const storage = loadConfig({ ...s3.env, DATA_DIR: sourceDir }).storage;
      const lines: string[] = [];
      const result = await writeBackup({
        ...backupInput(),
        databaseUrl: undefined,
        storage,
        backupDir: tempDir('inkwell-s3-backup-'),
        progress: (line) => lines.push(line),
      });
      expect(result.manifest).toEqual(
        expect.objectContaining({ database: 'external', tables: [], images: { driver: 's3', files: 1, bytes: 1234 } }),
      );
      expect(Object.keys(result.manifest.files)).toEqual(['s3-objects.json']);
      const target = tempDir('inkwell-s3-restore-');
      const restored = await restoreBackup({
        file: result.file,
        dataDir: target,
        databaseUrl: undefined,
        passphrase: PASSPHRASE,
        force: false,
      });
      expect(restored.images).toBe(0);
      const secrets = JSON.parse(readFileSync(join(target, 'secrets.json'), 'utf8')) as Record<string, string>;
      expect([secrets.jwtSecret, secrets.passwordPepper]).toEqual([config.jwtSecret, config.passwordPepper]);
      expect(statSync(join(target, 'secrets.json')).mode & 0o077).toBe(0);
    } finally {
      await s3.close();
    }
  }, 30_000);
});
