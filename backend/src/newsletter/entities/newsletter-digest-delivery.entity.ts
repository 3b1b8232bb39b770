import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { DeliveryState } from './newsletter-delivery.entity';
import { NewsletterSubscriber } from './newsletter-subscriber.entity';

/** One weekly digest to one subscriber: unique per (subscriber, week), listing that week's posts. */
@Entity('newsletter_digest_deliveries')
@Check('CHK_newsletter_digest_deliveries_state', `"state" IN ('queued', 'sending', 'sent', 'failed', 'bounced', 'suppressed', 'skipped')`)
@Index('UQ_newsletter_digest_deliveries_week', ['subscriberId', 'weekStart'], { unique: true })
export class NewsletterDigestDelivery {
  /** bigint: a string in JavaScript. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'PK_newsletter_digest_deliveries' })
  id: string;

  @Column({ name: 'subscriber_id', type: 'int' })
  subscriberId: number;

  @ManyToOne(() => NewsletterSubscriber, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subscriber_id', foreignKeyConstraintName: 'FK_newsletter_digest_deliveries_subscriber' })
  subscriber: NewsletterSubscriber;

  /** The first day of the week (a date, in the site's time zone). */
  @Column({ name: 'week_start', type: 'date' })
  weekStart: string;

  @Column({ name: 'post_ids', type: 'int', array: true })
  postIds: number[];

  @Column({ type: 'varchar', length: 16, default: 'queued' })
  state: DeliveryState;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt: Date | null;
}
