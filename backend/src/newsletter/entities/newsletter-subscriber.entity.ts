import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';

export const SUBSCRIBER_STATUSES = ['pending', 'active', 'unsubscribed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];
export const SUBSCRIBER_CADENCES = ['instant', 'weekly'] as const;
export type SubscriberCadence = (typeof SUBSCRIBER_CADENCES)[number];
export const SUBSCRIBER_SOURCES = ['page', 'account', 'import'] as const;
export type SubscriberSource = (typeof SUBSCRIBER_SOURCES)[number];

/**
 * One address that gets new posts by e-mail (docs/newsletter.md). `email` is canonical (the
 * users' canonicalisation: NFKC, trimmed, lower-case) and unique; a reader's own row has
 * `user_id` (the account's e-mail, active at once, source 'account'); a visitor's row is
 * 'pending' until the confirmation link (double opt-in) makes it 'active'. Only an 'active' row
 * gets e-mail: 'instant' per post, or 'weekly' on `digest_weekday` (0 = Sunday) in the site's zone.
 */
@Entity('newsletter_subscribers')
@Check('CHK_newsletter_subscribers_status', `"status" IN ('pending', 'active', 'unsubscribed')`)
@Check('CHK_newsletter_subscribers_cadence', `"cadence" IN ('instant', 'weekly')`)
@Check('CHK_newsletter_subscribers_source', `"source" IN ('page', 'account', 'import')`)
@Check('CHK_newsletter_subscribers_weekday', `"digest_weekday" IS NULL OR "digest_weekday" BETWEEN 0 AND 6`)
@Index('UQ_newsletter_subscribers_email', ['email'], { unique: true })
@Index('UQ_newsletter_subscribers_user', ['userId'], { unique: true })
export class NewsletterSubscriber {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_newsletter_subscribers' })
  id: number;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  name: string | null;

  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_newsletter_subscribers_user' })
  user: User | null;

  @Column({ type: 'varchar', length: 16 })
  status: SubscriberStatus;

  /** SHA-256 (hex) of the pending confirmation token; the token itself is only in the e-mail. */
  @Column({ name: 'confirm_token_hash', type: 'varchar', length: 64, nullable: true })
  confirmTokenHash: string | null;

  @Column({ name: 'confirm_expires_at', type: 'timestamptz', nullable: true })
  confirmExpiresAt: Date | null;

  @Column({ type: 'varchar', length: 8, default: 'instant' })
  cadence: SubscriberCadence;

  /** The weekly digest's day (0 = Sunday … 6 = Saturday, in the site's time zone). */
  @Column({ name: 'digest_weekday', type: 'smallint', nullable: true })
  digestWeekday: number | null;

  @Column({ name: 'soft_bounces', type: 'int', default: 0 })
  softBounces: number;

  @Column({ type: 'varchar', length: 16 })
  source: SubscriberSource;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;
}
