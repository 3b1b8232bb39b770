import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';

/** Where an import's content comes from. */
export enum ImportSource {
  WORDPRESS = 'wordpress',
  GHOST = 'ghost',
  INKWELL = 'inkwell',
}

/** An import's run: waiting for the job, streaming, and how it ended. */
export enum ImportState {
  QUEUED = 'QUEUED',
  RUNNING = 'RUNNING',
  DONE = 'DONE',
  FAILED = 'FAILED',
  CANCELLED = 'CANCELLED',
}

/** What one import brought in (and, on a second run of the same file, did not need to). */
export interface ImportCounts {
  users: number;
  tags: number;
  posts: number;
  comments: number;
  images: number;
  redirects: number;
  /** Invitation e-mails queued for the author accounts this run created (when the import was asked to invite). */
  invitations: number;
}

/** A record left out, and why (the report's 'Skipped'). */
export interface ImportSkip {
  kind: 'user' | 'tag' | 'post' | 'comment' | 'image';
  sourceId: string;
  title: string;
  reason: string;
}

/** A record kept under another name, shortened, merged into another or changed on the way in (the report's 'Renamed'). */
export interface ImportRename {
  kind: 'post' | 'tag' | 'comment' | 'user';
  sourceId: string;
  from: string;
  to: string;
  reason: string;
}

/** The report keeps at most this many skipped and renamed rows (the counts stay exact). */
export const IMPORT_REPORT_ROWS = 500;

/**
 * One site import (WordPress WXR, Ghost JSON or an Inkwell export), run by a job: its files
 * (under DATA_DIR/imports, removed when it ends), its progress and its report.
 */
@Entity('site_imports')
@Check('CHK_site_imports_state', `"state" IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED')`)
@Index('IDX_site_imports_created', ['createdAt', 'id'])
export class SiteImport {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_site_imports' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  source: ImportSource;

  @Column({ type: 'varchar', length: 16, default: ImportState.QUEUED })
  state: ImportState;

  /** The uploaded file's own name (shown in the report). */
  @Column({ name: 'file_name', type: 'varchar', length: 255 })
  fileName: string;

  /** Where the upload is kept while the import runs (null once removed). */
  @Column({ name: 'file_path', type: 'varchar', length: 500, nullable: true })
  filePath: string | null;

  @Column({ name: 'media_path', type: 'varchar', length: 500, nullable: true })
  mediaPath: string | null;

  /** Posts (and pages) the file holds, once the first pass has counted them. */
  @Column({ type: 'int', nullable: true })
  total: number | null;

  /** Posts handled so far (imported, skipped or failed). */
  @Column({ type: 'int', default: 0 })
  processed: number;

  @Column({ type: 'jsonb', default: () => `'{"users":0,"tags":0,"posts":0,"comments":0,"images":0,"redirects":0,"invitations":0}'` })
  counts: ImportCounts;

  /** How many records were skipped (the list below keeps the first IMPORT_REPORT_ROWS). */
  @Column({ name: 'skipped_count', type: 'int', default: 0 })
  skippedCount: number;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  skipped: ImportSkip[];

  @Column({ name: 'renamed_count', type: 'int', default: 0 })
  renamedCount: number;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  renamed: ImportRename[];

  /** Why a FAILED import stopped (a file that is not what it says, a database fault). */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  error: string | null;

  /** Whether each author account the import creates is sent an invitation e-mail (a link to set its password). */
  @Column({ name: 'invite_authors', type: 'boolean', default: false })
  inviteAuthors: boolean;

  @Column({ name: 'cancel_requested', type: 'boolean', default: false })
  cancelRequested: boolean;

  @Column({ name: 'created_by', type: 'int', nullable: true })
  createdBy: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_site_imports_created_by' })
  creator: User | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
