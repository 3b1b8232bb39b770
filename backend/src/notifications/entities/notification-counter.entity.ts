import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';

/**
 * A user's notification counts, kept by the database in the statement that changes the rows
 * (triggers on `notifications`, migration CreateNotificationCounters): every insert, read flag,
 * cascade delete (a post or comment removed) and TRUNCATE moves them in the same transaction, so
 * they stay exact under concurrency (the row lock orders the increments). The list's total and
 * the header's bell read them instead of counting the rows. Never written by code.
 * A user without a row has no notification.
 */
@Entity('notification_counters')
export class NotificationCounter {
  @PrimaryColumn({ name: 'user_id', type: 'int', primaryKeyConstraintName: 'PK_notification_counters' })
  userId: number;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_notification_counters_user' })
  user: User;

  /** In-app notifications (the ones listed). */
  @Column({ type: 'int', default: 0 })
  listed: number;

  /** In-app notifications not read yet (the bell). */
  @Column({ type: 'int', default: 0 })
  unread: number;
}
