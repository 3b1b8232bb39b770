import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { User } from '../../users/entities/user.entity';
import type { PostTag } from './post-tag.entity';

/** Post status as stored (docs/requirements.md#post-transitions, uppercase in the database). */
export enum PostStatus {
  DRAFT = 'DRAFT',
  PENDING_REVIEW = 'PENDING_REVIEW',
  PUBLISHED = 'PUBLISHED',
  REJECTED = 'REJECTED',
  ARCHIVED = 'ARCHIVED',
  PRIVATE = 'PRIVATE',
}

export const POST_STATUSES = Object.values(PostStatus);

/**
 * A post. `content` is the Markdown source; `contentHtml` is rendered and sanitized on save
 * (common/markdown.ts). Counters live on the row (likes/comments change in the same transaction
 * as their rows; views are batched by PostViewsService).
 *
 * Indexes: the public list and the sitemap read (status, published_at, id) backwards, keyset- and
 * offset-friendly (ids come from an index-only scan); authors list their own posts by
 * (author_id, status, created_at); the back-office list sorts by (created_at, id), or by
 * (status, created_at, id) when it filters a status; featured posts have a partial index.
 */
@Entity('posts')
@Check('CHK_posts_status', `"status" IN ('DRAFT', 'PENDING_REVIEW', 'PUBLISHED', 'REJECTED', 'ARCHIVED', 'PRIVATE')`)
@Check('CHK_posts_counts', `"view_count" >= 0 AND "like_count" >= 0 AND "comment_count" >= 0 AND "reading_time" >= 1`)
@Check('CHK_posts_word_count', `"word_count" >= 0`)
@Index('IDX_posts_status_published', ['status', 'publishedAt', 'id'])
@Index('IDX_posts_author_status_created', ['authorId', 'status', 'createdAt'])
@Index('IDX_posts_created', ['createdAt', 'id'])
@Index('IDX_posts_status_created', ['status', 'createdAt', 'id'])
@Index('IDX_posts_featured_published', ['publishedAt', 'id'], { where: `"is_featured" = true AND "status" = 'PUBLISHED'` })
@Index('IDX_posts_scheduled_due', ['scheduledAt'], { where: `"status" = 'PENDING_REVIEW' AND "scheduled_at" IS NOT NULL` })
// Search indexes TypeORM cannot describe (GIN; an expression): created by CreatePostSearch, ignored by the generator.
@Index('IDX_posts_search_document', { synchronize: false })
@Index('IDX_posts_search_head', { synchronize: false })
@Index('IDX_posts_title_trgm', { synchronize: false })
export class Post {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_posts' })
  id: number;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Index('UQ_posts_slug', { unique: true })
  @Column({ type: 'varchar', length: 200 })
  slug: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  summary: string | null;

  @Column({ type: 'text' })
  content: string;

  @Column({ name: 'content_html', type: 'text' })
  contentHtml: string;

  @Column({ type: 'varchar', length: 20, default: PostStatus.DRAFT })
  status: PostStatus;

  @Column({ type: 'varchar', length: 500, nullable: true })
  thumbnail: string | null;

  @Column({ name: 'is_featured', type: 'boolean', default: false })
  isFeatured: boolean;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'FK_posts_author' })
  author: User;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt: Date | null;

  @Column({ name: 'view_count', type: 'int', default: 0 })
  viewCount: number;

  @Column({ name: 'like_count', type: 'int', default: 0 })
  likeCount: number;

  @Column({ name: 'comment_count', type: 'int', default: 0 })
  commentCount: number;

  /** Minutes: words / 200 rounded up, at least 1. */
  @Column({ name: 'reading_time', type: 'int', default: 1 })
  readingTime: number;

  /** Words of the Markdown source (runs of non-space characters), counted on save like readingTime. */
  @Column({ name: 'word_count', type: 'int', default: 0 })
  wordCount: number;

  /**
   * The weighted full-text document (title A; summary and tag names B; body text C), written by
   * database triggers only (migration CreatePostSearch): never selected, inserted or updated here.
   */
  @Column({ name: 'search_document', type: 'tsvector', select: false, insert: false, update: false, default: () => "''::tsvector" })
  searchDocument?: string;

  /** The document's title, summary and tag part alone (weights A and B), kept by the same triggers. */
  @Column({ name: 'search_head', type: 'tsvector', select: false, insert: false, update: false, default: () => "''::tsvector" })
  searchHead?: string;

  /** An approved post waiting for its time (status stays PENDING_REVIEW until the scheduler publishes it). */
  @Column({ name: 'scheduled_at', type: 'timestamptz', nullable: true })
  scheduledAt: Date | null;

  /** The time the author asked for when submitting; cleared when the post is published. */
  @Column({ name: 'requested_publish_at', type: 'timestamptz', nullable: true })
  requestedPublishAt: Date | null;

  /** The admin who set `scheduledAt`. */
  @Column({ name: 'scheduled_by', type: 'int', nullable: true })
  scheduledBy: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'scheduled_by', foreignKeyConstraintName: 'FK_posts_scheduled_by' })
  scheduler: User | null;

  /** The edit a save is based on is checked against this (409 on a stale one): 1 on create, +1 on every save, restore and status change. */
  @Column({ type: 'int', default: 1 })
  version: number;

  /** SEO fields: each overrides what the post page derives (title, summary, own URL, the thumbnail's 1200-wide variant). */
  @Column({ name: 'meta_title', type: 'varchar', length: 300, nullable: true })
  metaTitle: string | null;

  @Column({ name: 'meta_description', type: 'varchar', length: 500, nullable: true })
  metaDescription: string | null;

  @Column({ name: 'canonical_url', type: 'varchar', length: 500, nullable: true })
  canonicalUrl: string | null;

  @Column({ type: 'boolean', default: false })
  noindex: boolean;

  @Column({ name: 'social_image', type: 'varchar', length: 500, nullable: true })
  socialImage: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @OneToMany('PostTag', (postTag: PostTag) => postTag.post)
  postTags: PostTag[];
}
