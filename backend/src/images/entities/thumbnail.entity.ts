import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';

/**
 * One stored thumbnail (DATA_DIR/uploads/thumbnails/<name> and its variants): who uploaded it,
 * when, and what was written. DELETE /images/{name} checks `owner_id` (or ADMIN); the hourly
 * sweep removes rows older than 24 h that no post's thumbnail names, with their files.
 *
 * Indexes: UQ_thumbnails_name (the lookup by file name); IDX_thumbnails_created (the sweep's age
 * cut); IDX_thumbnails_owner (the SET NULL when an account is deleted).
 */
@Entity('thumbnails')
@Index('UQ_thumbnails_name', ['name'], { unique: true })
@Index('IDX_thumbnails_created', ['createdAt'])
@Index('IDX_thumbnails_owner', ['ownerId'])
export class Thumbnail {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_thumbnails' })
  id: number;

  /** The full-size file name `<32 hex>-<W>x<H>.webp`. */
  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ name: 'owner_id', type: 'int', nullable: true })
  ownerId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'owner_id', foreignKeyConstraintName: 'FK_thumbnails_owner' })
  owner?: User;

  @Column({ type: 'int' })
  width: number;

  @Column({ type: 'int' })
  height: number;

  /** Widths of the variants written beside it (`<key>-<w>w.webp`). */
  @Column({ name: 'variant_widths', type: 'int', array: true, default: () => "'{}'" })
  variantWidths: number[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
