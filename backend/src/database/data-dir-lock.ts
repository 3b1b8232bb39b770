import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAlive, processStartTime } from './processes';

export interface DataDirLock {
  release(): void;
}

export interface LockOwner {
  pid: number;
  /** /proc start time of the owner, so that a pid reused by another program is not taken for it. */
  startTime?: string;
  /** Set by a running server: the signal that makes it drop every cache (a CLI wrote to its database). */
  resyncSignal?: NodeJS.Signals;
}

/**
 * DATA_DIR/inkwell.pid names the live Inkwell (or CLI) process that owns the embedded database.
 * A second one refuses with `refusal`; a file left by a process that is gone (kill -9, power loss)
 * is taken over, which is what lets the next start clean up that process's orphan postmaster.
 */
export function acquireDataDirLock(dataDir: string, refusal: string, resyncSignal?: NodeJS.Signals): DataDirLock {
  const file = resolve(dataDir, 'inkwell.pid');
  const me: LockOwner = { pid: process.pid, startTime: processStartTime(process.pid), resyncSignal };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(me), { flag: 'wx', mode: 0o644 });
      return { release: () => releaseIfMine(file, me) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(file);
    if (owner && owner.pid !== process.pid && ownerIsAlive(owner)) throw new Error(refusal);
    // Stale (or unreadable): remove and try once more; `wx` settles a race between two starts.
    rmSync(file, { force: true });
  }
  throw new Error(refusal);
}

/** The live process that holds DATA_DIR, if any. */
export function liveDataDirOwner(dataDir: string): LockOwner | undefined {
  const owner = readOwner(resolve(dataDir, 'inkwell.pid'));
  return owner && owner.pid !== process.pid && ownerIsAlive(owner) ? owner : undefined;
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

function ownerIsAlive(owner: LockOwner): boolean {
  if (!isAlive(owner.pid)) return false;
  const startTime = processStartTime(owner.pid);
  return !owner.startTime || !startTime || startTime === owner.startTime;
}

function releaseIfMine(file: string, me: LockOwner): void {
  if (readOwner(file)?.pid === me.pid) rmSync(file, { force: true });
}
