import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export const SUPPRESSION_REASONS = ['hard_bounce', 'soft_bounces', 'complaint', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/**
 * Addresses no newsletter e-mail goes to (canonical e-mail, as the subscribers'), with why:
 * a hard bounce (SMTP 5xx or the provider's webhook), too many soft bounces, a complaint, or an
 * admin. An admin removing a row un-suppresses the address.
 */
@Entity('newsletter_suppressions')
@Check('CHK_newsletter_suppressions_reason', `"reason" IN ('hard_bounce', 'soft_bounces', 'complaint', 'manual')`)
export class NewsletterSuppression {
  @PrimaryColumn({ type: 'varchar', length: 254, primaryKeyConstraintName: 'PK_newsletter_suppressions' })
  email: string;

  @Column({ type: 'varchar', length: 16 })
  reason: SuppressionReason;

  @Column({ type: 'text', nullable: true })
  detail: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
