import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { User } from '../../users/entities/user.entity';

/**
 * A device (browser family + OS: client-device.ts `key`) a user signed in from, and when they last
 * did. The new-device alert asks it; signing a session out from the sessions list forgets its device.
 */
@Entity('known_devices')
export class KnownDevice {
  @PrimaryColumn({ name: 'user_id', type: 'int', primaryKeyConstraintName: 'PK_known_devices' })
  userId: number;

  @PrimaryColumn({ name: 'device_key', type: 'varchar', length: 120, primaryKeyConstraintName: 'PK_known_devices' })
  deviceKey: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_known_devices_user' })
  user?: User;

  @Column({ name: 'first_seen_at', type: 'timestamptz', default: () => 'now()' })
  firstSeenAt: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' })
  lastSeenAt: Date;
}
