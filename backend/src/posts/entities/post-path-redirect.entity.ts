import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Post } from './post.entity';

/**
 * An address a post had on its former site (an imported WordPress post's `/2014/03/09/slug/` and
 * `/2014/03/slug/`): that path answers 301 to the post's page while the post is published.
 */
@Entity('post_path_redirects')
@Index('IDX_post_path_redirects_post', ['postId'])
export class PostPathRedirect {
  /** The path as requested, without its trailing slash ('/2014/03/09/slug'). */
  @PrimaryColumn({ type: 'varchar', length: 300, primaryKeyConstraintName: 'PK_post_path_redirects' })
  path: string;

  @Column({ name: 'post_id', type: 'int' })
  postId: number;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_post_path_redirects_post' })
  post: Post;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
