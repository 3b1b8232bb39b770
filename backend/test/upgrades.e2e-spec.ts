import { Client } from 'pg';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { checkDataVersion, prepareDatabase, runMigrations } from '../src/database/data-version';
import { compareVersions, inkwellVersion } from '../src/config/version';
import { createFreshDatabase } from './helpers/fresh-database';

/** A migration that changes the schema, then fails: its change must not survive. */
class BreakOnPurpose1796070999999 implements MigrationInterface {
  name = 'BreakOnPurpose1796070999999';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "upgrade_probe" ("id" integer)`);
    await queryRunner.query(`ALTER TABLE "users" ADD "upgrade_probe" integer`);
    await queryRunner.query(`SELECT 1 / 0`);
  }
  async down(): Promise<void> {}
}

/** Upgrades (docs/operations.md#upgrades): newer data refused at start-up; a failed migration leaves the database as it was. */
describe('Upgrades', () => {
  let url: string;
  let client: Client;
  const version = inkwellVersion();

  beforeAll(async () => {
    url = await createFreshDatabase('inkwell_upgrades');
    client = new Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
  });

  it('records the version that wrote the data, and refuses data a newer Inkwell wrote with one line', async () => {
    expect(await prepareDatabase(url)).toEqual([]);
    const { rows } = await client.query(`SELECT value FROM inkwell_meta WHERE key = 'written_by'`);
    expect(rows).toEqual([{ value: version }]);

    await client.query(`UPDATE inkwell_meta SET value = '99.4.0' WHERE key = 'written_by'`);
    await expect(prepareDatabase(url)).rejects.toThrow(
      new RegExp(`^this data was written by Inkwell 99\\.4\\.0; this is ${version.replace(/\./g, '\\.')}$`),
    );
    // An older release is fine (that is an upgrade).
    await client.query(`UPDATE inkwell_meta SET value = '1.0.0' WHERE key = 'written_by'`);
    await expect(checkDataVersion(url)).resolves.toBeUndefined();

    // A migration this code does not know: a newer version's, even without the version row.
    await client.query(`INSERT INTO migrations (timestamp, name) VALUES (1899999999999, 'FromTheFuture1899999999999')`);
    await expect(checkDataVersion(url)).rejects.toThrow(
      `this data was written by Inkwell 1.0.0; this is ${version} (it has migration FromTheFuture1899999999999, which this version does not know)`,
    );
    await client.query(`DELETE FROM migrations WHERE name = 'FromTheFuture1899999999999'`);
    await prepareDatabase(url);
  });

  it('a failing migration is rolled back, named, and leaves the database as it was', async () => {
    const before = (await client.query(`SELECT count(*)::int AS n FROM migrations`)).rows[0].n as number;
    await expect(runMigrations(url, [...MIGRATIONS, BreakOnPurpose1796070999999])).rejects.toThrow(
      /^migration BreakOnPurpose1796070999999 failed and was rolled back .*division by zero/,
    );
    expect((await client.query(`SELECT to_regclass('public.upgrade_probe') AS t`)).rows[0].t).toBeNull();
    expect(
      (await client.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'upgrade_probe'`))
        .rowCount,
    ).toBe(0);
    expect((await client.query(`SELECT count(*)::int AS n FROM migrations`)).rows[0].n).toBe(before);
  });

  it('orders versions by semver', () => {
    expect(compareVersions('1.10.0', '1.9.3')).toBeGreaterThan(0);
    expect(compareVersions('1.1.0-rc.1', '1.1.0')).toBeLessThan(0);
    expect(compareVersions('1.1.0', '1.1.0')).toBe(0);
  });
});
