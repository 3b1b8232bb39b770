import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDelivery } from './webhook-delivery.entity';
import { Webhook } from './webhook.entity';

/** One POST of a delivery, for the delivery log (the last 100 per webhook are kept). */
@Entity('webhook_attempts')
@Index('IDX_webhook_attempts_webhook', ['webhookId', 'id'])
@Index('IDX_webhook_attempts_delivery', ['deliveryId'])
export class WebhookAttempt {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_webhook_attempts' })
  id: number;

  @Column({ name: 'webhook_id', type: 'int' })
  webhookId: number;

  @ManyToOne(() => Webhook, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id', foreignKeyConstraintName: 'FK_webhook_attempts_webhook' })
  webhook: Webhook;

  @Column({ name: 'delivery_id', type: 'int' })
  deliveryId: number;

  @ManyToOne(() => WebhookDelivery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'FK_webhook_attempts_delivery' })
  delivery: WebhookDelivery;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt: Date;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs: number;

  @Column({ type: 'boolean' })
  ok: boolean;

  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column({ name: 'response_excerpt', type: 'varchar', length: 500, nullable: true })
  responseExcerpt: string | null;
}
