import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Post } from '../../posts/entities/post.entity';
import { NewsletterSubscriber } from './newsletter-subscriber.entity';

export const DELIVERY_STATES = ['queued', 'sending', 'sent', 'failed', 'bounced', 'suppressed', 'skipped'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** One post's e-mail to one subscriber: the unique (post, subscriber) key is what makes a send exactly once. */
@Entity('newsletter_deliveries')
@Check('CHK_newsletter_deliveries_state', `"state" IN ('queued', 'sending', 'sent', 'failed', 'bounced', 'suppressed', 'skipped')`)
@Index('UQ_newsletter_deliveries_post_subscriber', ['postId', 'subscriberId'], { unique: true })
@Index('IDX_newsletter_deliveries_post_state', ['postId', 'state'])
@Index('IDX_newsletter_deliveries_subscriber', ['subscriberId'])
export class NewsletterDelivery {
  /** bigint: a string in JavaScript. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'PK_newsletter_deliveries' })
  id: string;

  @Column({ name: 'post_id', type: 'int' })
  postId: number;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_newsletter_deliveries_post' })
  post: Post;

  @Column({ name: 'subscriber_id', type: 'int' })
  subscriberId: number;

  @ManyToOne(() => NewsletterSubscriber, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subscriber_id', foreignKeyConstraintName: 'FK_newsletter_deliveries_subscriber' })
  subscriber: NewsletterSubscriber;

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
