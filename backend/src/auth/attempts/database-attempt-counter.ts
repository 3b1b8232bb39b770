import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/env';
import { deriveKey } from '../../common/secret-box';
import { AttemptCounter, AttemptVerdict } from './attempt-counter';

const SWEEP_INTERVAL_MS = 5 * 60_000;
/** Counts stop growing here (they only need to stay above any limit). */
const COUNT_CAP = 1_000_000;

/**
 * AttemptCounter in PostgreSQL: one row per key and window, counted with a single atomic upsert
 * (database time, so instances with skewed clocks agree). Survives restarts; rows whose window
 * has ended are deleted every few minutes.
 */
@Injectable()
export class DatabaseAttemptCounter extends AttemptCounter implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AttemptCounter');
  private readonly hashKey: Buffer;
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
    this.hashKey = deriveKey(config.jwtSecret, 'attempt-counter-keys');
  }

  onModuleInit(): void {
    this.sweepTimer = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  onModuleDestroy(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<AttemptVerdict> {
    const rows = (await this.dataSource.query(
      `INSERT INTO attempt_counters AS c (key_hash, count, window_ends_at)
       VALUES ($1, 1, now() + make_interval(secs => $2::double precision / 1000))
       ON CONFLICT (key_hash) DO UPDATE SET
         count = CASE WHEN c.window_ends_at <= now() THEN 1 ELSE LEAST(c.count + 1, $3) END,
         window_ends_at = CASE WHEN c.window_ends_at <= now() THEN EXCLUDED.window_ends_at ELSE c.window_ends_at END
       RETURNING count, GREATEST(0, CEIL(EXTRACT(EPOCH FROM (window_ends_at - now()))))::int AS "retryAfter"`,
      [this.hashOf(key), windowMs, COUNT_CAP],
    )) as { count: number; retryAfter: number }[];
    const { count, retryAfter } = rows[0];
    return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, retryAfter) };
  }

  async reset(key: string): Promise<void> {
    await this.dataSource.query('DELETE FROM attempt_counters WHERE key_hash = $1', [this.hashOf(key)]);
  }

  /** Deletes the counters whose window has ended. */
  async sweep(): Promise<void> {
    if (!this.dataSource.isInitialized) return;
    try {
      await this.dataSource.query('DELETE FROM attempt_counters WHERE window_ends_at <= now()');
    } catch (error) {
      this.logger.warn(`could not sweep ended attempt counters: ${String(error)}`);
    }
  }

  private hashOf(key: string): string {
    return createHmac('sha256', this.hashKey).update(key).digest('hex');
  }
}
