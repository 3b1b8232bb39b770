import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isDatabaseUnavailable } from '../common/database-unavailable';
import { CLOCK, type Clock } from '../common/clock';
import { APP_CONFIG, AppConfig } from '../config/env';
import { JobLock, JobLockIds } from '../database/job-lock';
import { PageViewRecorder } from './page-view-recorder.service';

/** How often the rollup looks for complete hours and days. */
const ROLLUP_INTERVAL_MS = 60_000;
/**
 * An hour (a day) is rolled up this long after it ends: every instance has written its views of
 * it by then (views are written within a second; this leaves room for a slow flush).
 */
export const ROLLUP_GRACE_MS = 2 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface RollupResult {
  hourlyUntil: Date;
  dailyUntil: string;
  deletedRaw: number;
}

const utcDay = (time: number): string => new Date(time).toISOString().slice(0, 10);

/**
 * Rolls the raw view rows up and deletes what is no longer needed (docs/analytics.md, 'Storage'):
 * once a minute, on one instance (JobLock, like the scheduled publisher), complete hours go into
 * analytics_hourly (per post, source and device) and complete UTC days into analytics_daily (per
 * post: views and unique visitors), analytics_daily_scope (per author, 0 = the site's other
 * pages, -1 = the whole site: views and unique visitors, which cannot be added up from the posts')
 * and analytics_daily_sources (per author and for the whole site, -1: source groups with their hosts, and device classes).
 * Each step moves a watermark in analytics_rollup_state in the same transaction, so a period is
 * rolled up exactly once. Raw rows older than ANALYTICS_RAW_DAYS (and rolled up) are deleted, and
 * so are the salts of past days. The stats read the rollups before the daily watermark and the raw
 * rows after it.
 */
@Injectable()
export class AnalyticsRollup implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AnalyticsRollup');
  private timer?: NodeJS.Timeout;
  private running?: Promise<RollupResult | undefined>;
  readonly lock?: JobLock;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly recorder: PageViewRecorder,
  ) {
    const url = (dataSource.options as { url?: string }).url;
    if (url) this.lock = new JobLock(url, JobLockIds.ANALYTICS_ROLLUP);
  }

  onApplicationBootstrap(): void {
    if (!this.dataSource.isInitialized || !this.lock) return;
    this.timer = setInterval(() => void this.sweep(), ROLLUP_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.lock?.release();
  }

  /** One pass on the instance holding the lock (nothing elsewhere). */
  sweep(): Promise<RollupResult | undefined> {
    if (this.running) return this.running;
    const lock = this.lock;
    if (!lock) return Promise.resolve(undefined);
    this.running = lock
      .hold()
      .then((held) => (held ? this.rollUp(this.clock.now()) : undefined))
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) this.logger.warn('analytics rollup skipped: the database is unavailable');
        else this.logger.error(`analytics rollup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return undefined;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** Rolls up every hour and day complete by `now` (less the grace) and deletes expired raw rows and salts. */
  async rollUp(now: Date): Promise<RollupResult> {
    const result = await AnalyticsRollup.run(this.dataSource, now, this.config.analytics.rawDays);
    this.recorder.forgetSaltsBefore(utcDay(now.getTime()));
    return result;
  }

  /** One rollup pass in one transaction (also seed:demo's, after writing past views). */
  static async run(dataSource: DataSource, now: Date, rawDays: number): Promise<RollupResult> {
    const settled = now.getTime() - ROLLUP_GRACE_MS;
    const hour = new Date(Math.floor(settled / HOUR_MS) * HOUR_MS);
    const day = utcDay(settled);
    const today = utcDay(now.getTime());
    const keepFrom = new Date(Date.parse(today) - rawDays * DAY_MS);
    return dataSource.transaction(async (manager) => {
      const [state] = (await manager.query(
        `SELECT hourly_until, to_char(daily_until, 'YYYY-MM-DD') AS daily_until FROM analytics_rollup_state WHERE id = 1 FOR UPDATE`,
      )) as { hourly_until: Date; daily_until: string }[];
      let hourlyUntil = state.hourly_until;
      let dailyUntil = state.daily_until;
      if (hour > hourlyUntil) {
        await rollUpHours(manager, hourlyUntil, hour);
        hourlyUntil = hour;
      }
      if (day > dailyUntil) {
        await rollUpDays(manager, new Date(`${dailyUntil}T00:00:00Z`), new Date(`${day}T00:00:00Z`));
        dailyUntil = day;
      }
      await manager.query(`UPDATE analytics_rollup_state SET hourly_until = $1, daily_until = $2 WHERE id = 1`, [hourlyUntil, dailyUntil]);
      const rolled = new Date(`${dailyUntil}T00:00:00Z`);
      const [, deletedRaw] = (await manager.query(`DELETE FROM analytics_views WHERE ts < $1`, [
        keepFrom < rolled ? keepFrom : rolled,
      ])) as [unknown, number];
      await manager.query(`DELETE FROM analytics_salts WHERE day < $1`, [today]);
      return { hourlyUntil, dailyUntil, deletedRaw: deletedRaw ?? 0 };
    });
  }

  /** Moves the watermarks back to `from` (seed:demo, after writing past views): the next rollUp rolls everything since up. */
  static async rewind(manager: EntityManager | DataSource, from: Date): Promise<void> {
    await manager.query(`UPDATE analytics_rollup_state SET hourly_until = $1, daily_until = $2 WHERE id = 1`, [
      new Date(Math.floor(from.getTime() / DAY_MS) * DAY_MS),
      utcDay(from.getTime()),
    ]);
  }
}

async function rollUpHours(manager: EntityManager, from: Date, to: Date): Promise<void> {
  await manager.query(
    `INSERT INTO analytics_hourly (hour, post_id, author_id, source, source_host, device, views)
     SELECT date_trunc('hour', ts), coalesce(post_id, 0), coalesce(author_id, 0), source, source_host, device, count(*)
     FROM analytics_views WHERE ts >= $1 AND ts < $2
     GROUP BY 1, 2, 3, 4, 5, 6
     ON CONFLICT (post_id, hour, source, source_host, device) DO UPDATE SET views = analytics_hourly.views + EXCLUDED.views`,
    [from, to],
  );
}

async function rollUpDays(manager: EntityManager, from: Date, to: Date): Promise<void> {
  const day = `(ts AT TIME ZONE 'UTC')::date`;
  const range = `ts >= $1 AND ts < $2`;
  await manager.query(
    `INSERT INTO analytics_daily (day, post_id, author_id, views, visitors)
     SELECT ${day}, post_id, author_id, count(*), count(DISTINCT visitor)
     FROM analytics_views WHERE ${range} AND post_id IS NOT NULL
     GROUP BY 1, 2, 3
     ON CONFLICT (post_id, day) DO UPDATE SET views = analytics_daily.views + EXCLUDED.views, visitors = GREATEST(analytics_daily.visitors, EXCLUDED.visitors)`,
    [from, to],
  );
  await manager.query(
    `INSERT INTO analytics_daily_scope (day, scope, views, visitors)
     SELECT ${day}, coalesce(author_id, 0), count(*), count(DISTINCT visitor) FROM analytics_views WHERE ${range} GROUP BY 1, 2
     UNION ALL
     SELECT ${day}, -1, count(*), count(DISTINCT visitor) FROM analytics_views WHERE ${range} GROUP BY 1
     ON CONFLICT (scope, day) DO UPDATE SET views = analytics_daily_scope.views + EXCLUDED.views, visitors = GREATEST(analytics_daily_scope.visitors, EXCLUDED.visitors)`,
    [from, to],
  );
  await manager.query(
    `INSERT INTO analytics_daily_sources (day, scope, kind, name, host, views)
     SELECT ${day}, coalesce(author_id, 0), 'source', source, source_host, count(*) FROM analytics_views WHERE ${range} GROUP BY 1, 2, 4, 5
     UNION ALL
     SELECT ${day}, coalesce(author_id, 0), 'device', device, '', count(*) FROM analytics_views WHERE ${range} GROUP BY 1, 2, 4
     UNION ALL
     SELECT ${day}, -1, 'source', source, source_host, count(*) FROM analytics_views WHERE ${range} GROUP BY 1, 4, 5
     UNION ALL
     SELECT ${day}, -1, 'device', device, '', count(*) FROM analytics_views WHERE ${range} GROUP BY 1, 4
     ON CONFLICT (scope, day, kind, name, host) DO UPDATE SET views = analytics_daily_sources.views + EXCLUDED.views`,
    [from, to],
  );
}
