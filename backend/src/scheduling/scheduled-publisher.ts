import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../common/database-unavailable';
import { APP_CONFIG, AppConfig } from '../config/env';
import { JobLock, JobLockIds } from '../database/job-lock';
import { PublishedBySchedule, SchedulingService } from './scheduling.service';

/**
 * Publishes due posts: a sweep at start (catching up on whatever fell due while no instance ran)
 * and every SCHEDULER_INTERVAL_SECONDS, on one instance only, the one holding the job's advisory
 * lock (JobLock; another instance takes over when it stops or dies). A sweep, not a delayed job
 * per post: a reschedule or cancel is one column, and a restart needs nothing re-queued
 * (docs/decisions.md). A sweep in progress is awaited at shutdown. Without a database (OpenAPI
 * generation) it does nothing.
 */
@Injectable()
export class ScheduledPublisher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ScheduledPublisher');
  private timer?: NodeJS.Timeout;
  private running?: Promise<PublishedBySchedule[]>;
  readonly lock?: JobLock;

  constructor(
    private readonly scheduling: SchedulingService,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const url = (dataSource.options as { url?: string }).url;
    if (url) this.lock = new JobLock(url, JobLockIds.SCHEDULED_PUBLISH);
  }

  onApplicationBootstrap(): void {
    if (!this.dataSource.isInitialized || !this.lock) return;
    this.timer = setInterval(() => void this.sweep(), this.config.schedulerIntervalSeconds * 1000);
    this.timer.unref();
    void this.sweep();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.lock?.release();
  }

  /** Starts a sweep unless one is running here (then that one's result) or another instance holds the lock (nothing). */
  sweep(): Promise<PublishedBySchedule[]> {
    if (this.running) return this.running;
    const lock = this.lock;
    if (!lock) return Promise.resolve([]);
    this.running = lock
      .hold()
      .then((held) => (held ? this.scheduling.publishDue() : []))
      .then((published) => {
        if (published.length)
          this.logger.log(`published ${published.length} scheduled post(s): ${published.map((post) => post.id).join(', ')}`);
        return published;
      })
      .catch((error: unknown): PublishedBySchedule[] => {
        if (isDatabaseUnavailable(error)) this.logger.warn('scheduled publishing skipped: the database is unavailable');
        else this.logger.error(`scheduled publishing failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return [];
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** A sweep that starts after this call (one already running may have read the clock before it moved). */
  async sweepNow(): Promise<PublishedBySchedule[]> {
    await this.running;
    return this.sweep();
  }

  /** Settles when no sweep runs here (tests: the start-up catch-up). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
