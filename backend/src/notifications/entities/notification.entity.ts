import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Comment } from '../../comments/entities/comment.entity';
import { Post } from '../../posts/entities/post.entity';
import { User } from '../../users/entities/user.entity';

/**
 * One thing a user is told about (in-app list). Written in the transaction of the event
 * (NotificationsService.record). `in_app` false: the user switched the in-app channel off for the
 * type, and the row exists only for its e-mail (it is not listed or counted).
 *
 * Indexes: the list (unread first, then newest) by (user_id, read, created_at, id) of in-app rows;
 * the unread count by user_id of unread in-app rows; rows waiting for the user's digest.
 */
@Entity('notifications')
// (user_id, read, created_at DESC, id DESC) WHERE in_app: written by the migration (DESC columns), ignored by the generator.
@Index('IDX_notifications_user_list', { synchronize: false })
@Index('IDX_notifications_user_unread', ['userId'], { where: `"in_app" AND NOT "read"` })
@Index('IDX_notifications_digest', ['userId', 'id'], { where: `"digest_pending"` })
export class Notification {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_notifications' })
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_notifications_user' })
  user: User;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ name: 'actor_id', type: 'int', nullable: true })
  actorId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'FK_notifications_actor' })
  actor: User | null;

  @Column({ name: 'post_id', type: 'int', nullable: true })
  postId: number | null;

  @ManyToOne(() => Post, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_notifications_post' })
  post: Post | null;

  @Column({ name: 'comment_id', type: 'int', nullable: true })
  commentId: number | null;

  @ManyToOne(() => Comment, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'comment_id', foreignKeyConstraintName: 'FK_notifications_comment' })
  comment: Comment | null;

  /** The rejection or hiding reason, or the report's reason. */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  reason: string | null;

  /** POST_APPROVED of a scheduled post: the time it will be published (the text names it). */
  @Column({ name: 'publish_at', type: 'timestamptz', nullable: true })
  publishAt: Date | null;

  @Column({ type: 'boolean', default: false })
  read: boolean;

  @Column({ name: 'in_app', type: 'boolean', default: true })
  inApp: boolean;

  /** Waiting for the user's hourly digest e-mail. */
  @Column({ name: 'digest_pending', type: 'boolean', default: false })
  digestPending: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
