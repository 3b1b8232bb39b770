import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Webhook } from './webhook.entity';

/**
 * One event for one webhook, written with its job in the transaction of the change. `body` is the
 * exact JSON sent on every attempt; `deliveryKey` (a UUID, the X-Inkwell-Delivery header and the
 * payload's `id`) is the same on every attempt, so a receiver drops what it already has.
 * PENDING (waiting or retrying) → DELIVERED (never sent again by a retry) or FAILED (given up
 * after the failure window, or the webhook was turned off). `generation` names the one job that
 * may send it now: a redelivery makes the job already waiting stale.
 */
@Entity('webhook_deliveries')
@Check('CHK_webhook_deliveries_status', `"status" IN ('PENDING', 'DELIVERED', 'FAILED')`)
@Index('UQ_webhook_deliveries_key', ['deliveryKey'], { unique: true })
@Index('IDX_webhook_deliveries_webhook', ['webhookId', 'id'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_webhook_deliveries' })
  id: number;

  @Column({ name: 'delivery_key', type: 'uuid' })
  deliveryKey: string;

  @Column({ name: 'webhook_id', type: 'int' })
  webhookId: number;

  @ManyToOne(() => Webhook, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id', foreignKeyConstraintName: 'FK_webhook_deliveries_webhook' })
  webhook: Webhook;

  @Column({ type: 'varchar', length: 40 })
  event: string;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'varchar', length: 16, default: 'PENDING' })
  status: string;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'int', default: 0 })
  generation: number;

  /** When the current run of attempts started: retries stop once the failure window has passed since. */
  @Column({ name: 'retrying_since', type: 'timestamptz', default: () => 'now()' })
  retryingSince: Date;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  /** The event's time (the change's transaction). */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
