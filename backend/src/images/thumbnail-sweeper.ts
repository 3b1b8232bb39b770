import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../common/database-unavailable';
import { JobLock, JobLockIds } from '../database/job-lock';
import { ImagesService } from './images.service';

const SWEEP_INTERVAL_MS = 60 * 60_000;

/**
 * Runs ImagesService.sweepOrphans once at start and then every hour, on one instance only: the
 * one holding the sweep's advisory lock (JobLock; another instance takes over when it stops). A
 * sweep in progress is awaited at shutdown, before the database closes. Without a database
 * (OpenAPI generation) it does nothing.
 */
@Injectable()
export class ThumbnailSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ThumbnailSweeper');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  readonly lock?: JobLock;

  constructor(
    private readonly images: ImagesService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    const url = (dataSource.options as { url?: string }).url;
    if (url) this.lock = new JobLock(url, JobLockIds.THUMBNAIL_SWEEP);
  }

  onApplicationBootstrap(): void {
    if (!this.dataSource.isInitialized || !this.lock) return;
    this.timer = setInterval(() => void this.trigger(), SWEEP_INTERVAL_MS);
    this.timer.unref();
    void this.trigger();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.lock?.release();
  }

  /** Starts a sweep unless one is running here or another instance holds the lock. */
  trigger(): Promise<void> {
    if (this.running) return this.running;
    const lock = this.lock;
    if (!lock) return Promise.resolve();
    this.running = lock
      .hold()
      .then(async (held) => {
        if (held) await this.images.sweepOrphans();
      })
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) this.logger.warn('thumbnail sweep skipped: the database is unavailable');
        else this.logger.error(`thumbnail sweep failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
