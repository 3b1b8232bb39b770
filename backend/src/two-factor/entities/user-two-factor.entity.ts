import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import type { User } from '../../users/entities/user.entity';

/**
 * A user's authenticator secret (TOTP). The secret is kept sealed (AES-256-GCM, key derived from
 * the server secret, bound to the user's id), never in clear. `enabledAt` null: a set-up waiting
 * for its first code. `lastUsedStep`: the time step of the last accepted code, so no code (and no
 * older one) is accepted twice.
 */
@Entity('user_two_factor')
export class UserTwoFactor {
  @PrimaryColumn({ name: 'user_id', type: 'int', primaryKeyConstraintName: 'PK_user_two_factor' })
  userId: number;

  @OneToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_two_factor_user' })
  user?: User;

  @Column({ name: 'secret_sealed', type: 'varchar', length: 200 })
  secretSealed: string;

  @Column({ name: 'enabled_at', type: 'timestamptz', nullable: true })
  enabledAt: Date | null;

  @Column({ name: 'last_used_step', type: 'int', nullable: true })
  lastUsedStep: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
