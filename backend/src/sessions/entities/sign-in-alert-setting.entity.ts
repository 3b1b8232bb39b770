import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { User } from '../../users/entities/user.entity';

/** Whether a user wants the 'New sign-in to your account' e-mail; no row means yes (the default). */
@Entity('sign_in_alert_settings')
export class SignInAlertSetting {
  @PrimaryColumn({ name: 'user_id', type: 'int', primaryKeyConstraintName: 'PK_sign_in_alert_settings' })
  userId: number;

  @OneToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_sign_in_alert_settings_user' })
  user?: User;

  @Column({ name: 'new_device_email', type: 'boolean', default: true })
  newDeviceEmail: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
