import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { parseExpression } from 'cron-parser';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import { inkwellVersion } from '../config/version';
import { JobLock, JobLockIds } from '../database/job-lock';
import { DomainEvents } from '../events/domain-events.service';
import { BackupRun, finishRun, pruneArchives, startRun } from './backup-runs';
import { BackupResult, writeBackup } from './backup-writer';

/** setTimeout's longest wait; a later run is re-armed on the way. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Scheduled backups (docs/operations.md#scheduled-backups): BACKUP_SCHEDULE (cron, in SITE_TIME_ZONE)
 * on the one instance holding the job's advisory lock (JobLock), each run recorded in
 * `backup_runs`, then all but the newest BACKUP_KEEP archives deleted. A failed run records
 * `backup.failed` (the administrators are e-mailed by BackupFailureMailer). A run in progress is
 * awaited at shutdown.
 */
@Injectable()
export class BackupService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Backup');
  private timer?: NodeJS.Timeout;
  private running?: Promise<BackupResult | undefined>;
  private readonly url?: string;
  private readonly lock?: JobLock;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {
    this.url = (dataSource.options as { url?: string }).url;
    if (this.url && config.backup.schedule) this.lock = new JobLock(this.url, JobLockIds.SCHEDULED_BACKUP);
  }

  onApplicationBootstrap(): void {
    if (!this.dataSource.isInitialized || !this.lock) return;
    this.arm();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    await this.lock?.release();
  }

  /** When the schedule runs next (null without BACKUP_SCHEDULE). */
  nextRunAt(from = new Date()): Date | null {
    const schedule = this.config.backup.schedule;
    if (!schedule) return null;
    return parseExpression(schedule, { tz: this.config.siteTimeZone, currentDate: from }).next().toDate();
  }

  /** The latest backup run (scheduled or by command), if any. */
  async lastRun(): Promise<BackupRun | null> {
    const [row] = (await this.dataSource.query(
      `SELECT id, started_at AS "startedAt", finished_at AS "finishedAt", trigger, ok, file, bytes::float8 AS bytes, error
         FROM backup_runs ORDER BY started_at DESC, id DESC LIMIT 1`,
    )) as BackupRun[];
    return row ?? null;
  }

  private arm(): void {
    if (this.stopped) return;
    const next = this.nextRunAt();
    if (!next) return;
    const wait = next.getTime() - Date.now();
    this.timer = setTimeout(
      () => (wait > MAX_TIMER_MS ? this.arm() : void this.scheduled().finally(() => this.arm())),
      Math.min(wait, MAX_TIMER_MS),
    );
    this.timer.unref();
  }

  /** One scheduled run, unless one is running here or another instance holds the lock. */
  async scheduled(): Promise<BackupResult | undefined> {
    if (this.running || !this.lock) return this.running;
    this.running = this.lock
      .hold()
      .then((held) => (held ? this.run() : undefined))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** Writes a backup now; records the run; on failure records `backup.failed` and answers undefined. */
  async run(): Promise<BackupResult | undefined> {
    const url = this.url!;
    const { backup } = this.config;
    const startedAt = new Date();
    const id = await startRun(url, 'schedule', startedAt);
    try {
      const result = await writeBackup({
        databaseUrl: this.config.databaseUrl ? undefined : url,
        dataDir: this.config.dataDir,
        backupDir: backup.dir,
        storage: this.config.storage,
        secrets: {
          jwtSecret: this.config.jwtSecret,
          passwordPepper: this.config.passwordPepper,
          fromEnvironment: backup.secretsFromEnvironment,
        },
        passphrase: backup.passphrase!,
        inkwellVersion: inkwellVersion(),
      });
      await finishRun(url, id, { file: result.file, bytes: result.bytes });
      const removed = await pruneArchives(backup.dir, backup.keep);
      this.logger.log(`backup written: ${result.file} (${result.bytes} bytes); ${removed.length} older archive(s) removed`);
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error(`scheduled backup failed: ${message}`);
      await finishRun(url, id, { error: message }).catch(() => undefined);
      await this.events
        .transaction((tx) =>
          tx.record({
            name: 'backup.failed',
            actor: null,
            data: { backupId: id ?? 0, trigger: 'schedule', startedAt: startedAt.toISOString(), error: message },
          }),
        )
        .catch((recordError: unknown) => this.logger.error(`could not record the failed backup: ${String(recordError)}`));
      return undefined;
    }
  }
}
