import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SecretBox } from '../common/secret-box';
import { APP_CONFIG, AppConfig } from '../config/env';
import { JobsService } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { AttemptResult, sendWebhook } from './webhook-sender';
import { WebhooksMessages } from './webhooks.messages';

/** The job queue of deliveries: one job per attempt, `{ deliveryId, generation }`. */
export const WEBHOOK_QUEUE = 'webhook-delivery';
/** Attempts kept per webhook in the delivery log. */
export const LOG_SIZE = 100;
/** The log is trimmed to LOG_SIZE when an attempt's id is a multiple of this (the API reads the newest LOG_SIZE). */
const PRUNE_EVERY = 20;
/** Deliveries sent side by side by one instance: they mostly wait for their receivers. */
const DELIVERY_BATCH = 50;
/** Retries wait at most this long between two attempts. */
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

export interface DeliveryJob {
  deliveryId: number;
  /** The delivery's generation when the job was written: a job of an older one is stale (a redelivery or a retry replaced it). */
  generation: number;
}

/** The secret box of webhook secrets, sealed per row (`webhook:<id>`). */
export function webhookSecretBox(config: AppConfig): SecretBox {
  return new SecretBox(config.jwtSecret, 'webhook-secret');
}
export const secretContext = (webhookId: number) => `webhook:${webhookId}`;

interface DeliveryRow {
  id: number;
  delivery_key: string;
  webhook_id: number;
  event: string;
  body: string;
  status: string;
  generation: number;
  attempts: number;
  retrying_since: Date;
  url: string;
  secret_sealed: string;
  active: boolean;
}

/**
 * Sends deliveries (docs/integrations.md, 'Webhooks'): each job is one attempt. A 2xx marks the delivery
 * DELIVERED (a later job for it does nothing: never sent twice by the queue); a network error, a
 * timeout or a 5xx writes the next attempt's job with exponential backoff (WEBHOOK_RETRY_BASE_MS,
 * doubling, at most an hour apart) until the failure window (24 h) has passed; any other 4xx, or a
 * refused address, fails it at once. A webhook whose attempts have all failed for the window is
 * turned off and its admin told by e-mail. Every attempt is logged (the last 100 per webhook).
 */
@Injectable()
export class WebhookDeliveryService implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');
  private readonly box: SecretBox;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly mail: MailService,
  ) {
    this.box = webhookSecretBox(config);
  }

  onModuleInit(): void {
    this.jobs.register<DeliveryJob>(WEBHOOK_QUEUE, (job) => this.attempt(job.data), 'standard', { batchSize: DELIVERY_BATCH });
  }

  /** Writes the first job of new deliveries, with the caller's transaction. */
  enqueue(manager: EntityManager, jobs: DeliveryJob[]): Promise<void> {
    return this.jobs.enqueueMany(manager, WEBHOOK_QUEUE, jobs);
  }

  /**
   * An erased account: the stored bodies that name it lose its name, slug and e-mail
   * address, in the erasure's transaction. A user event keeps the account's id, status and roles;
   * a post or comment by it keeps `author: null`. A delivery still pending is sent so; the log
   * keeps the rest.
   */
  async forgetUser(manager: EntityManager, userId: number): Promise<void> {
    await manager.query(
      `UPDATE webhook_deliveries
          SET body = CASE WHEN event LIKE 'user.%' THEN (body::jsonb #- '{data,email}' #- '{data,fullName}' #- '{data,slug}')::text
                          ELSE jsonb_set(body::jsonb, '{data,author}', 'null')::text END
        WHERE (event LIKE 'user.%' AND body::jsonb #>> '{data,id}' = $1::text)
           OR body::jsonb #>> '{data,author,id}' = $1::text`,
      [userId],
    );
  }

  /** The delay before retry number `attempts` (1 = the first retry). */
  retryDelayMs(attempts: number): number {
    return Math.min(MAX_RETRY_DELAY_MS, this.config.webhooks.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  }

  /** One attempt of a delivery, if it is still this job's to make. */
  async attempt({ deliveryId, generation }: DeliveryJob): Promise<void> {
    const [row] = (await this.dataSource.query(
      `SELECT d.id, d.delivery_key, d.webhook_id, d.event, d.body, d.status, d.generation, d.attempts, d.retrying_since, w.url, w.secret_sealed, w.active
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = $1`,
      [deliveryId],
    )) as DeliveryRow[];
    if (!row || row.status !== 'PENDING' || row.generation !== generation) return;
    if (!row.active) {
      await this.dataSource.query(
        `UPDATE webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL WHERE id = $1 AND generation = $2 AND status = 'PENDING'`,
        [row.id, generation],
      );
      return;
    }
    const result = await this.send(row);
    await this.record(row, result, { countsTowardFailure: true });
  }

  /** POSTs a delivery's body, signed with its webhook's secret. */
  send(row: Pick<DeliveryRow, 'webhook_id' | 'delivery_key' | 'event' | 'body' | 'url' | 'secret_sealed'>): Promise<AttemptResult> {
    const secret = this.box.open(row.secret_sealed, secretContext(row.webhook_id));
    if (secret === null) {
      // Sealed with another server secret (JWT_SECRET changed): nothing can be signed until the secret is rotated.
      return Promise.resolve({
        ok: false,
        retryable: false,
        statusCode: null,
        durationMs: 0,
        responseExcerpt: null,
        error: 'The secret cannot be read with this server key: rotate it.',
      });
    }
    const { timeoutMs, allowPrivate } = this.config.webhooks;
    return sendWebhook(
      { url: row.url, secret, deliveryId: row.delivery_key, event: row.event, body: row.body },
      { timeoutMs, allowPrivate },
    );
  }

  /**
   * Logs an attempt and moves the delivery on, in one transaction: delivered; retried (its next
   * job); or failed. `countsTowardFailure`: a real delivery (not a test event) keeps the webhook's
   * failure record, which turns it off after the window. Answers the attempt's log id.
   */
  async record(
    row: Pick<DeliveryRow, 'id' | 'webhook_id' | 'generation' | 'attempts' | 'retrying_since'>,
    result: AttemptResult,
    options: { countsTowardFailure: boolean },
  ): Promise<number> {
    const attemptedAt = new Date(Date.now() - result.durationMs);
    const windowMs = this.config.webhooks.failureWindowSeconds * 1000;
    const attemptValues = [
      row.webhook_id,
      row.id,
      attemptedAt,
      result.durationMs,
      result.ok,
      result.statusCode,
      result.error?.slice(0, 500) ?? null,
      result.responseExcerpt,
    ];
    const insertAttempt = `INSERT INTO webhook_attempts (webhook_id, delivery_id, attempted_at, duration_ms, ok, status_code, error, response_excerpt)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`;
    const attempts = row.attempts + 1;
    let disabled: { url: string; created_by: number | null; reason: string } | undefined;
    let attemptId: number;
    if (result.ok) {
      // The common case in one statement (atomic on its own): the attempt, the delivery DELIVERED
      // whoever's job this was (a redelivery waiting behind it then does nothing), the webhook's failure record cleared.
      const [written] = (await this.dataSource.query(
        `WITH attempt AS (${insertAttempt}),
              delivered AS (UPDATE webhook_deliveries SET status = 'DELIVERED', attempts = $9, delivered_at = now(), next_attempt_at = NULL WHERE id = $2),
              recovered AS (UPDATE webhooks SET failing_since = NULL WHERE id = $1 AND $10 AND failing_since IS NOT NULL)
         SELECT id FROM attempt`,
        [...attemptValues, attempts, options.countsTowardFailure],
      )) as { id: number }[];
      attemptId = written.id;
    } else {
      attemptId = await this.dataSource.transaction(async (manager) => {
        const [attempt] = (await manager.query(insertAttempt, attemptValues)) as { id: number }[];
        // The last retry falls on the window's end, so a delivery failing throughout is tried once the window has passed.
        const deadline = new Date(row.retrying_since).getTime() + windowMs;
        const nextAt = new Date(Math.min(Date.now() + this.retryDelayMs(attempts), deadline));
        const retry = result.retryable && options.countsTowardFailure && Date.now() < deadline;
        // Only the job of the current generation moves the delivery (a redelivery during this attempt has taken over).
        // An UPDATE's answer is [rows, count].
        const [[moved]] = (await manager.query(
          `UPDATE webhook_deliveries SET attempts = $3, status = $4, generation = generation + $5, next_attempt_at = $6
            WHERE id = $1 AND generation = $2 AND status = 'PENDING' RETURNING generation`,
          [row.id, row.generation, attempts, retry ? 'PENDING' : 'FAILED', retry ? 1 : 0, retry ? nextAt : null],
        )) as [{ generation: number }[], number];
        if (retry && moved)
          await this.jobs.enqueue(manager, WEBHOOK_QUEUE, { deliveryId: row.id, generation: moved.generation } satisfies DeliveryJob, {
            startAfter: nextAt,
          });
        if (options.countsTowardFailure) disabled = await this.noteFailure(manager, row.webhook_id, new Date(row.retrying_since), windowMs);
        return attempt.id;
      });
    }
    // The log keeps the newest LOG_SIZE attempts of the webhook: trimmed every PRUNE_EVERY attempts, not on each.
    if (attemptId % PRUNE_EVERY === 0) {
      await this.dataSource.query(
        `DELETE FROM webhook_attempts WHERE webhook_id = $1 AND id < (SELECT id FROM webhook_attempts WHERE webhook_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
        [row.webhook_id, LOG_SIZE - 1],
      );
      // Finished deliveries older than a month with no attempt left in the log go too (a stale job for one finds nothing).
      await this.dataSource.query(
        `DELETE FROM webhook_deliveries d WHERE d.webhook_id = $1 AND d.status <> 'PENDING' AND d.created_at < now() - interval '30 days'
            AND NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = d.id)`,
        [row.webhook_id],
      );
    }
    if (disabled) await this.tellAdmin(disabled);
    return attemptId;
  }

  /**
   * Starts or continues the webhook's run of failures (from the failed delivery's start: its event
   * has waited since); once it has lasted the window, turns the webhook off (once: the row's update decides).
   */
  private async noteFailure(
    manager: EntityManager,
    webhookId: number,
    since: Date,
    windowMs: number,
  ): Promise<{ url: string; created_by: number | null; reason: string } | undefined> {
    await manager.query(`UPDATE webhooks SET failing_since = $2 WHERE id = $1 AND failing_since IS NULL`, [webhookId, since]);
    const reason = WebhooksMessages.disabledReason(describeWindow(this.config.webhooks.failureWindowSeconds));
    const [[turnedOff]] = (await manager.query(
      `UPDATE webhooks SET active = false, disabled_reason = $3, updated_at = now()
        WHERE id = $1 AND active AND failing_since <= $2 RETURNING url, created_by`,
      [webhookId, new Date(Date.now() - windowMs), reason],
    )) as [{ url: string; created_by: number | null }[], number];
    if (!turnedOff) return undefined;
    // Its deliveries still waiting will not be sent: the log shows them failed, 'Redeliver' sends them once it is on again.
    await manager.query(
      `UPDATE webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL WHERE webhook_id = $1 AND status = 'PENDING'`,
      [webhookId],
    );
    return { ...turnedOff, reason };
  }

  /** E-mails the admin who made the webhook (or, when that account is gone or no longer an admin, every active admin). */
  private async tellAdmin(webhook: { url: string; created_by: number | null; reason: string }): Promise<void> {
    const admins = (await this.dataSource.query(
      `SELECT u.email, u.full_name, u.id = $1 AS creator FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
        WHERE r.name = 'ADMIN' AND u.status = 'ACTIVE' ORDER BY u.id`,
      [webhook.created_by ?? 0],
    )) as { email: string; full_name: string; creator: boolean }[];
    const creator = admins.filter((admin) => admin.creator);
    const link = `${this.config.publicUrl}/admin/integrations`;
    for (const admin of creator.length ? creator : admins)
      await this.mail.sendWebhookDisabled(admin.email, admin.full_name, webhook.url, webhook.reason, link);
    this.logger.warn({ url: webhook.url }, `Webhook ${webhook.url} turned off: ${webhook.reason}`);
  }
}

/** '24 hours', '90 seconds': the failure window as the texts say it. */
export function describeWindow(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
