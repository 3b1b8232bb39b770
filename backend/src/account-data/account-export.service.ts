import { ConflictException, Inject, Injectable, Logger, NotFoundException, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { DataSource, Repository } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { CLOCK, Clock } from '../common/clock';
import { siteTimeFormatter } from '../common/site-time';
import { APP_CONFIG, AppConfig } from '../config/env';
import { JobRun, JobsService } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { AccountDataMessages } from './account-data.messages';
import { AccountExportFiles } from './account-export-files';
import { AccountExportWriter } from './account-export-writer';
import { AccountExportDto } from './dto/account-data.dto';
import { AccountExport } from './entities/account-export.entity';

export const ACCOUNT_EXPORT_QUEUE = 'account-export';
export const ACCOUNT_EXPORT_EXPIRY_QUEUE = 'account-export-expiry';
/** How long a ready archive can be downloaded (24 h). */
export const EXPORT_LINK_HOURS = 24;

interface ExportJob {
  exportId: number;
}

/** The site-relative download link of a ready export. */
export const exportDownloadPath = (token: string) => `/api/v1/account/export/download/${token}`;

function toExportDto(row: AccountExport): AccountExportDto {
  const ready = row.status === 'READY' && row.token !== null;
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    downloadUrl: ready ? exportDownloadPath(row.token!) : null,
    sizeBytes: ready && row.sizeBytes !== null ? Number(row.sizeBytes) : null,
  };
}

/**
 * 'Download my data': asking writes an export row and its job in one transaction;
 * the `account-export` job streams the archive into DATA_DIR/exports (AccountExportWriter),
 * moving the row's progress, then makes it READY with a random token, enqueues its expiry 24 h
 * later and e-mails the owner. The owner's page polls `latest`. The archive is served only to its
 * owner's session with the token, until it expires; the `account-export-expiry` job deletes it.
 * One export at a time per account (409 while one is queued or running).
 */
@Injectable()
export class AccountExportService implements OnModuleInit {
  private readonly logger = new Logger('AccountExport');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(AccountExport) private readonly exports: Repository<AccountExport>,
    private readonly jobs: JobsService,
    private readonly mail: MailService,
    private readonly files: AccountExportFiles,
    private readonly writer: AccountExportWriter,
  ) {}

  onModuleInit(): void {
    this.jobs.register<ExportJob>(ACCOUNT_EXPORT_QUEUE, (job) => this.build(job));
    this.jobs.register<ExportJob>(ACCOUNT_EXPORT_EXPIRY_QUEUE, (job) => this.expire(job.data.exportId));
  }

  /** Starts an export (202); one already queued or running: 409. */
  async request(user: AuthUser): Promise<AccountExportDto> {
    const row = await this.dataSource.transaction(async (manager) => {
      // The account's row lock serialises two requests of one account (two tabs).
      await manager.query(`SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE`, [user.id]);
      const running = await manager.exists(AccountExport, {
        where: [
          { userId: user.id, status: 'QUEUED' },
          { userId: user.id, status: 'RUNNING' },
        ],
      });
      if (running) throw new ConflictException(AccountDataMessages.EXPORT_IN_PROGRESS);
      const created = await manager.save(AccountExport, manager.create(AccountExport, { userId: user.id, status: 'QUEUED', progress: 0 }));
      await this.jobs.enqueue(manager, ACCOUNT_EXPORT_QUEUE, { exportId: created.id } satisfies ExportJob);
      return created;
    });
    return toExportDto(row);
  }

  /** The account's latest export (what the page polls); none yet: 404. */
  async latest(user: AuthUser): Promise<AccountExportDto> {
    const row = await this.exports.findOne({ where: { userId: user.id }, order: { createdAt: 'DESC', id: 'DESC' } });
    if (!row) throw new NotFoundException(AccountDataMessages.EXPORT_NOT_FOUND);
    return toExportDto(this.expiredInPlace(row));
  }

  /** The archive behind a download link, for its owner only; any other caller, an unknown or an expired link: 404. */
  async open(user: AuthUser, token: string): Promise<{ stream: Readable; size: number; fileName: string }> {
    const row = /^[A-Za-z0-9_-]{43}$/.test(token) ? await this.exports.findOne({ where: { token } }) : null;
    if (!row || row.userId !== user.id || this.expiredInPlace(row).status !== 'READY' || !row.fileName)
      throw new NotFoundException(AccountDataMessages.EXPORT_LINK_INVALID);
    const path = this.files.pathOf(row.fileName);
    const size = await stat(path)
      .then((s) => s.size)
      .catch(() => undefined);
    if (size === undefined) throw new NotFoundException(AccountDataMessages.EXPORT_LINK_INVALID);
    return { stream: createReadStream(path), size, fileName: `inkwell-data-${row.createdAt.toISOString().slice(0, 10)}.zip` };
  }

  /** A READY row past its time reads as EXPIRED even before its expiry job has run. */
  private expiredInPlace(row: AccountExport): AccountExport {
    if (row.status === 'READY' && row.expiresAt && row.expiresAt.getTime() <= this.clock.now().getTime())
      return { ...row, status: 'EXPIRED', token: null };
    return row;
  }

  /** The `account-export` job: writes the archive, then READY + token + expiry job + e-mail. The last failed try marks it FAILED. */
  private async build(job: JobRun<ExportJob>): Promise<void> {
    const { exportId } = job.data;
    const row = await this.exports.findOne({ where: { id: exportId } });
    if (!row || (row.status !== 'QUEUED' && row.status !== 'RUNNING')) return;
    await this.exports.update({ id: exportId }, { status: 'RUNNING', progress: 0 });
    const fileName = await this.files.newName();
    const final = this.files.pathOf(fileName);
    const part = `${final}.part`;
    try {
      await this.writer.write(row.userId, part, (progress) =>
        this.exports.update({ id: exportId, status: 'RUNNING' }, { progress }).then(() => undefined),
      );
      await rename(part, final);
      const size = (await stat(final)).size;
      const token = randomBytes(32).toString('base64url');
      const now = this.clock.now();
      const expiresAt = new Date(now.getTime() + EXPORT_LINK_HOURS * 3_600_000);
      const ready = await this.dataSource.transaction(async (manager) => {
        const result = await manager.update(
          AccountExport,
          { id: exportId, status: 'RUNNING' },
          { status: 'READY', progress: 100, token, fileName, sizeBytes: String(size), finishedAt: now, expiresAt },
        );
        if (!result.affected) return false;
        await this.jobs.enqueue(manager, ACCOUNT_EXPORT_EXPIRY_QUEUE, { exportId } satisfies ExportJob, { startAfter: expiresAt });
        return true;
      });
      // The account was erased (its row with it) while the archive was written.
      if (!ready) return this.files.remove([fileName]);
      const owner = (await this.dataSource.query(`SELECT email, full_name FROM users WHERE id = $1`, [row.userId])) as {
        email: string;
        full_name: string;
      }[];
      if (owner[0])
        await this.mail.sendDataExportReady(
          owner[0].email,
          owner[0].full_name,
          exportDownloadPath(token),
          siteTimeFormatter(this.config.siteTimeZone)(expiresAt),
        );
    } catch (error) {
      await rm(part, { force: true });
      await rm(final, { force: true });
      if (job.lastAttempt) await this.exports.update({ id: exportId }, { status: 'FAILED' });
      this.logger.error({ err: error }, `Export ${exportId} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }

  /** The `account-export-expiry` job: the archive is deleted, the row stays as EXPIRED (the page says so). */
  async expire(exportId: number): Promise<void> {
    const row = await this.exports.findOne({ where: { id: exportId } });
    if (!row || row.status !== 'READY') return;
    await this.exports.update({ id: exportId, status: 'READY' }, { status: 'EXPIRED', token: null, fileName: null });
    if (row.fileName) await this.files.remove([row.fileName]);
  }
}
