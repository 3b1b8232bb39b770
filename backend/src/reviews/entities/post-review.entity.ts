import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Post } from '../../posts/entities/post.entity';
import { User } from '../../users/entities/user.entity';

export enum ReviewStatus {
  APPROVED = 'APPROVED',
  REJECTED = 'REJECTED',
}

/** One admin decision on a post; every review is kept (the post's history). */
@Entity('post_reviews')
@Check('CHK_post_reviews_status', `"status" IN ('APPROVED', 'REJECTED')`)
@Index('IDX_post_reviews_post_created', ['postId', 'createdAt'])
@Index('IDX_post_reviews_reviewer', ['reviewerId'])
export class PostReview {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_post_reviews' })
  id: number;

  @Column({ name: 'post_id', type: 'int' })
  postId: number;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_post_reviews_post' })
  post: Post;

  @Column({ name: 'reviewer_id', type: 'int', nullable: true })
  reviewerId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'reviewer_id', foreignKeyConstraintName: 'FK_post_reviews_reviewer' })
  reviewer: User | null;

  @Column({ type: 'varchar', length: 16 })
  status: ReviewStatus;

  @Column({ name: 'review_note', type: 'varchar', length: 2000, nullable: true })
  reviewNote: string | null;

  @Column({ name: 'admin_notes', type: 'varchar', length: 2000, nullable: true })
  adminNotes: string | null;

  @Column({ name: 'rejection_reason', type: 'varchar', length: 2000, nullable: true })
  rejectionReason: string | null;

  @Column({ type: 'varchar', length: 16, default: 'NORMAL' })
  priority: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
