import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Post } from '../../posts/entities/post.entity';
import { User } from '../../users/entities/user.entity';

/** Replies nest at most this deep (docs/requirements.md#constants-comments 'reply maxLevel 3'): levels 0 (top) to 3. */
export const MAX_COMMENT_LEVEL = 3;
/** docs/requirements.md#validation-comment, docs/requirements.md#constants-comments: 1–200 characters after trimming. */
export const MAX_COMMENT_LENGTH = 200;

/** The remote author of a reply that came from the fediverse (docs/federation.md). */
export interface RemoteCommentAuthor {
  /** The actor's id (its URI). */
  actor: string;
  name: string;
  /** `@user@host`. */
  handle: string;
  avatar: string | null;
  /** The profile page. */
  url: string | null;
}

/**
 * Moderation state: VISIBLE as the spec knows comments; HIDDEN by a moderator or the
 * post's author (it keeps its place and replies, the text is shown to nobody but the queue);
 * HELD by the spam rules (shown to its author and the queue only, until approved).
 */
export enum CommentModeration {
  VISIBLE = 'VISIBLE',
  HIDDEN = 'HIDDEN',
  HELD = 'HELD',
}

/**
 * A comment on a post: plain text as typed (never HTML), `level` 0 for a top-level comment and
 * parent's level + 1 for a reply (at most 3). `replyCount` is the number of VISIBLE reply rows under it
 * (kept in the same transaction as the reply row, like the post's `comment_count`).
 *
 * Deletion (CommentsService.remove): a comment with replies stays as a placeholder
 * (`deleted_at` set, content wiped) so its replies keep their place; one without replies is
 * removed, and a placeholder parent left without replies is removed too, up the thread.
 * The post's comment_count and a comment's reply_count count VISIBLE comments only:
 * hiding, holding and restoring move them in the same transaction.
 *
 * Indexes: a post's top-level comments by (post_id, created_at, id) where parent_id is null
 * (the post's list, read backwards or forwards), and by post_id alone for those not HELD (the
 * list's total, index-only); replies by (parent_id, created_at, id); a user's
 * comments by (user_id, created_at, id), and their counted ones (not deleted, VISIBLE) by
 * (user_id, post_id) (the reader dashboard's comment totals from the index alone); the newest comments site-wide by (created_at, id) of
 * live comments (admin recent, dashboards' "today"); all of a post's comments by
 * (post_id, created_at, id) (stats, search in a post, the cascade when a post is deleted); and a
 * GIN full-text index on the content ('simple' configuration) for the keyword search.
 */
@Entity('comments')
@Check('CHK_comments_level', `"level" >= 0 AND "level" <= 3`)
@Check('CHK_comments_parent_level', `("parent_id" IS NULL) = ("level" = 0)`)
@Check('CHK_comments_reply_count', `"reply_count" >= 0`)
@Check('CHK_comments_moderation', `"moderation" IN ('VISIBLE', 'HIDDEN', 'HELD')`)
@Index('IDX_comments_post_root_created', ['postId', 'createdAt', 'id'], { where: `"parent_id" IS NULL` })
@Index('IDX_comments_post_root_shown', ['postId'], { where: `"parent_id" IS NULL AND "moderation" <> 'HELD'` })
@Index('IDX_comments_post_created', ['postId', 'createdAt', 'id'])
@Index('IDX_comments_parent_created', ['parentId', 'createdAt', 'id'], { where: `"parent_id" IS NOT NULL` })
@Index('IDX_comments_user_created', ['userId', 'createdAt', 'id'])
@Index('IDX_comments_user_counted', ['userId', 'postId'], { where: `"deleted_at" IS NULL AND "moderation" = 'VISIBLE'` })
@Index('IDX_comments_live_created', ['createdAt', 'id'], { where: `"deleted_at" IS NULL` })
// The moderation queue's hidden and held lists, newest first (few rows: a partial index).
@Index('IDX_comments_reported', ['reportCount', 'id'], { where: `"report_count" > 0` })
@Index('IDX_comments_moderated_created', ['moderation', 'createdAt', 'id'], { where: `"moderation" <> 'VISIBLE'` })
// An expression index TypeORM cannot describe: created by the migration, ignored by the generator.
@Index('IDX_comments_content_fts', { synchronize: false })
export class Comment {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_comments' })
  id: number;

  @Column({ name: 'post_id', type: 'int' })
  postId: number;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_comments_post' })
  post: Post;

  /** Null when the author's account was removed ('Unknown User' on screen). */
  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_comments_user' })
  user: User | null;

  @Column({ name: 'parent_id', type: 'int', nullable: true })
  parentId: number | null;

  @ManyToOne(() => Comment, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'FK_comments_parent' })
  parent: Comment | null;

  /** As typed, trimmed (1–200 characters); '' once deleted. */
  @Column({ type: 'varchar', length: 200 })
  content: string;

  @Column({ type: 'smallint', default: 0 })
  level: number;

  @Column({ name: 'reply_count', type: 'int', default: 0 })
  replyCount: number;

  /** Set when a comment with replies is deleted (it stays as '[This comment has been deleted]'). */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @Column({ type: 'varchar', length: 10, default: CommentModeration.VISIBLE })
  moderation: CommentModeration;

  /** Why it was hidden (shown in the queue and the author's notification); null unless HIDDEN. */
  @Column({ name: 'hidden_reason', type: 'varchar', length: 500, nullable: true })
  hiddenReason: string | null;

  /** Who hid it (an admin or the post's author); null unless HIDDEN, or when that account is gone. */
  @Column({ name: 'hidden_by', type: 'int', nullable: true })
  hiddenById: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'hidden_by', foreignKeyConstraintName: 'FK_comments_hidden_by' })
  hiddenBy?: User | null;

  @Column({ name: 'hidden_at', type: 'timestamptz', nullable: true })
  hiddenAt: Date | null;

  /** Open reports (dismissing them sets it back to 0); kept with the report rows in one transaction. */
  @Column({ name: 'report_count', type: 'int', default: 0 })
  reportCount: number;

  /** A reply from the fediverse (docs/federation.md): its Note's id; null for a local comment. */
  @Column({ name: 'remote_uri', type: 'text', nullable: true })
  remoteUri: string | null;

  /** Who wrote a reply from the fediverse (name, handle, avatar, profile link, actor id); null for a local comment. */
  @Column({ name: 'remote_author', type: 'jsonb', nullable: true })
  remoteAuthor: RemoteCommentAuthor | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Changes only when the content is edited (the '(edited)' mark), not with the reply count. */
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
