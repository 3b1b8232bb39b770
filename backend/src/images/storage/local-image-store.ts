import type { NextFunction, Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageKind, ImageStore, StoredEntry } from './image-store';

/** Files being written carry this prefix until they are complete (never served: not a stored name). */
const TEMP_PREFIX = '.tmp-';

/**
 * Images as files: <root>/<kind>/<name> (STORAGE=local, the default). Several files (a thumbnail
 * and its variants) are written under temporary names first, then renamed, so a reader never sees
 * half of an upload; a failure removes whatever was written.
 */
export class LocalImageStore implements ImageStore {
  readonly driver = 'local' as const;

  constructor(readonly root: string) {}

  dirOf(kind: ImageKind): string {
    return join(this.root, kind);
  }

  async writeAll(kind: ImageKind, files: readonly { name: string; data: Buffer }[]): Promise<void> {
    const dir = this.dirOf(kind);
    await mkdir(dir, { recursive: true });
    const nonce = randomBytes(8).toString('hex');
    const temps = files.map(({ name }) => join(dir, `${TEMP_PREFIX}${nonce}-${name}`));
    const finals = files.map(({ name }) => join(dir, name));
    const renamed: string[] = [];
    try {
      await Promise.all(files.map(({ data }, i) => writeFile(temps[i], data, { flag: 'wx', mode: 0o644 })));
      for (const [i, temp] of temps.entries()) {
        await rename(temp, finals[i]);
        renamed.push(finals[i]);
      }
    } catch (error) {
      await Promise.all([...temps, ...renamed].map((path) => unlink(path).catch(() => undefined)));
      throw error;
    }
  }

  async read(kind: ImageKind, name: string): Promise<Readable | null> {
    const path = join(this.dirOf(kind), name);
    try {
      await stat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return createReadStream(path);
  }

  async remove(kind: ImageKind, name: string): Promise<boolean> {
    try {
      await unlink(join(this.dirOf(kind), name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async removeMany(kind: ImageKind, names: readonly string[]): Promise<{ name: string; error: string }[]> {
    const failed: { name: string; error: string }[] = [];
    await Promise.all(
      names.map((name) =>
        this.remove(kind, name).catch((error: unknown) => {
          failed.push({ name, error: String(error) });
        }),
      ),
    );
    return failed;
  }

  async list(kind: ImageKind): Promise<StoredEntry[]> {
    const dir = this.dirOf(kind);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const entries: StoredEntry[] = [];
    for (const name of names) {
      try {
        entries.push({ name, modifiedMs: (await stat(join(dir, name))).mtimeMs });
      } catch {
        // Gone meanwhile.
      }
    }
    return entries;
  }

  isLeftover(name: string): boolean {
    return name.startsWith(TEMP_PREFIX);
  }

  serve(kind: ImageKind, name: string, _req: Request, res: Response, next: NextFunction): void {
    res.sendFile(
      join(this.dirOf(kind), name),
      { maxAge: '1y', immutable: true, headers: { 'X-Content-Type-Options': 'nosniff' } },
      (error?: Error) => {
        if (!error) return;
        if (res.headersSent) return;
        next();
      },
    );
  }

  async close(): Promise<void> {}
}
