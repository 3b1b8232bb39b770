import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';
import { Notification } from './notification.entity';

/**
 * One e-mail to send: for one notification, or a digest (notification_id null, the notifications
 * it groups point at nothing: it lists them in `notification_ids`). Written with its job; the
 * worker moves it to SENT, SKIPPED (banned, unverified or unsubscribed at send time) or, after
 * the last retry, FAILED with the reason.
 */
@Entity('notification_deliveries')
@Check('CHK_notification_deliveries_status', `"status" IN ('PENDING', 'SENT', 'FAILED', 'SKIPPED')`)
@Index('IDX_notification_deliveries_notification', ['notificationId'])
@Index('IDX_notification_deliveries_user', ['userId', 'createdAt'])
export class NotificationDelivery {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_notification_deliveries' })
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_notification_deliveries_user' })
  user: User;

  @Column({ name: 'notification_id', type: 'int', nullable: true })
  notificationId: number | null;

  @ManyToOne(() => Notification, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'notification_id', foreignKeyConstraintName: 'FK_notification_deliveries_notification' })
  notification: Notification | null;

  /** A digest's notifications. */
  @Column({ name: 'notification_ids', type: 'int', array: true, default: () => `'{}'` })
  notificationIds: number[];

  @Column({ type: 'varchar', length: 16, default: 'PENDING' })
  status: string;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
