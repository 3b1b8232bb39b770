import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool, type PoolClient, type QueryResult } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import { DomainEvents, LIVE_ONLY } from '../events/domain-events.service';
import { JobRun, JobsService } from '../jobs/jobs.service';
import { Query, softBounce, suppress } from './bounces';
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
  /** What the claim recorded: 'sent' (to be committed after the SMTP server's 250), 'skipped' or 'suppressed'. */
  outcome: 'sent' | 'skipped' | 'suppressed';
}

/** An integer for a statement's text (the claim is sent with the simple query protocol). */
function sqlInt(value: number | string): string {
  const text = String(value);
  if (!/^-?\d{1,19}$/.test(text)) throw new Error(`not an integer: ${text}`);
  return text;
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
 * 3. A send job takes each of its rows in a transaction of its own, on a pool of its own: one
 *    statement locks the row (`FOR UPDATE SKIP LOCKED`: a row another worker holds, or one no
 *    longer 'queued', is left alone) and writes its outcome ('sent', uncommitted, or 'skipped' /
 *    'suppressed'); the e-mail goes to SMTP; on the 250 the COMMIT goes at once. The row lock is
 *    held across the SMTP conversation, so two instances (or a job and its own re-run) never send
 *    one row at the same time. A kill -9 anywhere before the COMMIT drops the connection:
 *    PostgreSQL rolls the transaction back, the row is 'queued' again, and the job (expired by the
 *    queue after JOB_EXPIRE_SECONDS, or its other copy) sends it. Nobody is skipped.
 * 4. The one window left is SMTP's own: the server accepted the message and the process died
 *    before the COMMIT left it. That row is sent again, with the same Message-ID
 *    (`<newsletter-<post>-<subscriber>@host>`), which receivers treat as one message. The window
 *    runs from the message's last line to the COMMIT's write, which follows the 250 in the same
 *    event-loop turn (`deliverRows`); at most NEWSLETTER_SMTP_CONNECTIONS rows per instance are in
 *    it at once. The benchmark's `--kill` mode counts such copies.
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

  /**
   * A send job: each of its rows still 'queued', NEWSLETTER_SMTP_CONNECTIONS at a time (spaced by
   * the pace). Each worker keeps one database connection for the job and one transaction per row.
   */
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
      const take = () => (next < ids.length ? next++ : -1);
      const worker = async () => {
        if ((await this.deliverRows(take, (index) => started + index * gapMs, ids, post, email, prepared, job.lastAttempt)) === 'retry')
          retry = true;
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

  /** The post version's prepared MIME, made once per instance (the last few kept). */
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

  /**
   * One worker of a send job: the rows `take` hands it, each in a transaction of its own on one
   * connection (see the class comment). The claim (`claimSql`) locks the row and, in the same
   * statement, records what happens to it: 'skipped' or 'suppressed', or 'sent' before the e-mail
   * goes (uncommitted: nobody sees it until the COMMIT). After the SMTP server's 250 nothing is left
   * to do but the COMMIT, sent at once and in the same write as the next row's claim
   * (`COMMIT; BEGIN; <claim>`): the window in which a kill -9 repeats an e-mail is the time from
   * the 250 to that one write, with no database round trip and no other event-loop work in it.
   * One round trip to the database per e-mail.
   */
  private async deliverRows(
    take: () => number,
    due: (index: number) => number,
    ids: string[],
    post: NewsletterPost,
    email: RenderedEmail,
    prepared: PreparedMessage | undefined,
    lastAttempt: boolean,
  ): Promise<'retry' | 'done'> {
    const client = await this.connection();
    const query: Query = async (sql, params) => (await client.query(sql, params)).rows;
    const simple = async (sql: string) => {
      const results = (await client.query(sql)) as unknown as QueryResult | QueryResult[];
      return (Array.isArray(results) ? results[results.length - 1] : results).rows as Claimed[];
    };
    // Whether a transaction is open on the connection, and what it still has to do before its COMMIT.
    let open = false;
    let beforeCommit = '';
    let retry = false;
    try {
      for (;;) {
        const index = take();
        const wait = index === -1 ? 0 : due(index) - Date.now();
        if (open && (index === -1 || wait > 0)) {
          // Nothing more to send now: what is open is committed before any wait.
          await client.query(`${beforeCommit}COMMIT`);
          open = false;
        }
        if (index === -1) break;
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const [row] = await simple(`${open ? `${beforeCommit}COMMIT; ` : ''}BEGIN; ${this.claimSql(ids[index], post)}`);
        open = true;
        beforeCommit = '';
        // Not ours (another worker holds it, or it is no longer 'queued'), or skipped or suppressed
        // (recorded by the claim): committed with the next claim.
        if (!row || row.outcome !== 'sent') continue;
        const outcome = await this.sendOne(query, row, post, email, prepared, lastAttempt);
        // Sent: a delivered e-mail sets the soft bounces back to 0, in its row's transaction.
        if (outcome === 'sent' && row.soft_bounces)
          beforeCommit = `UPDATE newsletter_subscribers SET soft_bounces = 0 WHERE id = ${sqlInt(row.subscriber_id)}; `;
        if (outcome === 'retry') retry = true;
      }
      client.release();
      return retry ? 'retry' : 'done';
    } catch (error) {
      if (open) await client.query('ROLLBACK').catch(() => undefined);
      client.release(error instanceof Error ? error : true);
      throw error;
    }
  }

  /**
   * The claim of one row (simple query protocol, so that it can share a write with the previous
   * row's COMMIT; the values are integers, checked): the row locked (SKIP LOCKED: another worker's
   * is left alone), the subscriber's state read, and the row's outcome written: 'suppressed',
   * 'skipped', or 'sent' with its attempt counted, to be committed after the SMTP server's 250.
   */
  private claimSql(id: string, post: NewsletterPost): string {
    const tags = post.tags.map((tag) => sqlInt(tag.id)).join(',');
    return `WITH c AS (
        SELECT d.id, d.subscriber_id, s.email, s.status, s.soft_bounces,
               (s.user_id IS NULL OR u.status = 'ACTIVE') AS account_ok,
               EXISTS (SELECT 1 FROM newsletter_suppressions x WHERE x.email = s.email) AS suppressed,
               f.id AS follow_id, f.kind, f.target_id
          FROM newsletter_deliveries d
          JOIN newsletter_subscribers s ON s.id = d.subscriber_id
          LEFT JOIN users u ON u.id = s.user_id
          LEFT JOIN LATERAL (
            SELECT f.id, f.kind, f.target_id FROM newsletter_follows f
             WHERE f.subscriber_id = s.id
               AND ((f.kind = 'publication' AND f.target_id = 0) OR (f.kind = 'author' AND f.target_id = ${sqlInt(post.authorId)})
                    OR (f.kind = 'tag' AND f.target_id = ANY('{${tags}}'::int[])))
             ORDER BY CASE f.kind WHEN 'author' THEN 0 WHEN 'tag' THEN 1 ELSE 2 END, f.id LIMIT 1
          ) f ON true
         WHERE d.id = ${sqlInt(id)} AND d.state = 'queued'
         FOR UPDATE OF d SKIP LOCKED
      ), o AS (
        SELECT c.id, CASE WHEN c.suppressed THEN 'suppressed'
                          WHEN NOT c.account_ok OR c.status <> 'active' OR c.follow_id IS NULL THEN 'skipped'
                          ELSE 'sent' END AS outcome
          FROM c
      ), w AS (
        UPDATE newsletter_deliveries d
           SET state = o.outcome,
               attempts = d.attempts + CASE WHEN o.outcome = 'sent' THEN 1 ELSE 0 END,
               sent_at = CASE WHEN o.outcome = 'sent' THEN now() END,
               last_error = CASE WHEN o.outcome = 'suppressed' THEN 'The address is on the suppression list'
                                 WHEN o.outcome = 'skipped' AND c.follow_id IS NULL AND c.account_ok AND c.status = 'active'
                                   THEN 'No follow matches the post any more'
                                 WHEN o.outcome = 'skipped' THEN 'The subscriber is no longer active' END
          FROM o JOIN c ON c.id = o.id
         WHERE d.id = o.id
      )
      SELECT c.*, o.outcome FROM c JOIN o ON o.id = c.id`;
  }

  /** The e-mail of a claimed row; on a refusal the row's outcome is rewritten (in its transaction, still open). */
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
      return 'sent';
    } catch (error) {
      // The claim counted the attempt and wrote 'sent'; the answer decides instead.
      const outcome = smtpOutcome(error);
      const reason = smtpError(error);
      if (outcome === 'hard') {
        await query(`UPDATE newsletter_deliveries SET state = 'bounced', sent_at = NULL, last_error = $2 WHERE id = $1`, [row.id, reason]);
        await suppress(query, row.email, 'hard_bounce', reason);
        return 'final';
      }
      await query(
        `UPDATE newsletter_deliveries SET sent_at = NULL, last_error = $2, state = CASE WHEN $3 THEN 'failed' ELSE 'queued' END WHERE id = $1`,
        [row.id, reason, lastAttempt],
      );
      if (!lastAttempt) return 'retry';
      if (outcome === 'soft') await softBounce(query, row.email, this.config.newsletter.softBounceLimit, reason);
      this.logger.warn(`newsletter e-mail of post ${post.id} to subscriber ${row.subscriber_id} failed for good: ${reason}`);
      return 'final';
    }
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
