import { Client } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';
import { ENTITIES } from './entities';

export const DATABASE_CONNECT_TIMEOUT_MS = 3_000;

/**
 * A pooled connection that never crashes the process when the server drops it. node-postgres
 * emits 'error' on a client the database ends while no query is running on it; the pool only
 * listens on idle clients, and TypeORM 1.x adds no listener to the ones it has checked out (a
 * query runner between two statements, say). Without this listener a postmaster stop at that
 * moment is an unhandled 'error' event. The next query on the client fails and reports it, and
 * the pool drops the client when it comes back.
 */
export class PooledClient extends Client {
  constructor(config?: ConstructorParameters<typeof Client>[0]) {
    super(config);
    this.on('error', () => undefined);
  }
}

/** One set of options for the app, the migration CLI and the tests. `synchronize` is never on. */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: ['error'],
    // A request waits at most 3 s for a connection while the database is away, then gets 503
    // (docs/architecture.md#cache-invalidation); the pool drops broken clients and connects again once the server is back.
    connectTimeoutMS: DATABASE_CONNECT_TIMEOUT_MS,
    extra: { max: 20, application_name: 'inkwell', Client: PooledClient },
  };
}

export function createDataSource(url: string): DataSource {
  return new DataSource(dataSourceOptions(url));
}

/** Creates the named database on the server of `serverUrl` when it is missing; returns its URL. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
