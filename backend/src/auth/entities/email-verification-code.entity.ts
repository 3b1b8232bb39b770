import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { User } from '../../users/entities/user.entity';

/**
 * The one live e-mail verification code of a user (unique per user; a resend replaces it in
 * place). Only an HMAC of the 6 digits is stored; 5 wrong tries invalidate it.
 */
@Entity('email_verification_codes')
export class EmailVerificationCode {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_email_verification_codes' })
  id: number;

  @Index('UQ_email_verification_codes_user', { unique: true })
  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_email_verification_codes_user' })
  user?: User;

  @Column({ name: 'code_hash', type: 'char', length: 64 })
  codeHash: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt: Date | null;

  /** When the code was last replaced by a resend (the 60 s cool-down counts from here). */
  @Column({ name: 'resent_at', type: 'timestamptz', nullable: true })
  resentAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
