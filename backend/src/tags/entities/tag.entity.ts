import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A label posts carry. Only active tags can be attached; `status` in responses derives from isActive. */
@Entity('tags')
@Index('IDX_tags_active_name', ['isActive', 'name'])
export class Tag {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_tags' })
  id: number;

  @Index('UQ_tags_name', { unique: true })
  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Index('UQ_tags_slug', { unique: true })
  @Column({ type: 'varchar', length: 100 })
  slug: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  color: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  icon: string | null;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
