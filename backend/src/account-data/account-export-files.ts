import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';

const NAME = /^[0-9a-f]{32}\.zip$/;

/**
 * The data export archives on disk: DATA_DIR/exports/<32 hex>.zip, written as `.part` first and
 * renamed once complete, so a half-written archive is never offered. Only names of this form are
 * ever opened or deleted.
 */
@Injectable()
export class AccountExportFiles {
  private readonly logger = new Logger('AccountExportFiles');
  readonly dir: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.dir = join(config.dataDir, 'exports');
  }

  /** A new random file name, with the folder made. */
  async newName(): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    return `${randomBytes(16).toString('hex')}.zip`;
  }

  pathOf(name: string): string {
    if (!NAME.test(name)) throw new Error(`not an export file name: ${name}`);
    return join(this.dir, name);
  }

  /** The archives of an account (read in the erasure's transaction; deleted after it commits). */
  async filesOf(manager: EntityManager, userId: number): Promise<string[]> {
    const rows = (await manager.query(`SELECT file_name FROM account_exports WHERE user_id = $1 AND file_name IS NOT NULL`, [userId])) as {
      file_name: string;
    }[];
    return rows.map((row) => row.file_name);
  }

  /** Deletes archives (and any leftover part); missing files are fine, failures are logged. */
  async remove(names: readonly string[]): Promise<void> {
    for (const name of names) {
      if (!NAME.test(name)) continue;
      for (const path of [this.pathOf(name), `${this.pathOf(name)}.part`]) {
        await rm(path, { force: true }).catch((error: unknown) => this.logger.warn(`Could not delete ${path}: ${String(error)}`));
      }
    }
  }
}
