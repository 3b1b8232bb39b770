import {
  BadRequestException,
  ConflictException,
  Injectable,
  Logger,
  NotFoundException,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { open, rm } from 'node:fs/promises';
import { DataSource, In } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { JobsService } from '../jobs/jobs.service';
import { ImportResponseDto } from './dto/import.dto';
import { ImportSource, ImportState, SiteImport } from './entities/site-import.entity';
import type { ImportUploads } from './import-upload.interceptor';
import { ImportsMessages } from './imports.messages';
import { SiteImporter } from './site-importer.service';

/** The job queue of imports: one job per import, never retried by the queue (running it again is the admin's call, and safe). */
export const IMPORT_QUEUE = 'site-import';

/** Reads a file's first bytes (the format check before an import is queued). */
async function head(path: string, bytes = 4096): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const isZip = (start: Buffer) => start.length >= 4 && start.readUInt32LE(0) === 0x04034b50;

/** Whether the file starts as its format does: the quick check that answers 400 at once (the job reads it all before writing). */
async function looksLike(source: ImportSource, path: string): Promise<boolean> {
  const start = await head(path);
  if (source === ImportSource.INKWELL) return isZip(start);
  const text = start
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (source === ImportSource.GHOST) return text.startsWith('{');
  return (text.startsWith('<?xml') || text.startsWith('<rss')) && text.includes('<rss');
}

/** What the admin chose beside the file. */
export interface ImportOptions {
  /** E-mail each author account the import creates an invitation to set its password. */
  inviteAuthors?: boolean;
}

export function toImportResponse(row: SiteImport): ImportResponseDto {
  return {
    id: row.id,
    source: row.source,
    state: row.state,
    fileName: row.fileName,
    total: row.total,
    processed: row.processed,
    counts: row.counts,
    skippedCount: row.skippedCount,
    skipped: row.skipped,
    renamedCount: row.renamedCount,
    renamed: row.renamed,
    error: row.error,
    inviteAuthors: row.inviteAuthors,
    cancelRequested: row.cancelRequested,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Site imports as the admin pages and the CLI start them: checks the upload, records the import and
 * queues its job in one transaction (docs/architecture.md#job-queue), answers its progress, asks it to stop. The
 * work itself is SiteImporter's. One import runs at a time.
 */
@Injectable()
export class ImportsService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Imports');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly importer: SiteImporter,
  ) {}

  /**
   * An import a stopped server was running has no job any more (the queue does not run it again):
   * it ends as FAILED, saying how to finish it, so the next import is not refused for ever. (With
   * several instances, one that keeps running it still writes its real end.)
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.dataSource.query(
      `UPDATE site_imports SET state = 'FAILED', finished_at = now(), error = $1 WHERE state = 'RUNNING' AND started_at < now() - interval '10 seconds'`,
      [ImportsMessages.INTERRUPTED],
    );
  }

  onModuleInit(): void {
    this.jobs.register<{ importId: number }>(IMPORT_QUEUE, async ({ data }) => {
      await this.importer.run(data.importId);
      await this.removeFiles(data.importId);
    });
  }

  /** Checks the upload and queues its import (202); the files are the import's from here on. */
  async start(uploads: ImportUploads, source: ImportSource, admin: AuthUser, options: ImportOptions = {}): Promise<SiteImport> {
    const { file, media } = uploads;
    if (!file?.size)
      throw new BadRequestException({ message: ImportsMessages.FILE_REQUIRED, errors: { file: [ImportsMessages.FILE_REQUIRED] } });
    if (!(await looksLike(source, file.path))) {
      const message =
        source === ImportSource.WORDPRESS
          ? ImportsMessages.NOT_WORDPRESS
          : source === ImportSource.GHOST
            ? ImportsMessages.NOT_GHOST
            : ImportsMessages.NOT_INKWELL;
      throw new BadRequestException({ message, errors: { file: [message] } });
    }
    if (media && (!media.size || !isZip(await head(media.path))))
      throw new BadRequestException({ message: ImportsMessages.MEDIA_NOT_ZIP, errors: { media: [ImportsMessages.MEDIA_NOT_ZIP] } });
    return this.create(source, file.originalname, file.path, media?.path ?? null, admin.id, true, options);
  }

  /** Records an import (refused while another one runs) and, for the pages, queues its job in the same transaction. */
  async create(
    source: ImportSource,
    fileName: string,
    filePath: string,
    mediaPath: string | null,
    adminId: number,
    queue: boolean,
    options: ImportOptions = {},
  ): Promise<SiteImport> {
    return this.dataSource.transaction(async (manager) => {
      // One import at a time: the advisory lock makes the check and the insert one step across instances.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('site_imports'))`);
      if (await manager.exists(SiteImport, { where: { state: In([ImportState.QUEUED, ImportState.RUNNING]) } }))
        throw new ConflictException(ImportsMessages.ALREADY_RUNNING);
      const row = await manager.save(
        SiteImport,
        manager.create(SiteImport, {
          source,
          fileName: fileName.slice(0, 255) || 'export',
          filePath,
          mediaPath,
          createdBy: adminId,
          inviteAuthors: options.inviteAuthors ?? false,
        }),
      );
      // An import may run for many minutes: the queue must not take it for an instance that died.
      if (queue) await this.jobs.enqueue(manager, IMPORT_QUEUE, { importId: row.id }, { retryLimit: 0, expireInSeconds: 6 * 3600 });
      return row;
    });
  }

  async get(id: number): Promise<ImportResponseDto> {
    const row = await this.dataSource.manager.findOneBy(SiteImport, { id });
    if (!row) throw new NotFoundException(ImportsMessages.NOT_FOUND);
    return toImportResponse(row);
  }

  /** The latest imports, newest first (the page shows the running one and the last reports). */
  async list(): Promise<ImportResponseDto[]> {
    const rows = await this.dataSource.manager.find(SiteImport, { order: { createdAt: 'DESC', id: 'DESC' }, take: 10 });
    return rows.map(toImportResponse);
  }

  /**
   * Asks a queued or running import to stop: a queued one ends at once, a running one after the
   * post it is writing (what it wrote stays; running the file again continues). 409 once ended.
   */
  async cancel(id: number): Promise<ImportResponseDto> {
    const row = await this.dataSource.manager.findOneBy(SiteImport, { id });
    if (!row) throw new NotFoundException(ImportsMessages.NOT_FOUND);
    if (row.state !== ImportState.QUEUED && row.state !== ImportState.RUNNING) throw new ConflictException(ImportsMessages.NOT_CANCELLABLE);
    await this.dataSource.query(
      `UPDATE site_imports SET cancel_requested = true,
              state = CASE WHEN state = 'QUEUED' THEN 'CANCELLED' ELSE state END,
              finished_at = CASE WHEN state = 'QUEUED' THEN now() ELSE finished_at END
        WHERE id = $1`,
      [id],
    );
    if (row.state === ImportState.QUEUED) await this.removeFiles(id);
    return this.get(id);
  }

  /** The uploads go once their import has ended. */
  async removeFiles(id: number): Promise<void> {
    const row = await this.dataSource.manager.findOneBy(SiteImport, { id });
    if (!row) return;
    for (const path of [row.filePath, row.mediaPath])
      if (path) await rm(path, { force: true }).catch((error) => this.logger.warn({ err: error }, `Could not remove ${path}`));
    await this.dataSource.manager.update(SiteImport, { id }, { filePath: null, mediaPath: null });
  }
}
