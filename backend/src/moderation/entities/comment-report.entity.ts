import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Comment } from '../../comments/entities/comment.entity';
import { User } from '../../users/entities/user.entity';

export enum ReportReason {
  SPAM = 'SPAM',
  HARASSMENT = 'HARASSMENT',
  OFF_TOPIC = 'OFF_TOPIC',
  OTHER = 'OTHER',
}

/**
 * A reader's report of a comment: one per comment per reader (UQ_comment_reports_reporter, so a
 * second report is 409 even when two arrive at once). Dismissing sets dismissed_at: the row stays,
 * so the same reader cannot report the same comment again. The rows go with the comment or the
 * reporter's account.
 */
@Entity('comment_reports')
@Index('UQ_comment_reports_reporter', ['commentId', 'reporterId'], { unique: true })
@Index('IDX_comment_reports_reporter_created', ['reporterId', 'createdAt'])
export class CommentReport {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_comment_reports' })
  id: number;

  @Column({ name: 'comment_id', type: 'int' })
  commentId: number;

  @ManyToOne(() => Comment, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'comment_id', foreignKeyConstraintName: 'FK_comment_reports_comment' })
  comment?: Comment;

  @Column({ name: 'reporter_id', type: 'int' })
  reporterId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'reporter_id', foreignKeyConstraintName: 'FK_comment_reports_reporter' })
  reporter?: User;

  @Column({ type: 'varchar', length: 20 })
  reason: ReportReason;

  @Column({ type: 'varchar', length: 500, nullable: true })
  details: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'dismissed_at', type: 'timestamptz', nullable: true })
  dismissedAt: Date | null;
}
