import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';
import { compareVersions, inkwellVersion } from '../config/version';
import { dataSourceOptions } from './data-source';

/**
 * Upgrades (docs/operations.md#upgrades): before the app starts on a database, the version that last
 * wrote it (inkwell_meta.written_by) and its applied migrations are checked against this code; data
 * a newer Inkwell wrote stops start-up with one line instead of half-working. Then the pending
 * migrations run, each in a transaction of its own (migrationsTransactionMode 'each'): a failing
 * one is rolled back, leaving the database as the previous one left it, and named in the error.
 * Last, this version is recorded as the one that wrote the data.
 */
export class DataVersionError extends Error {}

const WRITTEN_BY = 'written_by';

/** Refuses data written by a newer Inkwell, or holding migrations this code does not know. */
export async function checkDataVersion(
  url: string,
  version = inkwellVersion(),
  known: readonly { name: string }[] = MIGRATIONS,
): Promise<void> {
  const client = new Client({ connectionString: url, application_name: 'inkwell-start' });
  await client.connect();
  try {
    const exists = async (table: string) =>
      (await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [table])).rows[0].t !== null;
    let writtenBy: string | undefined;
    if (await exists('public.inkwell_meta'))
      writtenBy = (await client.query<{ value: string }>('SELECT value FROM inkwell_meta WHERE key = $1', [WRITTEN_BY])).rows[0]?.value;
    if (writtenBy && compareVersions(writtenBy, version) > 0)
      throw new DataVersionError(`this data was written by Inkwell ${writtenBy}; this is ${version}`);
    if (await exists('public.migrations')) {
      const names = new Set(known.map((m) => m.name));
      const unknown = (await client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id')).rows.filter(
        (r) => !names.has(r.name),
      );
      if (unknown.length)
        throw new DataVersionError(
          `this data was written by Inkwell ${writtenBy ?? 'a newer version'}; this is ${version} (it has migration ${unknown[0].name}, which this version does not know)`,
        );
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Applies the pending migrations, one transaction each; a failure names the migration and says it was rolled back. */
export async function runMigrations(url: string, migrations: typeof MIGRATIONS = MIGRATIONS): Promise<string[]> {
  const dataSource = new DataSource({ ...dataSourceOptions(url), migrations: [...migrations], logging: false });
  await dataSource.initialize();
  try {
    try {
      return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
    } catch (error) {
      const done = new Set(((await dataSource.query('SELECT name FROM migrations')) as { name: string }[]).map((r) => r.name));
      const failed = migrations.map((m) => m.name).find((name) => !done.has(name));
      throw new DataVersionError(
        `migration ${failed ?? '?'} failed and was rolled back (the database is as the migrations before it left it): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  } finally {
    await dataSource.destroy();
  }
}

/** Records this version as the one that last wrote the data. */
export async function recordDataVersion(url: string, version = inkwellVersion()): Promise<void> {
  const client = new Client({ connectionString: url, application_name: 'inkwell-start' });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO inkwell_meta (key, value, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [WRITTEN_BY, version],
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Start-up's order: check, migrate, record. */
export async function prepareDatabase(url: string): Promise<string[]> {
  await checkDataVersion(url);
  const applied = await runMigrations(url);
  await recordDataVersion(url);
  return applied;
}
