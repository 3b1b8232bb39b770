import { CreateDateColumn, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Tag } from './tag.entity';

/** A slug a tag had before a change: `/blog/tag/{slug}` answers 301 to the tag's current address. */
@Entity('tag_slug_history')
@Index('IDX_tag_slug_history_tag', ['tagId'])
export class TagSlugHistory {
  @PrimaryColumn({ type: 'varchar', length: 100, primaryKeyConstraintName: 'PK_tag_slug_history' })
  slug: string;

  @Column({ name: 'tag_id', type: 'int' })
  tagId: number;

  @ManyToOne(() => Tag, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tag_id', foreignKeyConstraintName: 'FK_tag_slug_history_tag' })
  tag: Tag;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
