import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Column } from 'typeorm';
import { Post } from '../../posts/entities/post.entity';
import { User } from '../../users/entities/user.entity';

/**
 * A reader likes a post: one row per (user, post), the unique key that keeps concurrent likes from
 * counting twice (docs/requirements.md#decision-counters). The post's `like_count` changes in the same transaction as the
 * row (LikesService through PostsService.adjustCounters).
 *
 * Indexes: UQ_likes_user_post (user_id, post_id) answers "does this user like this post" and is
 * the ON CONFLICT target; the user's likes newest first by (user_id, created_at, id) (my-likes,
 * recent likes, the reader dashboard); a post's likes by post_id (the cascade when a post is
 * deleted); the newest likes site-wide by created_at (quick stats' "today").
 */
@Entity('likes')
@Index('UQ_likes_user_post', ['userId', 'postId'], { unique: true })
@Index('IDX_likes_user_created', ['userId', 'createdAt', 'id'])
@Index('IDX_likes_post', ['postId'])
@Index('IDX_likes_created', ['createdAt'])
export class Like {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_likes' })
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_likes_user' })
  user: User;

  @Column({ name: 'post_id', type: 'int' })
  postId: number;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_likes_post' })
  post: Post;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
