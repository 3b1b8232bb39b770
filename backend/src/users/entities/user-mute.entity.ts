import { Column, Entity, JoinColumn, ManyToOne, OneToOne, PrimaryColumn } from 'typeorm';
import { User } from './user.entity';

/**
 * A user who may not comment: until `muted_until`, or for good when it is null. A mute whose end
 * has passed no longer counts (every check compares with now()), so expired mutes end by
 * themselves; lifting one deletes the row (the audit log keeps the history).
 */
@Entity('user_mutes')
export class UserMute {
  @PrimaryColumn({ name: 'user_id', type: 'int', primaryKeyConstraintName: 'PK_user_mutes' })
  userId: number;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_mutes_user' })
  user?: User;

  /** Null: for good. */
  @Column({ name: 'muted_until', type: 'timestamptz', nullable: true })
  mutedUntil: Date | null;

  @Column({ type: 'varchar', length: 500 })
  reason: string;

  @Column({ name: 'muted_by', type: 'int', nullable: true })
  mutedById: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'muted_by', foreignKeyConstraintName: 'FK_user_mutes_muted_by' })
  mutedBy?: User | null;

  @Column({ name: 'muted_at', type: 'timestamptz', default: () => 'now()' })
  mutedAt: Date;
}
