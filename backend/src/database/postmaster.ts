import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAlive, sleep, waitForExit } from './processes';

/** How a supervised postmaster is started (binary, data folder, port, flags, OS user). */
export interface PostmasterOptions {
  binary: string;
  databaseDir: string;
  port: number;
  flags: string[];
  /** Run as this OS user (when Node runs as root). */
  ids?: { uid: number; gid: number };
  /** PostgreSQL's own log (stderr) is appended here, so it survives the app and outlives a crash. */
  logFile: string;
  log: (line: string) => void;
}

/** Restart delays after an unexpected exit: 0.5 s doubling to 5 s. */
export const RESTART_BACKOFF_MS = [500, 1_000, 2_000, 4_000, 5_000] as const;
/** A postmaster that stayed up this long starts the backoff from the beginning again. */
const STABLE_AFTER_MS = 30_000;
const READY_TIMEOUT_MS = 60_000;
/** Fast shutdown (SIGINT) gets this long before the immediate one (SIGQUIT). */
export const FAST_STOP_TIMEOUT_MS = 10_000;
const IMMEDIATE_STOP_TIMEOUT_MS = 5_000;

/** The first lines of DATA_DIR/postgres/postmaster.pid: pid, data folder, start time, port, ..., status. */
export interface PostmasterPidFile {
  pid: number;
  dataDir: string;
  /** The TCP port it listens on (line 4). */
  port: number;
  /** 'ready', 'starting' or 'stopping' (PostgreSQL 10+, line 8). */
  status: string;
}

export function readPostmasterPidFile(databaseDir: string): PostmasterPidFile | undefined {
  try {
    const lines = readFileSync(resolve(databaseDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    return { pid, dataDir: lines[1] ?? '', port: Number(lines[3]), status: (lines[7] ?? '').trim() };
  } catch {
    return undefined;
  }
}

/** True when `pid` is a live postgres process (by its command line) serving `databaseDir`. */
export function isPostmasterOf(pid: number, databaseDir: string): boolean {
  if (!isAlive(pid)) return false;
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (!command[0]?.endsWith('postgres')) return false;
  } catch {
    // No /proc (macOS): the pid file's own data folder is all we can check.
  }
  return resolve(readPostmasterPidFile(databaseDir)?.dataDir ?? '') === resolve(databaseDir);
}

/**
 * Stops a postmaster by pid: fast shutdown (SIGINT: clients are disconnected, the data is
 * checkpointed), then immediate (SIGQUIT) when it takes longer than `fastTimeoutMs`.
 * Resolves true once the process is gone.
 */
export async function stopPostmasterPid(pid: number, fastTimeoutMs = FAST_STOP_TIMEOUT_MS): Promise<boolean> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGINT');
  if (await waitForExit(pid, fastTimeoutMs)) return true;
  signal('SIGQUIT');
  if (await waitForExit(pid, IMMEDIATE_STOP_TIMEOUT_MS)) return true;
  signal('SIGKILL');
  return waitForExit(pid, IMMEDIATE_STOP_TIMEOUT_MS);
}

/**
 * The embedded PostgreSQL server process, supervised:
 * - it runs in its own session and process group (`detached`), so Ctrl-C or a signal to the app's
 *   process group reaches only Node, which drains its requests before it stops the database;
 * - when it exits on its own (crash, `kill -9`, OOM killer), it is started again on the same
 *   port with a backoff of 0.5 s doubling to 5 s, and the app's pool reconnects by itself.
 */
export class Postmaster {
  private child?: ChildProcess;
  private stopping = false;
  private attempt = 0;
  private restartTimer?: NodeJS.Timeout;
  private startedAt = 0;
  /** Unexpected exits so far (for logs and tests). */
  restarts = 0;

  constructor(private readonly options: PostmasterOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the server and resolves once it accepts connections; rejects when it exits first. */
  async start(): Promise<void> {
    this.stopping = false;
    await this.spawnAndWait();
  }

  /** Stops the server (no restart afterwards): fast shutdown, immediate after a timeout. */
  async stop(fastTimeoutMs = FAST_STOP_TIMEOUT_MS): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const child = this.child;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    await stopPostmasterPid(child.pid, fastTimeoutMs);
  }

  private async spawnAndWait(): Promise<void> {
    const { binary, databaseDir, port, flags, ids, logFile } = this.options;
    const logFd = openSync(logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(binary, ['-D', databaseDir, '-p', String(port), ...flags], {
        ...ids,
        detached: true,
        stdio: ['ignore', logFd, logFd],
        env: { ...process.env, LC_MESSAGES: 'C' },
      });
    } finally {
      closeSync(logFd);
    }
    this.child = child;
    // Detached and without pipes: nothing of it keeps Node's event loop alive.
    child.unref();
    let exited = false;
    child.once('exit', (code, signal) => {
      exited = true;
      this.onExit(child, code, signal);
    });
    child.once('error', (error) => this.options.log(`embedded PostgreSQL could not be started: ${error.message}`));

    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!exited && Date.now() < deadline) {
      const pidFile = readPostmasterPidFile(databaseDir);
      if (pidFile && pidFile.pid === child.pid && pidFile.status === 'ready') {
        this.startedAt = Date.now();
        return;
      }
      await sleep(50);
    }
    if (!exited) await stopPostmasterPid(child.pid!, 1_000);
    throw new Error(`embedded PostgreSQL did not start; its log: ${this.options.logFile}\n${this.logTail()}`);
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (child !== this.child || this.stopping || !this.startedAt) return;
    this.restarts += 1;
    if (Date.now() - this.startedAt > STABLE_AFTER_MS) this.attempt = 0;
    this.startedAt = 0;
    this.scheduleRestart(`exited (${signal ?? `code ${code}`})`);
  }

  private scheduleRestart(reason: string): void {
    const delay = RESTART_BACKOFF_MS[Math.min(this.attempt, RESTART_BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.options.log(`embedded PostgreSQL ${reason}: restarting in ${delay} ms`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopping) return;
      this.spawnAndWait().then(
        () => this.options.log(`embedded PostgreSQL is running again (pid ${this.child?.pid})`),
        () => {
          if (!this.stopping) this.scheduleRestart('did not start');
        },
      );
    }, delay);
    this.restartTimer.unref();
  }

  private logTail(): string {
    if (!existsSync(this.options.logFile)) return '';
    return readFileSync(this.options.logFile, 'utf8').split('\n').slice(-12).join('\n');
  }
}
