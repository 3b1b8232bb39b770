import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';

/**
 * A receiver an admin configured on /admin/integrations: where to POST, which events, and the
 * secret that signs them (sealed with the server's key: it must be read back to sign, so it cannot
 * be hashed). `failingSince` is the start of an unbroken run of failed attempts; a webhook failing
 * for the failure window (24 h) is turned off (`active` false, `disabledReason`) and its admin told.
 */
@Entity('webhooks')
export class Webhook {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_webhooks' })
  id: number;

  @Column({ type: 'varchar', length: 2000 })
  url: string;

  /** Event names (webhook-events.ts). */
  @Column({ type: 'varchar', length: 40, array: true })
  events: string[];

  /** SecretBox output, sealed for this row's id. */
  @Column({ name: 'secret_sealed', type: 'varchar', length: 300 })
  secretSealed: string;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /** The admin opted in to e-mail addresses in user events. */
  @Column({ name: 'include_emails', type: 'boolean', default: false })
  includeEmails: boolean;

  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  /** Why it was turned off automatically (null when on, or turned off by an admin). */
  @Column({ name: 'disabled_reason', type: 'varchar', length: 500, nullable: true })
  disabledReason: string | null;

  /** The admin who made it: told when it is turned off. */
  @Column({ name: 'created_by', type: 'int', nullable: true })
  createdBy: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_webhooks_created_by' })
  creator: User | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
