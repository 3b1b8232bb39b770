import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { User } from '../../users/entities/user.entity';

/** A single-use recovery code of two-factor sign-in, stored as an HMAC only. */
@Entity('two_factor_recovery_codes')
@Index('UQ_two_factor_recovery_codes_user_hash', ['userId', 'codeHash'], { unique: true })
export class TwoFactorRecoveryCode {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_two_factor_recovery_codes' })
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_two_factor_recovery_codes_user' })
  user?: User;

  @Column({ name: 'code_hash', type: 'char', length: 64 })
  codeHash: string;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
