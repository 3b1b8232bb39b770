import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from './user.entity';

/**
 * One ban of a user, kept after the unban (history). At most one open ban (unbanned_at null) per
 * user, by a partial unique index; the open one is what GET /admin/users/{id}/ban-status shows.
 * The admins who banned and unbanned are kept as null when their accounts are deleted.
 */
@Entity('user_bans')
@Index('UQ_user_bans_open', ['userId'], { unique: true, where: `"unbanned_at" IS NULL` })
@Index('IDX_user_bans_user_banned', ['userId', 'bannedAt'])
export class UserBan {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_user_bans' })
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_bans_user' })
  user?: User;

  @Column({ type: 'varchar', length: 500 })
  reason: string;

  @Column({ name: 'admin_note', type: 'varchar', length: 1000, nullable: true })
  adminNote: string | null;

  @Column({ name: 'banned_by', type: 'int', nullable: true })
  bannedById: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'banned_by', foreignKeyConstraintName: 'FK_user_bans_banned_by' })
  bannedBy?: User | null;

  @Column({ name: 'banned_at', type: 'timestamptz', default: () => 'now()' })
  bannedAt: Date;

  @Column({ name: 'unbanned_at', type: 'timestamptz', nullable: true })
  unbannedAt: Date | null;

  @Column({ name: 'unbanned_by', type: 'int', nullable: true })
  unbannedById: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'unbanned_by', foreignKeyConstraintName: 'FK_user_bans_unbanned_by' })
  unbannedBy?: User | null;

  @Column({ name: 'unban_reason', type: 'varchar', length: 500, nullable: true })
  unbanReason: string | null;

  @Column({ name: 'unban_note', type: 'varchar', length: 1000, nullable: true })
  unbanNote: string | null;
}
