import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { User } from '../../users/entities/user.entity';

/**
 * A sign-in that passed the password and waits for the second factor: not a session. Only the
 * token's SHA-256 is stored; it lives a few minutes and dies after 5 wrong codes or its one use.
 */
@Entity('two_factor_challenges')
@Index('IDX_two_factor_challenges_user', ['userId'])
export class TwoFactorChallenge {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_two_factor_challenges' })
  id: string;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_two_factor_challenges_user' })
  user?: User;

  @Index('UQ_two_factor_challenges_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ name: 'remember_me', type: 'boolean', default: false })
  rememberMe: boolean;

  @Column({ name: 'failed_attempts', type: 'int', default: 0 })
  failedAttempts: number;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
