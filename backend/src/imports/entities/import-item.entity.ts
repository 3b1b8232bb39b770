import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A record an import brought in, by its source's own id: a second run of the same file (or of a
 * newer export of the same site) finds it here and adds no duplicate. `origin` names the site
 * (its address, or the file's digest when it names none).
 */
@Entity('import_items')
export class ImportItem {
  @PrimaryColumn({ type: 'varchar', length: 300, primaryKeyConstraintName: 'PK_import_items' })
  origin: string;

  /** user, tag, post, comment. */
  @PrimaryColumn({ type: 'varchar', length: 16, primaryKeyConstraintName: 'PK_import_items' })
  kind: string;

  @PrimaryColumn({ name: 'source_id', type: 'varchar', length: 200, primaryKeyConstraintName: 'PK_import_items' })
  sourceId: string;

  /** The Inkwell row it became (no foreign key: one table for four kinds). */
  @Column({ name: 'local_id', type: 'int' })
  localId: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
