import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** One site-wide setting an admin chose (a row per key; a missing row means the default of SITE_SETTINGS). */
@Entity('site_settings')
export class SiteSetting {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_site_settings' })
  key: string;

  @Column({ type: 'jsonb' })
  value: unknown;

  /** The admin who set it last (no foreign key: the setting outlives that account). */
  @Column({ name: 'updated_by', type: 'int', nullable: true })
  updatedBy: number | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
