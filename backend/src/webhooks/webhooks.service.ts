import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { SecretBox } from '../common/secret-box';
import { APP_CONFIG, AppConfig } from '../config/env';
import type { EventActor, WebhookChange, WebhookFacts } from '../events/domain-events';
import { DomainEvents } from '../events/domain-events.service';
import {
  WebhookAttemptDto,
  WebhookCreateDto,
  WebhookDto,
  WebhookRedeliveryDto,
  WebhookSummaryDto,
  WebhookUpdateDto,
} from './dto/webhook.dto';
import { LOG_SIZE, secretContext, WEBHOOK_QUEUE, WebhookDeliveryService, webhookSecretBox } from './webhook-delivery.service';
import { payloadBody, TEST_EVENT, type WebhookEventName } from './webhook-events';
import { checkTarget, UnsafeTargetError } from './webhook-targets';
import { WebhooksMessages as M } from './webhooks.messages';
import { JobsService } from '../jobs/jobs.service';

interface WebhookRow {
  id: number;
  url: string;
  events: string[];
  secret_sealed: string;
  active: boolean;
  include_emails: boolean;
  failing_since: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
  last_attempt_at: Date | null;
  last_attempt_ok: boolean | null;
}

interface AttemptRow {
  id: number;
  delivery_id: number;
  delivery_key: string;
  event: string;
  delivery_status: string;
  attempted_at: Date;
  duration_ms: number;
  ok: boolean;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

const SELECT_WEBHOOK = `SELECT w.*, last.attempted_at AS last_attempt_at, last.ok AS last_attempt_ok
  FROM webhooks w
  LEFT JOIN LATERAL (SELECT attempted_at, ok FROM webhook_attempts a WHERE a.webhook_id = w.id ORDER BY a.id DESC LIMIT 1) last ON true`;

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

function toSummary(row: WebhookRow): WebhookSummaryDto {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventName[],
    active: row.active,
    includeEmails: row.include_emails,
    failingSince: iso(row.failing_since),
    disabledReason: row.disabled_reason,
    lastAttemptAt: iso(row.last_attempt_at),
    lastAttemptOk: row.last_attempt_ok,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function toAttempt(row: AttemptRow): WebhookAttemptDto {
  return {
    id: row.id,
    deliveryId: row.delivery_id,
    deliveryKey: row.delivery_key,
    event: row.event,
    deliveryStatus: row.delivery_status,
    attemptedAt: new Date(row.attempted_at).toISOString(),
    durationMs: row.duration_ms,
    ok: row.ok,
    statusCode: row.status_code,
    error: row.error,
    responseExcerpt: row.response_excerpt,
  };
}

/** A new signing secret: 32 random bytes, recognisable by its prefix. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Where a webhook sends, for its events and the audit log: its host only (a receiver's path or query may hold a secret of its own). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid address';
  }
}

/** A webhook as its events name it (the receiver by its host only). */
function webhookFacts(id: number, webhook: { url: string; events: string[]; active: boolean; includeEmails: boolean }): WebhookFacts {
  return {
    webhookId: id,
    host: hostOf(webhook.url),
    events: [...webhook.events],
    active: webhook.active,
    includeEmails: webhook.includeEmails,
  };
}

const actorOf = (user: AuthUser): EventActor => ({ id: user.id, name: user.fullName });

/**
 * The webhook administration (/admin/webhooks, ADMIN only): configuration, the test event, the
 * delivery log and redelivery. Every change records `webhook.created`, `webhook.updated` or
 * `webhook.deleted` in its transaction; the audit log follows them (a webhook sends the site's data elsewhere).
 */
@Injectable()
export class WebhooksService {
  private readonly box: SecretBox;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveryService,
    private readonly jobs: JobsService,
    private readonly events: DomainEvents,
  ) {
    this.box = webhookSecretBox(config);
  }

  async list(): Promise<WebhookSummaryDto[]> {
    const rows = (await this.dataSource.query(`${SELECT_WEBHOOK} ORDER BY w.id`)) as WebhookRow[];
    return rows.map(toSummary);
  }

  async get(id: number): Promise<WebhookDto> {
    const row = await this.find(id);
    return { ...toSummary(row), secret: this.secretOf(row) };
  }

  async create(dto: WebhookCreateDto, actor: AuthUser): Promise<WebhookDto> {
    await this.checkUrl(dto.url);
    const secret = newSecret();
    const id = await this.events.transaction(async ({ manager, record }) => {
      // The id first: the secret is sealed for its row.
      const [{ id: drawn }] = (await manager.query(`SELECT nextval(pg_get_serial_sequence('webhooks', 'id'))::int AS id`)) as {
        id: number;
      }[];
      await manager.query(
        `INSERT INTO webhooks (id, url, events, secret_sealed, active, include_emails, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [drawn, dto.url, dto.events, this.box.seal(secret, secretContext(drawn)), dto.active ?? true, dto.includeEmails ?? false, actor.id],
      );
      await record({
        name: 'webhook.created',
        actor: actorOf(actor),
        data: webhookFacts(drawn, {
          url: dto.url,
          events: dto.events,
          active: dto.active ?? true,
          includeEmails: dto.includeEmails ?? false,
        }),
      });
      return drawn;
    });
    return this.get(id);
  }

  async update(id: number, dto: WebhookUpdateDto, actor: AuthUser): Promise<{ webhook: WebhookDto; rotated: boolean }> {
    const current = await this.find(id);
    if (dto.url !== undefined && dto.url !== current.url) await this.checkUrl(dto.url);
    const sets: string[] = [];
    const params: unknown[] = [id];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (dto.url !== undefined) set('url', dto.url);
    if (dto.events !== undefined) set('events', dto.events);
    if (dto.includeEmails !== undefined) set('include_emails', dto.includeEmails);
    if (dto.active !== undefined) {
      set('active', dto.active);
      // Turned on again (or off by hand): a fresh start, no automatic reason.
      if (dto.active !== current.active) sets.push('failing_since = NULL', 'disabled_reason = NULL');
    }
    const rotated = dto.rotateSecret === true;
    if (rotated) set('secret_sealed', this.box.seal(newSecret(), secretContext(id)));
    if (sets.length) {
      // What the edit changed, in the events' order (`events` whenever a list was sent).
      const changed = [
        dto.url !== undefined && dto.url !== current.url ? 'url' : null,
        dto.events !== undefined ? 'events' : null,
        dto.includeEmails !== undefined && dto.includeEmails !== current.include_emails ? 'includeEmails' : null,
        dto.active !== undefined && dto.active !== current.active ? 'active' : null,
        rotated ? 'secret' : null,
      ].filter((change): change is WebhookChange => change !== null);
      const after = webhookFacts(id, {
        url: dto.url ?? current.url,
        events: dto.events ?? current.events,
        active: dto.active ?? current.active,
        includeEmails: dto.includeEmails ?? current.include_emails,
      });
      await this.events.transaction(async ({ manager, record }) => {
        await manager.query(`UPDATE webhooks SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
        if (changed.length) await record({ name: 'webhook.updated', actor: actorOf(actor), data: { ...after, changed } });
      });
    }
    return { webhook: await this.get(id), rotated };
  }

  async remove(id: number, actor: AuthUser): Promise<void> {
    await this.events.transaction(async ({ manager, record }) => {
      const [removed] = (await manager.query(`DELETE FROM webhooks WHERE id = $1 RETURNING url, events, active, include_emails`, [id])) as [
        { url: string; events: string[]; active: boolean; include_emails: boolean }[],
        number,
      ];
      if (!removed.length) throw new NotFoundException(M.NOT_FOUND);
      const [gone] = removed;
      await record({
        name: 'webhook.deleted',
        actor: actorOf(actor),
        data: webhookFacts(id, { url: gone.url, events: gone.events, active: gone.active, includeEmails: gone.include_emails }),
      });
    });
  }

  /** The last LOG_SIZE attempts, newest first. */
  async log(id: number): Promise<WebhookAttemptDto[]> {
    await this.find(id);
    const rows = (await this.dataSource.query(
      `SELECT a.id, a.delivery_id, d.delivery_key, d.event, d.status AS delivery_status, a.attempted_at, a.duration_ms, a.ok, a.status_code, a.error, a.response_excerpt
         FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE a.webhook_id = $1 ORDER BY a.id DESC LIMIT $2`,
      [id, LOG_SIZE],
    )) as AttemptRow[];
    return rows.map(toAttempt);
  }

  /**
   * 'Send test event': a `webhook.test` delivery sent now (not queued, not retried, and not
   * counted toward turning the webhook off), answered with its attempt.
   */
  async sendTest(id: number): Promise<WebhookAttemptDto> {
    const webhook = await this.find(id);
    if (!webhook.active) throw new ConflictException(M.INACTIVE_TEST);
    const key = randomUUID();
    const body = payloadBody(key, TEST_EVENT, new Date(), { webhookId: id, message: 'This is a test event from Inkwell.' });
    const [delivery] = (await this.dataSource.query(
      `INSERT INTO webhook_deliveries (delivery_key, webhook_id, event, body) VALUES ($1, $2, $3, $4) RETURNING id, generation, attempts, retrying_since`,
      [key, id, TEST_EVENT, body],
    )) as { id: number; generation: number; attempts: number; retrying_since: Date }[];
    const result = await this.deliveries.send({
      webhook_id: id,
      delivery_key: key,
      event: TEST_EVENT,
      body,
      url: webhook.url,
      secret_sealed: webhook.secret_sealed,
    });
    const attemptId = await this.deliveries.record({ ...delivery, webhook_id: id }, result, { countsTowardFailure: false });
    const [row] = (await this.log(id)).filter((attempt) => attempt.id === attemptId);
    return row;
  }

  /**
   * Sends a delivery again with the same body and id (receivers that have it drop it): queued now,
   * with a new failure window; a job already waiting for it becomes stale.
   */
  async redeliver(id: number, deliveryId: number): Promise<WebhookRedeliveryDto> {
    const webhook = await this.find(id);
    if (!webhook.active) throw new ConflictException(M.INACTIVE_REDELIVER);
    return this.dataSource.transaction(async (manager) => {
      const [[row]] = (await manager.query(
        `UPDATE webhook_deliveries SET status = 'PENDING', generation = generation + 1, retrying_since = now(), next_attempt_at = now()
          WHERE id = $1 AND webhook_id = $2 RETURNING id, delivery_key, generation`,
        [deliveryId, id],
      )) as [{ id: number; delivery_key: string; generation: number }[], number];
      if (!row) throw new NotFoundException(M.DELIVERY_NOT_FOUND);
      await this.jobs.enqueue(manager, WEBHOOK_QUEUE, { deliveryId: row.id, generation: row.generation });
      return { deliveryId: row.id, deliveryKey: row.delivery_key, status: 'PENDING' };
    });
  }

  private async find(id: number): Promise<WebhookRow> {
    const [row] = (await this.dataSource.query(`${SELECT_WEBHOOK} WHERE w.id = $1`, [id])) as WebhookRow[];
    if (!row) throw new NotFoundException(M.NOT_FOUND);
    return row;
  }

  private secretOf(row: WebhookRow): string {
    // A secret sealed under another server key cannot be shown: the admin rotates it.
    return this.box.open(row.secret_sealed, secretContext(row.id)) ?? '';
  }

  /** The save-time address check: 400 with the reason on the url field. */
  private async checkUrl(url: string): Promise<void> {
    try {
      await checkTarget(url, this.config.webhooks.allowPrivate);
    } catch (error) {
      if (error instanceof UnsafeTargetError) throw new BadRequestException({ message: error.message, errors: { url: [error.message] } });
      throw error;
    }
  }
}
