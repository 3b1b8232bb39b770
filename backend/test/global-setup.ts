import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource, ensureDatabase } from '../src/database/data-source';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';

/**
 * One real PostgreSQL per test run: an embedded server in a fresh temporary folder (or the
 * server of TEST_DATABASE_URL), a new database, every migration applied. Workers read
 * DATABASE_URL from the environment.
 */
export default async function globalSetup(): Promise<void> {
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-test-'));
    chmodSync(dataDir, 0o755); // the postgres OS user (when run as root) must traverse it
    const embedded = await startEmbeddedPostgres(dataDir, () => undefined);
    (globalThis as Record<string, unknown>).__INKWELL_PG__ = embedded;
    (globalThis as Record<string, unknown>).__INKWELL_TEST_DIR__ = dataDir;
    serverUrl = embedded.url;
  }
  const databaseUrl = await ensureDatabase(serverUrl, `inkwell_test_${Date.now()}_${process.pid}`);
  const dataSource = createDataSource(databaseUrl);
  await dataSource.initialize();
  await dataSource.runMigrations();
  await dataSource.destroy();
  process.env.DATABASE_URL = databaseUrl;
}
