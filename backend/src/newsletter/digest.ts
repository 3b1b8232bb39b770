import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { isDatabaseUnavailable } from '../common/database-unavailable';
import { APP_CONFIG, AppConfig } from '../config/env';
import { JobLock, JobLockIds } from '../database/job-lock';
import { JobRun, JobsService } from '../jobs/jobs.service';
import { delivered, Query, softBounce, suppress } from './bounces';
import { DigestPost, renderDigestEmail } from './newsletter-email/digest-email';
import { NewsletterLinks } from './newsletter-links';
import { NEWSLETTER_SITE_NAME } from './newsletter-post-email';
import { NewsletterTransport, smtpError, smtpOutcome } from './newsletter-transport';

export const DIGEST_QUEUE = 'newsletter-digest';
/** The digest goes out from this hour (site time) of the subscriber's weekday. */
export const DIGEST_HOUR = 8;
const SWEEP_SECONDS = 60;
const DIGEST_JOB_ROWS = 100;

/** The site-time date (YYYY-MM-DD), weekday (0 = Sunday) and hour of an instant. */
export function siteDay(instant: Date, timeZone: string): { date: string; weekday: number; hour: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
      weekday: 'short',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday);
  return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday, hour: Number(parts.hour) };
}

/**
 * The weekly digest (docs/newsletter.md#the-weekly-digest): subscribers with the 'weekly' cadence
 * get one e-mail on their weekday (site time zone, SITE_TIME_ZONE), from DIGEST_HOUR, listing the
 * posts published in the seven days before that day from what they follow (posts that were
 * e-mailed live or would have been: not imported ones, not those published without e-mail).
 *
 * A sweep every minute on ONE instance (the JobLock pattern of scheduled publishing) inserts one
 * `newsletter_digest_deliveries` row per (subscriber, week) — the unique key makes a second sweep,
 * a restart or another instance add nothing — and their send jobs, in one transaction. A send job
 * takes each row as the post sender does (FOR UPDATE SKIP LOCKED across the SMTP conversation,
 * then 'sent' and COMMIT), so a digest goes out once, with the post sender's one SMTP window.
 */
@Injectable()
export class NewsletterDigest implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('NewsletterDigest');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private readonly lock?: JobLock;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly jobs: JobsService,
    private readonly links: NewsletterLinks,
    private readonly transport: NewsletterTransport,
  ) {
    const url = (dataSource.options as { url?: string }).url;
    if (url) this.lock = new JobLock(url, JobLockIds.NEWSLETTER_DIGEST);
  }

  onModuleInit(): void {
    this.jobs.register<{ ids: number[] }>(DIGEST_QUEUE, (job) => this.send(job));
  }

  onApplicationBootstrap(): void {
    if (!this.dataSource.isInitialized || !this.lock) return;
    this.timer = setInterval(() => void this.sweep(), SWEEP_SECONDS * 1000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
    await this.lock?.release();
  }

  /** One sweep (unless one runs here, or another instance holds the lock): the digests due now. Answers how many were queued. */
  sweep(): Promise<number> {
    if (this.running) return this.running;
    const lock = this.lock;
    if (!lock) return Promise.resolve(0);
    this.running = lock
      .hold()
      .then((held) => (held ? this.queueDue() : 0))
      .catch((error: unknown) => {
        if (!isDatabaseUnavailable(error))
          this.logger.error(`digest sweep failed: ${error instanceof Error ? error.message : String(error)}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** The digests due at the clock's now: one row per weekly subscriber of today's weekday with posts that week, and their jobs. */
  async queueDue(): Promise<number> {
    const now = this.clock.now();
    const today = siteDay(now, this.config.siteTimeZone);
    if (today.hour < DIGEST_HOUR) return 0;
    return this.dataSource.transaction(async (manager) => {
      const rows: { id: string }[] = await manager.query(
        `WITH bounds AS (
           SELECT ($1::date - 7) AS week_start,
                  (($1::date - 7)::timestamp AT TIME ZONE $3) AS from_at,
                  ($1::date::timestamp AT TIME ZONE $3) AS to_at
         ), due AS (
           SELECT s.id AS subscriber_id,
                  ARRAY(SELECT p.id FROM posts p
                          JOIN newsletter_post_sends ps ON ps.post_id = p.id AND ps.send_email AND ps.state <> 'off', bounds b
                         WHERE p.status = 'PUBLISHED' AND p.published_at >= b.from_at AND p.published_at < b.to_at
                           AND (s.user_id IS NULL OR p.author_id <> s.user_id)
                           AND EXISTS (SELECT 1 FROM newsletter_follows f
                                        WHERE f.subscriber_id = s.id
                                          AND ((f.kind = 'publication' AND f.target_id = 0)
                                               OR (f.kind = 'author' AND f.target_id = p.author_id)
                                               OR (f.kind = 'tag' AND f.target_id IN (SELECT tag_id FROM post_tags WHERE post_id = p.id))))
                         ORDER BY p.published_at, p.id) AS post_ids
             FROM newsletter_subscribers s
             LEFT JOIN users u ON u.id = s.user_id
            WHERE s.status = 'active' AND s.cadence = 'weekly' AND s.digest_weekday = $2
              AND (s.user_id IS NULL OR u.status = 'ACTIVE')
              AND NOT EXISTS (SELECT 1 FROM newsletter_suppressions x WHERE x.email = s.email)
         )
         INSERT INTO newsletter_digest_deliveries (subscriber_id, week_start, post_ids)
         SELECT due.subscriber_id, b.week_start, due.post_ids FROM due, bounds b WHERE cardinality(due.post_ids) > 0
         ON CONFLICT (subscriber_id, week_start) DO NOTHING
         RETURNING id`,
        [today.date, today.weekday, this.config.siteTimeZone],
      );
      const ids = rows.map((row) => Number(row.id));
      const jobs: { ids: number[] }[] = [];
      for (let i = 0; i < ids.length; i += DIGEST_JOB_ROWS) jobs.push({ ids: ids.slice(i, i + DIGEST_JOB_ROWS) });
      await this.jobs.enqueueMany(manager, DIGEST_QUEUE, jobs);
      if (ids.length) this.logger.log(`${ids.length} weekly digest(s) queued`);
      return ids.length;
    });
  }

  /** A digest job: each row still 'queued', one at a time, locked across its SMTP conversation. */
  async send(job: JobRun<{ ids: number[] }>): Promise<void> {
    let retry = false;
    for (const id of job.data.ids) if ((await this.deliver(id, job.lastAttempt)) === 'retry') retry = true;
    if (retry) throw new Error('Weekly digests to retry');
  }

  private async deliver(id: number, lastAttempt: boolean): Promise<'done' | 'retry' | 'none'> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    const query: Query = (sql, params) => runner.query(sql, params) as Promise<unknown[]>;
    try {
      await runner.startTransaction();
      const [row] = (await query(
        `SELECT d.id, d.subscriber_id, d.week_start::text AS week_start, d.post_ids, s.email, s.status, s.cadence, s.soft_bounces,
                EXISTS (SELECT 1 FROM newsletter_suppressions x WHERE x.email = s.email) AS suppressed
           FROM newsletter_digest_deliveries d JOIN newsletter_subscribers s ON s.id = d.subscriber_id
          WHERE d.id = $1 AND d.state = 'queued' FOR UPDATE OF d SKIP LOCKED`,
        [id],
      )) as {
        id: string;
        subscriber_id: number;
        week_start: string;
        post_ids: number[];
        email: string;
        status: string;
        soft_bounces: number;
        suppressed: boolean;
      }[];
      if (!row) {
        await runner.commitTransaction();
        return 'none';
      }
      if (row.suppressed || row.status !== 'active') {
        await query(`UPDATE newsletter_digest_deliveries SET state = $2 WHERE id = $1`, [id, row.suppressed ? 'suppressed' : 'skipped']);
        await runner.commitTransaction();
        return 'done';
      }
      const posts = (await query(
        `SELECT p.title, p.slug, p.summary AS excerpt, u.full_name AS "authorName", p.reading_time AS "readingTime"
           FROM posts p JOIN users u ON u.id = p.author_id
          WHERE p.id = ANY($1::int[]) AND p.status = 'PUBLISHED' ORDER BY array_position($1::int[], p.id)`,
        [row.post_ids],
      )) as DigestPost[];
      if (!posts.length) {
        await query(
          `UPDATE newsletter_digest_deliveries SET state = 'skipped', last_error = 'No post of the week is public any more' WHERE id = $1`,
          [id],
        );
        await runner.commitTransaction();
        return 'done';
      }
      const unsubscribe = {
        url: this.links.unsubscribeAllUrl(row.subscriber_id),
        mailto: this.links.newsletterUnsubscribeAllMailto(row.subscriber_id),
      };
      const email = await renderDigestEmail(
        posts,
        {
          publicUrl: this.config.publicUrl,
          unsubscribe: unsubscribe.url,
          preferences: this.links.preferencesUrl(row.subscriber_id),
          weekOf: row.week_start,
        },
        NEWSLETTER_SITE_NAME,
      );
      let outcome: 'done' | 'retry' = 'done';
      try {
        await this.transport.send({
          to: row.email,
          email,
          messageId: `<newsletter-digest-${row.subscriber_id}-${row.week_start}@${new URL(this.config.publicUrl).hostname}>`,
          unsubscribe,
        });
        await query(
          `UPDATE newsletter_digest_deliveries SET state = 'sent', attempts = attempts + 1, sent_at = now(), last_error = NULL WHERE id = $1`,
          [id],
        );
        if (row.soft_bounces) await delivered(query, row.subscriber_id);
      } catch (error) {
        const kind = smtpOutcome(error);
        const reason = smtpError(error);
        if (kind === 'hard') {
          await query(`UPDATE newsletter_digest_deliveries SET state = 'bounced', attempts = attempts + 1, last_error = $2 WHERE id = $1`, [
            id,
            reason,
          ]);
          await suppress(query, row.email, 'hard_bounce', reason);
        } else {
          await query(
            `UPDATE newsletter_digest_deliveries SET attempts = attempts + 1, last_error = $2, state = CASE WHEN $3 THEN 'failed' ELSE 'queued' END WHERE id = $1`,
            [id, reason, lastAttempt],
          );
          if (lastAttempt && kind === 'soft') await softBounce(query, row.email, this.config.newsletter.softBounceLimit, reason);
          if (!lastAttempt) outcome = 'retry';
        }
      }
      await runner.commitTransaction();
      return outcome;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}
