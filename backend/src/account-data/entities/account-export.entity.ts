import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';

export type AccountExportStatus = 'QUEUED' | 'RUNNING' | 'READY' | 'FAILED' | 'EXPIRED';

/**
 * One 'Download my data' archive: built by the `account-export` job into
 * DATA_DIR/exports/<file_name>, downloadable by its owner with `token` until `expires_at` (24 h
 * after it was ready), then removed by the `account-export-expiry` job. Goes with the account.
 */
@Entity('account_exports')
@Check('CHK_account_exports_status', `"status" IN ('QUEUED', 'RUNNING', 'READY', 'FAILED', 'EXPIRED')`)
@Check('CHK_account_exports_progress', `"progress" >= 0 AND "progress" <= 100`)
@Index('IDX_account_exports_user_created', ['userId', 'createdAt'])
@Index('UQ_account_exports_token', ['token'], { unique: true, where: `"token" IS NOT NULL` })
export class AccountExport {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_account_exports' })
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_account_exports_user' })
  user?: User;

  @Column({ type: 'varchar', length: 8, default: 'QUEUED' })
  status: AccountExportStatus;

  /** Percent done while RUNNING (100 once READY). */
  @Column({ type: 'smallint', default: 0 })
  progress: number;

  /** The download link's random part (256 bits, base64url), set when READY; the link also needs the owner's session. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  token: string | null;

  /** The archive's file name under DATA_DIR/exports (random), set when READY. */
  @Column({ name: 'file_name', type: 'varchar', length: 80, nullable: true })
  fileName: string | null;

  @Column({ name: 'size_bytes', type: 'bigint', nullable: true })
  sizeBytes: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
