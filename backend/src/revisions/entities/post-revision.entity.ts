import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';
import { Post } from '../../posts/entities/post.entity';

/** Why a revision was kept: a save, or the moment it was submitted, approved, rejected, or restored from an older one. */
export enum RevisionKind {
  SAVE = 'SAVE',
  SUBMITTED = 'SUBMITTED',
  APPROVED = 'APPROVED',
  REJECTED = 'REJECTED',
  RESTORED = 'RESTORED',
}

export const REVISION_KINDS = Object.values(RevisionKind);

/** A post's SEO fields as a revision keeps them (and as answers show them). */
export interface PostSeo {
  metaTitle: string | null;
  metaDescription: string | null;
  canonicalUrl: string | null;
  noindex: boolean;
  socialImage: string | null;
}

/**
 * What a post looked like after a save. Pinned revisions (submission, approval, rejection) are
 * never merged into or pruned; unpinned ones are kept up to 100 per post (revisions/revisions.service.ts).
 */
@Entity('post_revisions')
@Check('CHK_post_revisions_kind', `"kind" IN ('SAVE', 'SUBMITTED', 'APPROVED', 'REJECTED', 'RESTORED')`)
@Index('IDX_post_revisions_post_created', { synchronize: false })
@Index('IDX_post_revisions_editor', ['editorId'])
export class PostRevision {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_post_revisions' })
  id: number;

  @Column({ name: 'post_id', type: 'int' })
  postId: number;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_post_revisions_post' })
  post: Post;

  @Column({ name: 'editor_id', type: 'int', nullable: true })
  editorId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'editor_id', foreignKeyConstraintName: 'FK_post_revisions_editor' })
  editor: User | null;

  @Column({ type: 'varchar', length: 16, default: RevisionKind.SAVE })
  kind: RevisionKind;

  @Column({ type: 'boolean', default: false })
  pinned: boolean;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  summary: string | null;

  @Column({ type: 'text' })
  content: string;

  /** Words of `content`, copied from the post (lists show it without reading every body). */
  @Column({ name: 'word_count', type: 'int', default: 0 })
  wordCount: number;

  @Column({ name: 'tag_slugs', type: 'jsonb', default: () => "'[]'" })
  tagSlugs: string[];

  @Column({ type: 'varchar', length: 500, nullable: true })
  thumbnail: string | null;

  @Column({ type: 'jsonb' })
  seo: PostSeo;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
