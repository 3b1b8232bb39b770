import { createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import PgBoss from 'pg-boss';
import { Client } from 'pg';
import { MIGRATIONS } from '../../../migrations';
import { DataSource } from 'typeorm';
import { dataSourceOptions, ensureDatabase } from '../database/data-source';
import { liveDataDirOwner } from '../database/data-dir-lock';
import { startEmbeddedPostgres } from '../database/embedded-postgres';
import { JOBS_SCHEMA } from '../jobs/jobs.service';
import { BackupManifest, BackupRefused, qualified, quoteIdent, S3_OBJECTS_FILE, SealedSecrets } from './backup-format';
import { BackupArchive } from './backup-reader';
import { copyIn } from './pg-copy';

export interface RestoreInput {
  file: string;
  dataDir: string;
  /** DATABASE_URL: the database is the operator's (restored with their tools); images and secrets only. */
  databaseUrl: string | undefined;
  passphrase: string;
  force: boolean;
  progress?: (line: string) => void;
}

export interface RestoreResult {
  manifest: BackupManifest;
  secrets: SealedSecrets;
  /** Rows per `schema.table` found after the restore. */
  counts: Record<string, number>;
  images: number;
}

/** What DATA_DIR may hold and still count as empty: nothing, or only the backups folder (the archive may be in it). */
const IGNORED_IN_DATA_DIR = new Set(['backups', 'lost+found']);

/**
 * Restores an archive into DATA_DIR: refuses a DATA_DIR in use, or not empty without `force`;
 * checks the passphrase and every checksum; only then writes: secrets.json, a new embedded
 * cluster with the migrations of the archive's level, every table's rows (COPY FROM, with
 * triggers and foreign keys off for the session: rows arrive in any order and are exactly the
 * archive's), the sequences, the uploaded images. Counts every table again against the manifest.
 */
export async function restoreBackup(input: RestoreInput): Promise<RestoreResult> {
  const say = input.progress ?? (() => undefined);
  const dataDir = resolve(input.dataDir);
  const owner = liveDataDirOwner(dataDir);
  if (owner) throw new BackupRefused(`DATA_DIR ${dataDir} is in use by a running Inkwell (pid ${owner.pid}): stop it before restoring`);
  const present = existsSync(dataDir) ? (await readdir(dataDir)).filter((name) => !IGNORED_IN_DATA_DIR.has(name)) : [];
  if (present.length && !input.force)
    throw new BackupRefused(
      `DATA_DIR ${dataDir} is not empty (${present.slice(0, 4).join(', ')}${present.length > 4 ? ', …' : ''}): restore into an empty folder, or add --force to replace what is there`,
    );

  const archive = await BackupArchive.open(input.file);
  try {
    const { manifest, secrets } = await archive.verify(input.passphrase, say);
    const known = new Set(MIGRATIONS.map((m) => m.name));
    const unknown = manifest.migrations.filter((name) => !known.has(name));
    if (unknown.length)
      throw new BackupRefused(
        `this backup was written by Inkwell ${manifest.inkwellVersion}, whose migrations this version does not know (${unknown.slice(0, 3).join(', ')}): restore it with Inkwell ${manifest.inkwellVersion} or later; nothing was restored`,
      );
    if (manifest.database === 'embedded' && input.databaseUrl)
      throw new BackupRefused(
        'DATABASE_URL is set: the archive holds an embedded database; unset DATABASE_URL to restore it into DATA_DIR',
      );

    // Verified: from here on, DATA_DIR is written.
    if (present.length) {
      say(`--force: removing ${present.join(', ')} from ${dataDir}`);
      for (const name of present) await rm(join(dataDir, name), { recursive: true, force: true });
    }
    await mkdir(dataDir, { recursive: true });
    await chmod(dataDir, 0o755);
    const persisted = { ...secrets.persisted, jwtSecret: secrets.jwtSecret, passwordPepper: secrets.passwordPepper };
    await writeFile(join(dataDir, 'secrets.json'), JSON.stringify(persisted, null, 2), { mode: 0o600 });
    say(`secrets: written to ${join(dataDir, 'secrets.json')}`);
    if (secrets.fromEnvironment.length)
      say(
        `secrets: ${secrets.fromEnvironment.join(', ')} came from the environment: set them there again (or leave them unset: secrets.json holds them now)`,
      );

    const images = await restoreImages(archive, manifest, dataDir, say);
    let counts: Record<string, number> = {};
    if (manifest.database === 'embedded') {
      const embedded = await startEmbeddedPostgres(dataDir, say);
      try {
        counts = await restoreDatabase(archive, manifest, await ensureDatabase(embedded.url, 'inkwell'), say);
      } finally {
        await embedded.stop();
      }
    }
    return { manifest, secrets, counts, images };
  } finally {
    archive.close();
  }
}

async function restoreImages(
  archive: BackupArchive,
  manifest: BackupManifest,
  dataDir: string,
  say: (line: string) => void,
): Promise<number> {
  if (manifest.images.driver === 's3') {
    const listing = JSON.parse((await archive.read(S3_OBJECTS_FILE)).toString('utf8')) as { bucket: string; objects: unknown[] };
    say(
      `images: ${listing.objects.length} objects stay in the S3 bucket ${listing.bucket} (restore them from the bucket's versioning if needed; keys in ${S3_OBJECTS_FILE})`,
    );
    return 0;
  }
  const root = join(dataDir, 'uploads');
  let count = 0;
  for (const name of Object.keys(manifest.files).filter((file) => file.startsWith('uploads/'))) {
    const target = resolve(dataDir, name);
    if (!target.startsWith(root + sep))
      throw new BackupRefused(`${name} would be written outside DATA_DIR/uploads; nothing more was restored`);
    await mkdir(dirname(target), { recursive: true });
    await pipeline(await archive.stream(name), createWriteStream(target, { mode: 0o644 }));
    if (++count % 500 === 0) say(`images: ${count}/${manifest.images.files}`);
  }
  say(`images: ${count} files restored`);
  return count;
}

async function restoreDatabase(
  archive: BackupArchive,
  manifest: BackupManifest,
  url: string,
  say: (line: string) => void,
): Promise<Record<string, number>> {
  // The schema of the archive's level: its migrations and no later one (start-up applies those).
  const level = new Set(manifest.migrations);
  const dataSource = new DataSource({ ...dataSourceOptions(url), migrations: MIGRATIONS.filter((m) => level.has(m.name)) });
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    say(`schema: ${applied.length} migrations applied (level ${manifest.migrations.at(-1) ?? 'none'})`);
  } finally {
    await dataSource.destroy();
  }

  const client = new Client({ connectionString: url, application_name: 'inkwell-restore' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const hasJobs = manifest.tables.some((t) => t.schema === JOBS_SCHEMA);
    if (hasJobs) {
      // pg-boss's schema is pg-boss's to create (its own construction SQL, the version this code runs).
      await client.query(PgBoss.getConstructionPlans(JOBS_SCHEMA));
    }
    await client.query('BEGIN');
    // Triggers and foreign-key checks off for this transaction: every row is restored as it was, in any order.
    await client.query('SET LOCAL session_replication_role = replica');
    const queueTable = manifest.tables.find((t) => t.schema === JOBS_SCHEMA && t.name === 'queue');
    if (queueTable) {
      // Each pg-boss queue owns a job partition that pg-boss's create_queue() makes: the queues are
      // created through it (from the archived rows, loaded into a scratch table), then their rows
      // are made the archive's.
      await client.query(`CREATE TEMP TABLE restore_queue (LIKE ${qualified(JOBS_SCHEMA, 'queue')}) ON COMMIT DROP`);
      await copyIn(
        client,
        `COPY restore_queue (${queueTable.columns.map(quoteIdent).join(', ')}) FROM STDIN`,
        await archive.stream(queueTable.file),
      );
      await client.query(
        `SELECT ${quoteIdent(JOBS_SCHEMA)}.create_queue(name, json_build_object('policy', policy, 'retryLimit', retry_limit,
           'retryDelay', retry_delay, 'retryBackoff', retry_backoff, 'expireInSeconds', expire_seconds,
           'retentionMinutes', retention_minutes, 'deadLetter', dead_letter))
           FROM restore_queue ORDER BY dead_letter IS NOT NULL, name`,
      );
    }
    const missing: string[] = [];
    for (const table of manifest.tables) {
      const { rows } = await client.query(`SELECT to_regclass($1) AS oid`, [qualified(table.schema, table.name)]);
      if (!(rows[0] as { oid: string | null }).oid) missing.push(`${table.schema}.${table.name}`);
    }
    if (missing.length)
      throw new Error(`the schema of this version has no ${missing.join(', ')}: restore with Inkwell ${manifest.inkwellVersion}`);
    // pg-boss's version row stays the one its construction wrote: it names the schema just built
    // (from an older Inkwell's archive, the archived row would make pg-boss migrate it again).
    const versionTable = manifest.tables.find((t) => t.schema === JOBS_SCHEMA && t.name === 'version');
    const targets = manifest.tables.filter((t) => t !== queueTable && t !== versionTable);
    if (targets.length) await client.query(`TRUNCATE ${targets.map((t) => qualified(t.schema, t.name)).join(', ')}`);
    if (queueTable) await client.query(`DELETE FROM ${qualified(JOBS_SCHEMA, 'queue')}`);
    let done = 0;
    let rowsTotal = 0;
    for (const table of manifest.tables) {
      if (table === versionTable) continue;
      const rows = await copyIn(
        client,
        `COPY ${qualified(table.schema, table.name)} (${table.columns.map(quoteIdent).join(', ')}) FROM STDIN`,
        await archive.stream(table.file),
      );
      rowsTotal += rows;
      if (++done % 10 === 0 || done === manifest.tables.length)
        say(`database: ${done}/${manifest.tables.length} tables, ${rowsTotal} rows`);
    }
    for (const seq of manifest.sequences) {
      await client.query(`SELECT setval($1, $2::bigint, $3)`, [qualified(seq.schema, seq.name), seq.lastValue, seq.isCalled]);
    }
    await client.query('COMMIT');
    for (const view of manifest.materializedViews) {
      const [schema, name] = view.split('.');
      await client.query(`REFRESH MATERIALIZED VIEW ${qualified(schema, name)}`);
    }
    say(`database: ${manifest.sequences.length} sequences set`);
    const counts: Record<string, number> = {};
    for (const table of manifest.tables) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${qualified(table.schema, table.name)}`);
      counts[`${table.schema}.${table.name}`] = Number(rows[0].n);
    }
    return counts;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
