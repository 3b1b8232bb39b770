import { ZipArchive } from 'archiver';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Client } from 'pg';
import type { StorageConfig } from '../config/env';
import { isAlive } from '../database/processes';
import {
  ARCHIVE_PREFIX,
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupManifest,
  MANIFEST_FILE,
  qualified,
  quoteIdent,
  S3_OBJECTS_FILE,
  SealedSecrets,
  SECRETS_FILE,
  sealSecrets,
  SequenceEntry,
  sha256,
  TableEntry,
} from './backup-format';
import { copyOut } from './pg-copy';

export interface BackupInput {
  /** The database to copy; undefined with DATABASE_URL (the operator's server: its own tools back it up). */
  databaseUrl: string | undefined;
  dataDir: string;
  backupDir: string;
  storage: StorageConfig;
  /** The secrets in effect (config), and which came from the environment. */
  secrets: { jwtSecret: string; passwordPepper: string; fromEnvironment: string[] };
  passphrase: string;
  inkwellVersion: string;
  progress?: (line: string) => void;
  /** Test hook: called once the snapshot is taken and before any table is read. */
  afterSnapshot?: () => Promise<void>;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: BackupManifest;
  durationMs: number;
}

/**
 * The tables a backup copies: every ordinary table (partitions included, partitioned parents not:
 * their rows are their partitions') of every schema but PostgreSQL's own, found in the catalog
 * at backup time, so that tables a later migration adds are copied without changing this code.
 * Tables belonging to an extension are the extension's to recreate.
 */
const TABLES_SQL = `
  SELECT n.nspname AS schema, c.relname AS name,
         array_agg(a.attname::text ORDER BY a.attnum) AS columns
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
   WHERE c.relkind = 'r' AND c.relpersistence <> 't'
     AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
     AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
   GROUP BY n.nspname, c.relname
   ORDER BY n.nspname, c.relname`;

const SEQUENCES_SQL = `
  SELECT n.nspname AS schema, c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind = 'S' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
   ORDER BY 1, 2`;

const MATVIEWS_SQL = `SELECT schemaname AS schema, matviewname AS name FROM pg_matviews ORDER BY 1, 2`;

/** Counts and hashes what flows through it. */
class Digest extends Transform {
  private readonly hash = createHash('sha256');
  bytes = 0;
  _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }
  hex(): string {
    return this.hash.digest('hex');
  }
}

export const archiveName = (at: Date) => `${ARCHIVE_PREFIX}${at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}.zip`;

/**
 * Writes one archive into `backupDir` while the site keeps serving. The database rows come from
 * one `REPEATABLE READ READ ONLY` transaction (one snapshot: every table as of one instant, writers
 * not blocked), each table streamed with `COPY … TO STDOUT` into the zip (deflate level 1: cheap
 * on the CPU the site shares). The archive is written under a temporary name and renamed when it
 * is complete and flushed, so a backup cut short (kill -9, a full disk) never leaves a file that
 * looks like a finished backup.
 */
export async function writeBackup(input: BackupInput): Promise<BackupResult> {
  const started = Date.now();
  const say = input.progress ?? (() => undefined);
  await mkdir(input.backupDir, { recursive: true, mode: 0o700 });
  await removeAbandonedPartials(input.backupDir);
  const at = new Date();
  let finalName = archiveName(at);
  for (let n = 2; existsSync(join(input.backupDir, finalName)); n++) finalName = archiveName(at).replace(/\.zip$/, `-${n}.zip`);
  const partial = join(input.backupDir, `.${finalName}.partial-${process.pid}`);
  const finalPath = join(input.backupDir, finalName);

  const zip = new ZipArchive({ zlib: { level: 1 } });
  const output = createWriteStream(partial, { mode: 0o600 });
  zip.pipe(output);
  const zipFailed = new Promise<never>((_resolve, reject) => {
    zip.on('error', reject);
    output.on('error', reject);
  });
  zipFailed.catch(() => undefined);
  const files: BackupManifest['files'] = {};

  /** Adds a stream as one entry, hashing it on the way. */
  const addEntry = async (name: string, fill: (sink: PassThrough) => Promise<void>) => {
    const digest = new Digest();
    const sink = new PassThrough({ highWaterMark: 1 << 20 });
    zip.append(sink.pipe(digest), { name });
    await Promise.race([fill(sink), zipFailed]);
    sink.end();
    await Promise.race([finished(digest), zipFailed]);
    files[name] = { sha256: digest.hex(), bytes: digest.bytes };
    return digest.bytes;
  };

  let client: Client | undefined;
  try {
    let postgresVersion: string | null = null;
    let migrations: string[] = [];
    const tables: TableEntry[] = [];
    const sequences: SequenceEntry[] = [];
    let materializedViews: string[] = [];
    if (input.databaseUrl) {
      client = new Client({ connectionString: input.databaseUrl, application_name: 'inkwell-backup' });
      client.on('error', () => undefined);
      await client.connect();
      // One snapshot for every table; READ ONLY + DEFERRABLE-free: writers go on meanwhile.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      postgresVersion = (await client.query<{ v: string }>('SELECT current_setting($1) AS v', ['server_version'])).rows[0].v;
      migrations = (
        await client.query<{ name: string }>(
          `SELECT name FROM migrations WHERE to_regclass('public.migrations') IS NOT NULL ORDER BY timestamp, id`,
        )
      ).rows.map((r) => r.name);
      say(`database: PostgreSQL ${postgresVersion}, migration level ${migrations.at(-1) ?? 'none'} (${migrations.length} migrations)`);
      await input.afterSnapshot?.();
    }

    // Images first (the snapshot is already taken): a file deleted while they are copied is skipped.
    const images = await addImages(input, addEntry, say);

    if (client) {
      const found = (await client.query<{ schema: string; name: string; columns: string[] }>(TABLES_SQL)).rows;
      let rowsTotal = 0;
      for (const [index, table] of found.entries()) {
        const file = `database/${table.schema}.${table.name}.copy`;
        let rows = 0;
        await addEntry(file, async (sink) => {
          rows = await copyOut(
            client!,
            `COPY ${qualified(table.schema, table.name)} (${table.columns.map(quoteIdent).join(', ')}) TO STDOUT`,
            sink,
          );
        });
        rowsTotal += rows;
        tables.push({ schema: table.schema, name: table.name, columns: table.columns, rows, file });
        say(`database: ${index + 1}/${found.length} tables, ${rowsTotal} rows (${table.schema}.${table.name}: ${rows})`);
      }
      for (const seq of (await client.query<{ schema: string; name: string }>(SEQUENCES_SQL)).rows) {
        const [row] = (
          await client.query<{ last_value: string; is_called: boolean }>(
            `SELECT last_value::text, is_called FROM ${qualified(seq.schema, seq.name)}`,
          )
        ).rows;
        sequences.push({ schema: seq.schema, name: seq.name, lastValue: row.last_value, isCalled: row.is_called });
      }
      materializedViews = (await client.query<{ schema: string; name: string }>(MATVIEWS_SQL)).rows.map((m) => `${m.schema}.${m.name}`);
      await client.query('COMMIT');
    }

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      inkwellVersion: input.inkwellVersion,
      createdAt: at.toISOString(),
      postgresVersion,
      database: input.databaseUrl ? 'embedded' : 'external',
      migrations,
      tables,
      sequences,
      materializedViews,
      images,
      files,
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
    zip.append(manifestBytes, { name: MANIFEST_FILE });
    const persistedFile = resolve(input.dataDir, 'secrets.json');
    const secrets: SealedSecrets = {
      persisted: existsSync(persistedFile) ? (JSON.parse(readFileSync(persistedFile, 'utf8')) as Record<string, string>) : {},
      jwtSecret: input.secrets.jwtSecret,
      passwordPepper: input.secrets.passwordPepper,
      fromEnvironment: input.secrets.fromEnvironment,
      manifestSha256: sha256(manifestBytes),
    };
    zip.append(sealSecrets(secrets, input.passphrase), { name: SECRETS_FILE });
    await Promise.race([zip.finalize(), zipFailed]);
    await Promise.race([finished(output), zipFailed]);
    // On disk before it gets its final name.
    const handle = await open(partial, 'r');
    await handle.sync();
    await handle.close();
    await rename(partial, finalPath);
    const bytes = (await stat(finalPath)).size;
    say(`wrote ${finalPath} (${formatBytes(bytes)}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { file: finalPath, bytes, manifest, durationMs: Date.now() - started };
  } catch (error) {
    zip.abort();
    output.destroy();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await client?.end().catch(() => undefined);
  }
}

async function addImages(
  input: BackupInput,
  addEntry: (name: string, fill: (sink: PassThrough) => Promise<void>) => Promise<number>,
  say: (line: string) => void,
): Promise<BackupManifest['images']> {
  if (input.storage.driver === 's3') {
    const objects = await listS3Objects(input.storage);
    await addEntry(S3_OBJECTS_FILE, async (sink) => {
      sink.write(JSON.stringify({ bucket: input.storage.driver === 's3' ? input.storage.bucket : '', objects }, null, 1));
    });
    const bytes = objects.reduce((sum, o) => sum + o.size, 0);
    say(`images: S3 bucket, ${objects.length} objects (${formatBytes(bytes)}) listed; the bucket keeps the bytes`);
    return { driver: 's3', files: objects.length, bytes };
  }
  const root = resolve(input.dataDir, 'uploads');
  let count = 0;
  let bytes = 0;
  for (const path of await walk(root)) {
    const name = `uploads/${relative(root, path).split(sep).join('/')}`;
    let source: Readable;
    try {
      source = await openStream(path);
    } catch {
      continue; // deleted meanwhile
    }
    bytes += await addEntry(name, async (sink) => {
      for await (const chunk of source) if (!sink.write(chunk)) await new Promise((r) => sink.once('drain', r));
    });
    count++;
    if (count % 200 === 0) say(`images: ${count} files`);
  }
  say(`images: ${count} files (${formatBytes(bytes)})`);
  return { driver: 'local', files: count, bytes };
}

async function openStream(path: string): Promise<Readable> {
  const handle = await open(path, 'r');
  return handle.createReadStream();
}

async function walk(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

async function listS3Objects(storage: Extract<StorageConfig, { driver: 's3' }>): Promise<{ key: string; size: number; etag?: string }[]> {
  // Loaded only with S3 storage (the SDK is large).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3Client, ListObjectsV2Command } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: storage.endpoint,
    region: storage.region,
    forcePathStyle: storage.forcePathStyle,
    credentials:
      storage.accessKeyId && storage.secretAccessKey
        ? { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey }
        : undefined,
  });
  const objects: { key: string; size: number; etag?: string }[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: 'images/', ContinuationToken: token }));
      for (const object of page.Contents ?? [])
        if (object.Key) objects.push({ key: object.Key, size: object.Size ?? 0, etag: object.ETag });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  return objects;
}

/** Partial archives of backups that died (their pid is gone) are removed; a live one's is left alone. */
async function removeAbandonedPartials(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const match = /^\..*\.partial-(\d+)$/.exec(name);
    if (match && !isAlive(Number(match[1]))) await rm(join(dir, name), { force: true });
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
