import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';

/** A user's choice for one type (a row only where it differs from nothing: defaults live in code). */
@Entity('notification_preferences')
export class NotificationPreference {
  @PrimaryColumn({ name: 'user_id', type: 'int', primaryKeyConstraintName: 'PK_notification_preferences' })
  userId: number;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_notification_preferences' })
  type: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_notification_preferences_user' })
  user: User;

  @Column({ name: 'in_app', type: 'boolean' })
  inApp: boolean;

  @Column({ type: 'boolean' })
  email: boolean;
}
