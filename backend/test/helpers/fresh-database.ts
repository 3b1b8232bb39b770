import { createDataSource, ensureDatabase } from '../../src/database/data-source';

/**
 * A new, empty database (every migration applied) on the run's PostgreSQL server, for tests that
 * need a state no other test touches (e.g. the first-start admin seed). Answers its URL.
 */
export async function createFreshDatabase(prefix: string): Promise<string> {
  const runUrl = process.env.DATABASE_URL;
  if (!runUrl) throw new Error('DATABASE_URL is not set: run the tests through jest (global-setup starts PostgreSQL)');
  const url = await ensureDatabase(runUrl, `${prefix}_${Date.now()}_${process.pid}`);
  const dataSource = createDataSource(url);
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
  } finally {
    await dataSource.destroy();
  }
  return url;
}
