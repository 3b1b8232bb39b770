import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';

/** Per-user mail settings: the digest switch and when the last digest went out (at most one an hour). */
@Entity('notification_settings')
export class NotificationSettings {
  @PrimaryColumn({ name: 'user_id', type: 'int', primaryKeyConstraintName: 'PK_notification_settings' })
  userId: number;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_notification_settings_user' })
  user: User;

  @Column({ type: 'boolean', default: false })
  digest: boolean;

  @Column({ name: 'last_digest_at', type: 'timestamptz', nullable: true })
  lastDigestAt: Date | null;
}
