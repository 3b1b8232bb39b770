import { CreateDateColumn, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Post } from './post.entity';

/** A slug a post had before a change: `/blog/{slug}` answers 301 to the post's current address. */
@Entity('post_slug_history')
@Index('IDX_post_slug_history_post', ['postId'])
export class PostSlugHistory {
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'PK_post_slug_history' })
  slug: string;

  @Column({ name: 'post_id', type: 'int' })
  postId: number;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_post_slug_history_post' })
  post: Post;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
