import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool, type PoolClient } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import { DomainEvents, LIVE_ONLY } from '../events/domain-events.service';
import { JobRun, JobsService } from '../jobs/jobs.service';
import { delivered, Query, softBounce, suppress } from './bounces';
import { RenderedEmail } from './newsletter-email/post-email';
import { NewsletterLinks } from './newsletter-links';
import { NewsletterPost, NewsletterPostEmail } from './newsletter-post-email';
import { RECIPIENTS_SQL } from './newsletter-recipients';
import { NEWSLETTER_SMTP_CONNECTIONS, NewsletterTransport, PreparedMessage, smtpError, smtpOutcome } from './newsletter-transport';

/** Queues (pg-boss): one fan-out job per published post; send jobs of up to SEND_BATCH delivery rows each. */
export const FANOUT_QUEUE = 'newsletter-fanout';
export const SEND_QUEUE = 'newsletter-send';
/** Delivery rows per send job at an unlimited pace. */
export const SEND_BATCH = 200;

/** `publishedAt`: the publishing transaction's time; only follows made by then receive the post. */
interface FanoutJob {
  postId: number;
  publishedAt?: string;
}

export interface SendJob {
  postId: number;
  /** The job's delivery rows: ids from `fromId` to `toId` of this post. */
  fromId: number;
  toId: number;
}

/** The rows of a send job, how long apart their sends start, and when each job starts (the pace). */
export function sendPlan(ratePerMinute: number): { batch: number; gapMs: number } {
  if (!ratePerMinute) return { batch: SEND_BATCH, gapMs: 0 };
  // About five seconds of sending per job: a job never outlives JOB_EXPIRE_SECONDS (10 s at least).
  return { batch: Math.max(1, Math.min(SEND_BATCH, Math.ceil(ratePerMinute / 12))), gapMs: 60_000 / ratePerMinute };
}

interface Claimed {
  id: string;
  subscriber_id: number;
  email: string;
  status: string;
  soft_bounces: number;
  account_ok: boolean;
  suppressed: boolean;
  follow_id: number | null;
  kind: string | null;
  target_id: number | null;
}

type Outcome = 'sent' | 'retry' | 'final';

/**
 * Sends each published post to its subscribers (docs/newsletter.md#sending), exactly once per
 * (post, subscriber), whatever crashes:
 *
 * 1. `post.published` (live only; an import's historic publish and a post e-mailed before are
 *    not sent) writes the post's `newsletter_post_sends` row and ONE fan-out job in the
 *    publishing transaction: both exist exactly when the publish committed.
 * 2. The fan-out job, in one transaction, inserts one `newsletter_deliveries` row per recipient
 *    (INSERT … SELECT … ON CONFLICT DO NOTHING on the unique (post, subscriber): one row however
 *    many follows match) and the send jobs over ranges of those rows. Run twice (a crash after its
 *    commit), it finds the send row past 'queued' and does nothing.
 * 3. A send job takes each of its rows in a transaction of its own, on a pool of its own:
 *    `SELECT … FOR UPDATE SKIP LOCKED` (a row another worker holds, or one no longer 'queued', is
 *    left alone), hands the e-mail to SMTP, marks the row 'sent' and COMMITs. The row lock is held
 *    across the SMTP conversation, so two instances (or a job and its own re-run) never send one
 *    row at the same time. A kill -9 anywhere before the COMMIT drops the connection: PostgreSQL
 *    rolls the transaction back, the row is 'queued' again, and the job (expired by the queue after
 *    JOB_EXPIRE_SECONDS, or its other copy) sends it. Nobody is skipped.
 * 4. The one window left is SMTP's own: the server accepted the message (its 250 answer) and the
 *    process died before the COMMIT. That row is sent again, with the same Message-ID
 *    (`<newsletter-<post>-<subscriber>@host>`), which receivers treat as one message. The window is
 *    one COMMIT long per e-mail, and at most NEWSLETTER_SMTP_CONNECTIONS rows per instance are in
 *    it at once: a kill -9 can repeat at most that many e-mails. The benchmark's `--kill` mode
 *    counts such copies.
 *
 * SMTP answers: 5xx → the row is 'bounced' and the address suppressed ('hard_bounce'); 4xx → the
 * row stays 'queued' and the job is retried with backoff (JOB_RETRY_*); after the last retry it is
 * 'failed' and counts one soft bounce (NEWSLETTER_SOFT_BOUNCE_LIMIT in a row suppress the address).
 * An unreachable server is retried the same way without counting against the address.
 */
@Injectable()
export class NewsletterSender implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Newsletter');
  private pool?: Pool;
  private readonly host: string;
  /** The prepared MIME of the posts being sent (newsletter-transport.ts), per post version. */
  private readonly prepared = new Map<string, Promise<PreparedMessage | undefined>>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: DomainEvents,
    private readonly jobs: JobsService,
    private readonly links: NewsletterLinks,
    private readonly posts: NewsletterPostEmail,
    private readonly transport: NewsletterTransport,
  ) {
    this.host = new URL(config.publicUrl).hostname;
  }

  onModuleInit(): void {
    this.events.onRecorded('post.published', (event, manager) => this.onPublished(manager, event.data.postId), LIVE_ONLY);
    // Heard for historic events too: an imported post is marked as never to be e-mailed, so a later live
    // re-publish of it does not send it either.
    this.events.onRecorded('post.published', async (event, manager) => {
      if (event.data.via === 'import') await this.markOff(manager, event.data.postId);
    });
    this.jobs.register<FanoutJob>(FANOUT_QUEUE, (job) => this.fanOut(job.data.postId, job.data.publishedAt ?? null));
    // One send job at a time per instance; each sends NEWSLETTER_SMTP_CONNECTIONS e-mails at once.
    this.jobs.register<SendJob>(SEND_QUEUE, (job) => this.send(job), 'standard', { batchSize: 1 });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.end().catch(() => undefined);
  }

  /**
   * In the publishing transaction: the post's send row goes 'queued' with its fan-out job, unless
   * it was e-mailed (or is being) before, or an admin chose 'Publish without e-mail' ('off').
   */
  async onPublished(manager: EntityManager, postId: number): Promise<void> {
    const rows: { state: string; published_at: Date }[] = await manager.query(
      `INSERT INTO newsletter_post_sends (post_id, state) VALUES ($1, 'queued')
       ON CONFLICT (post_id) DO UPDATE SET state = CASE WHEN newsletter_post_sends.send_email THEN 'queued' ELSE 'off' END
        WHERE newsletter_post_sends.state = 'pending'
       RETURNING state, now() AS published_at`,
      [postId],
    );
    if (rows[0]?.state === 'queued') {
      const publishedAt = new Date(rows[0].published_at).toISOString();
      await this.jobs.enqueue(manager, FANOUT_QUEUE, { postId, publishedAt } satisfies FanoutJob);
    }
  }

  private async markOff(manager: EntityManager, postId: number): Promise<void> {
    await manager.query(
      `INSERT INTO newsletter_post_sends (post_id, send_email, state) VALUES ($1, false, 'off')
       ON CONFLICT (post_id) DO UPDATE SET state = 'off' WHERE newsletter_post_sends.state = 'pending'`,
      [postId],
    );
  }

  /** The fan-out: every recipient's delivery row and the send jobs, in one transaction. */
  async fanOut(postId: number, publishedAt: string | null): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const [send]: { state: string }[] = await manager.query(`SELECT state FROM newsletter_post_sends WHERE post_id = $1 FOR UPDATE`, [
        postId,
      ]);
      if (send?.state !== 'queued') return;
      const post = await this.posts.post(postId, manager);
      if (!post || post.status !== 'PUBLISHED') {
        await manager.query(`UPDATE newsletter_post_sends SET state = 'off', finished_at = now() WHERE post_id = $1`, [postId]);
        return;
      }
      const inserted: { count: string }[] = await manager.query(
        `WITH written AS (
           INSERT INTO newsletter_deliveries (post_id, subscriber_id)
           SELECT $4::int, r.subscriber_id FROM (${RECIPIENTS_SQL}) r
           ON CONFLICT (post_id, subscriber_id) DO NOTHING RETURNING 1
         ) SELECT count(*) AS count FROM written`,
        [post.authorId, post.tags.map((tag) => tag.id), publishedAt, postId],
      );
      const recipients = Number(inserted[0].count);
      await this.enqueueSends(manager, postId);
      await manager.query(
        `UPDATE newsletter_post_sends SET state = CASE WHEN $2::int = 0 THEN 'done' ELSE 'sending' END, recipients = $2,
                finished_at = CASE WHEN $2::int = 0 THEN now() END WHERE post_id = $1`,
        [postId, recipients],
      );
      this.logger.log(`post ${postId}: ${recipients} newsletter e-mail(s) queued`);
    });
  }

  /**
   * Send jobs over the post's 'queued' rows, in ranges of the pace's batch; with a pace, job i
   * starts i × (batch / rate) minutes from now, so every instance together keeps the rate.
   */
  async enqueueSends(manager: EntityManager, postId: number): Promise<number> {
    const { batch, gapMs } = sendPlan(this.config.newsletter.ratePerMinute);
    const ranges: { from_id: string; to_id: string }[] = await manager.query(
      `SELECT min(id) AS from_id, max(id) AS to_id
         FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1) / $2 AS chunk FROM newsletter_deliveries WHERE post_id = $1 AND state = 'queued') c
        GROUP BY chunk ORDER BY chunk`,
      [postId, batch],
    );
    const jobs: SendJob[] = ranges.map((range) => ({ postId, fromId: Number(range.from_id), toId: Number(range.to_id) }));
    if (!gapMs) await this.jobs.enqueueMany(manager, SEND_QUEUE, jobs);
    else {
      const start = Date.now();
      for (const [index, job] of jobs.entries())
        await this.jobs.enqueue(manager, SEND_QUEUE, job, index ? { startAfter: new Date(start + index * batch * gapMs) } : {});
    }
    return jobs.length;
  }

  /** A send job: each of its rows still 'queued', NEWSLETTER_SMTP_CONNECTIONS at a time (spaced by the pace). */
  async send(job: JobRun<SendJob>): Promise<void> {
    const { postId, fromId, toId } = job.data;
    const ids = (
      await this.dataSource.query(
        `SELECT id FROM newsletter_deliveries WHERE post_id = $1 AND id BETWEEN $2 AND $3 AND state = 'queued' ORDER BY id`,
        [postId, fromId, toId],
      )
    ).map((row: { id: string }) => row.id) as string[];
    if (ids.length) {
      const post = await this.posts.post(postId);
      if (!post) return;
      const email = await this.posts.render(post);
      const prepared = await this.preparedFor(post, email);
      const { gapMs } = sendPlan(this.config.newsletter.ratePerMinute);
      const started = Date.now();
      let next = 0;
      let retry = false;
      const worker = async () => {
        while (next < ids.length) {
          const index = next++;
          const wait = started + index * gapMs - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          if ((await this.deliver(ids[index], post, email, prepared, job.lastAttempt)) === 'retry') retry = true;
        }
      };
      await Promise.all(Array.from({ length: Math.min(NEWSLETTER_SMTP_CONNECTIONS, ids.length) }, worker));
      // A 4xx or an unreachable server: the job is retried with backoff and takes the rows still 'queued'.
      if (retry) throw new Error(`Newsletter e-mails of post ${postId} (rows ${fromId}-${toId}) to retry`);
    }
    await this.finishIfDone(postId);
  }

  /** A post whose rows are all past 'queued' has finished sending. */
  async finishIfDone(postId: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE newsletter_post_sends SET state = 'done', finished_at = now()
        WHERE post_id = $1 AND state = 'sending'
          AND NOT EXISTS (SELECT 1 FROM newsletter_deliveries WHERE post_id = $1 AND state = 'queued')`,
      [postId],
    );
  }

  /** One row, in its own transaction, locked across the SMTP conversation (see the class comment). */
  private preparedFor(post: NewsletterPost, email: RenderedEmail): Promise<PreparedMessage | undefined> {
    const key = `${post.id}:${post.version}`;
    let prepared = this.prepared.get(key);
    if (!prepared) {
      prepared = this.transport.prepare(email).catch(() => undefined);
      this.prepared.set(key, prepared);
      while (this.prepared.size > 8) this.prepared.delete(this.prepared.keys().next().value as string);
    }
    return prepared;
  }

  private async deliver(
    id: string,
    post: NewsletterPost,
    email: RenderedEmail,
    prepared: PreparedMessage | undefined,
    lastAttempt: boolean,
  ): Promise<Outcome | 'none'> {
    const client = await this.connection();
    const query: Query = async (sql, params) => (await client.query(sql, params)).rows;
    let open = false;
    try {
      await client.query('BEGIN');
      open = true;
      const [row] = (await query(
        `SELECT d.id, d.subscriber_id, s.email, s.status, s.soft_bounces,
                (s.user_id IS NULL OR u.status = 'ACTIVE') AS account_ok,
                EXISTS (SELECT 1 FROM newsletter_suppressions x WHERE x.email = s.email) AS suppressed,
                f.id AS follow_id, f.kind, f.target_id
           FROM newsletter_deliveries d
           JOIN newsletter_subscribers s ON s.id = d.subscriber_id
           LEFT JOIN users u ON u.id = s.user_id
           LEFT JOIN LATERAL (
             SELECT f.id, f.kind, f.target_id FROM newsletter_follows f
              WHERE f.subscriber_id = s.id
                AND ((f.kind = 'publication' AND f.target_id = 0) OR (f.kind = 'author' AND f.target_id = $2)
                     OR (f.kind = 'tag' AND f.target_id = ANY($3::int[])))
              ORDER BY CASE f.kind WHEN 'author' THEN 0 WHEN 'tag' THEN 1 ELSE 2 END, f.id LIMIT 1
           ) f ON true
          WHERE d.id = $1 AND d.state = 'queued'
          FOR UPDATE OF d SKIP LOCKED`,
        [id, post.authorId, post.tags.map((tag) => tag.id)],
      )) as Claimed[];
      // Another worker holds it, or it is no longer 'queued': not ours.
      if (!row) return 'none';
      const skip =
        !row.account_ok || row.status !== 'active'
          ? 'The subscriber is no longer active'
          : !row.follow_id
            ? 'No follow matches the post any more'
            : null;
      if (row.suppressed || skip) {
        await query(`UPDATE newsletter_deliveries SET state = $2, last_error = $3 WHERE id = $1`, [
          id,
          row.suppressed ? 'suppressed' : 'skipped',
          row.suppressed ? 'The address is on the suppression list' : skip,
        ]);
        return 'final';
      }
      return await this.sendOne(query, row, post, email, prepared, lastAttempt);
    } catch (error) {
      if (open) await client.query('ROLLBACK').catch(() => undefined);
      open = false;
      client.release(error instanceof Error ? error : true);
      throw error;
    } finally {
      if (open) {
        try {
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      }
    }
  }

  private async sendOne(
    query: Query,
    row: Claimed,
    post: NewsletterPost,
    email: RenderedEmail,
    prepared: PreparedMessage | undefined,
    lastAttempt: boolean,
  ): Promise<Outcome> {
    const unsubscribe = { url: this.links.unsubscribeUrl(row.follow_id!), mailto: this.links.newsletterUnsubscribeMailto(row.follow_id!) };
    try {
      await this.transport.sendPrepared(prepared, email, {
        to: row.email,
        messageId: `<newsletter-${post.id}-${row.subscriber_id}@${this.host}>`,
        unsubscribe,
        slots: {
          unsubscribe: unsubscribe.url,
          preferences: this.links.preferencesUrl(row.subscriber_id),
          reason: this.posts.reason(post, row.kind!, row.target_id!),
        },
      });
    } catch (error) {
      const outcome = smtpOutcome(error);
      const reason = smtpError(error);
      if (outcome === 'hard') {
        await query(`UPDATE newsletter_deliveries SET state = 'bounced', attempts = attempts + 1, last_error = $2 WHERE id = $1`, [
          row.id,
          reason,
        ]);
        await suppress(query, row.email, 'hard_bounce', reason);
        return 'final';
      }
      await query(
        `UPDATE newsletter_deliveries SET attempts = attempts + 1, last_error = $2, state = CASE WHEN $3 THEN 'failed' ELSE 'queued' END WHERE id = $1`,
        [row.id, reason, lastAttempt],
      );
      if (!lastAttempt) return 'retry';
      if (outcome === 'soft') await softBounce(query, row.email, this.config.newsletter.softBounceLimit, reason);
      this.logger.warn(`newsletter e-mail of post ${post.id} to subscriber ${row.subscriber_id} failed for good: ${reason}`);
      return 'final';
    }
    await query(
      `UPDATE newsletter_deliveries SET state = 'sent', attempts = attempts + 1, sent_at = now(), last_error = NULL WHERE id = $1`,
      [row.id],
    );
    if (row.soft_bounces) await delivered(query, row.subscriber_id);
    return 'sent';
  }

  /** A connection of the sender's own pool (one per e-mail in flight, so the app's pool serves the pages meanwhile). */
  private async connection(): Promise<PoolClient> {
    if (!this.pool) {
      const url = (this.dataSource.options as { url?: string }).url;
      this.pool = new Pool({ connectionString: url, max: NEWSLETTER_SMTP_CONNECTIONS + 1, application_name: 'inkwell-newsletter' });
      this.pool.on('error', (error) => this.logger.warn(`newsletter database connection lost: ${error.message}`));
    }
    return this.pool.connect();
  }
}
