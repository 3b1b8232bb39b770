import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../common/database-unavailable';
import { ImagesService } from './images.service';

const SWEEP_INTERVAL_MS = 60 * 60_000;

/**
 * Runs ImagesService.sweepOrphans once at start and then every hour. A sweep in progress is
 * awaited at shutdown, before the database closes. Without a database (OpenAPI generation) it
 * does nothing.
 */
@Injectable()
export class ThumbnailSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ThumbnailSweeper');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly images: ImagesService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.dataSource.isInitialized) return;
    this.timer = setInterval(() => this.trigger(), SWEEP_INTERVAL_MS);
    this.timer.unref();
    this.trigger();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Starts a sweep unless one is running. */
  private trigger(): void {
    if (this.running) return;
    this.running = this.images
      .sweepOrphans()
      .then(() => undefined)
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) this.logger.warn('thumbnail sweep skipped: the database is unavailable');
        else this.logger.error(`thumbnail sweep failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      })
      .finally(() => {
        this.running = undefined;
      });
  }
}
