import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import type { DomainEvent } from '../events/domain-events';
import { DomainEvents, LIVE_ONLY } from '../events/domain-events.service';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { payloadBody, publicObject, WEBHOOK_EVENTS, WebhookEventName } from './webhook-events';

/**
 * Turns the domain events webhooks hear into deliveries: in the change's transaction, one
 * delivery row (its exact body) and one job per active webhook subscribed to the event, so a
 * committed change always has its deliveries and a rolled-back one never does. LIVE_ONLY: events
 * recorded by an import of historic content are not sent.
 */
@Injectable()
export class WebhookDispatcher implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: DomainEvents,
    private readonly deliveries: WebhookDeliveryService,
  ) {}

  onModuleInit(): void {
    this.events.onRecorded(WEBHOOK_EVENTS, (event, manager) => this.dispatch(event, manager), LIVE_ONLY);
    // Not live-only: what the log keeps about an erased account goes whoever erased it.
    this.events.onRecorded('user.deleted', (event, manager) => this.deliveries.forgetUser(manager, event.data.userId));
  }

  async dispatch(event: DomainEvent<WebhookEventName>, manager: EntityManager): Promise<void> {
    const webhooks = (await manager.query(`SELECT id, include_emails FROM webhooks WHERE active AND $1 = ANY(events) ORDER BY id`, [
      event.name,
    ])) as { id: number; include_emails: boolean }[];
    if (!webhooks.length) return;
    const { object, email } = await publicObject(manager, this.config.publicUrl, event);
    // The transaction's time: the event's time for every webhook.
    const [{ now }] = (await manager.query(`SELECT now() AS now`)) as { now: Date }[];
    const rows = webhooks.map((webhook) => {
      const key = randomUUID();
      const withEmail = email !== undefined && webhook.include_emails ? { ...object, email } : object;
      return { key, webhookId: webhook.id, body: payloadBody(key, event.name, now, withEmail) };
    });
    const inserted = (await manager.query(
      `INSERT INTO webhook_deliveries (delivery_key, webhook_id, event, body, created_at, retrying_since)
       SELECT key, webhook_id, $4, body, $5, $5 FROM unnest($1::uuid[], $2::int[], $3::text[]) AS t(key, webhook_id, body)
       RETURNING id`,
      [rows.map((row) => row.key), rows.map((row) => row.webhookId), rows.map((row) => row.body), event.name, now],
    )) as { id: number }[];
    await this.deliveries.enqueue(
      manager,
      inserted.map(({ id }) => ({ deliveryId: id, generation: 0 })),
    );
  }
}
