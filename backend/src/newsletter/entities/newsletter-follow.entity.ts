import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { NewsletterSubscriber } from './newsletter-subscriber.entity';

export const FOLLOW_KINDS = ['publication', 'author', 'tag'] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/**
 * What a subscriber follows: the publication (`target_id` 0), an author (a user id) or a tag (a
 * tag id). A post matching several of one subscriber's follows is still one e-mail.
 */
@Entity('newsletter_follows')
@Check('CHK_newsletter_follows_kind', `"kind" IN ('publication', 'author', 'tag')`)
@Index('UQ_newsletter_follows_target', ['subscriberId', 'kind', 'targetId'], { unique: true })
@Index('IDX_newsletter_follows_kind_target', ['kind', 'targetId'])
export class NewsletterFollow {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_newsletter_follows' })
  id: number;

  @Column({ name: 'subscriber_id', type: 'int' })
  subscriberId: number;

  @ManyToOne(() => NewsletterSubscriber, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subscriber_id', foreignKeyConstraintName: 'FK_newsletter_follows_subscriber' })
  subscriber: NewsletterSubscriber;

  @Column({ type: 'varchar', length: 16 })
  kind: FollowKind;

  @Column({ name: 'target_id', type: 'int', default: 0 })
  targetId: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
