import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { User } from '../../users/entities/user.entity';

/**
 * One refresh token (only its SHA-256 is stored). A login starts a family (`familyId`, also the
 * `sid` of the access tokens); each refresh rotates: the presented token gets `rotatedAt` and a
 * child row with the same family is issued. Presenting a rotated token again within the grace
 * window answers with that same child (kept sealed in `successorToken` for the window only);
 * after it, re-use revokes the family.
 */
@Entity('refresh_sessions')
@Index('IDX_refresh_sessions_user', ['userId'])
@Index('IDX_refresh_sessions_family', ['familyId'])
@Index('IDX_refresh_sessions_successor_rotated', ['rotatedAt'], { where: '"successor_token" IS NOT NULL' })
export class RefreshSession {
  /** Set by the service (randomUUID), so no database extension is needed. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_refresh_sessions' })
  id: string;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_refresh_sessions_user' })
  user?: User;

  @Index('UQ_refresh_sessions_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ name: 'family_id', type: 'uuid' })
  familyId: string;

  @Column({ name: 'parent_id', type: 'uuid', nullable: true })
  parentId: string | null;

  @Column({ name: 'remember_me', type: 'boolean', default: false })
  rememberMe: boolean;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  /** Set when this token was exchanged for a new one. */
  @Column({ name: 'rotated_at', type: 'timestamptz', nullable: true })
  rotatedAt: Date | null;

  /**
   * The token this one was rotated into, sealed (AES-256-GCM, key derived from the JWT secret,
   * bound to this row's id), so that a concurrent re-use within the grace window gets the same
   * successor. Cleared once the window is over and when the session is revoked.
   */
  @Column({ name: 'successor_token', type: 'varchar', length: 255, nullable: true })
  successorToken: string | null;

  /** Set when the session ended (logout, password change or reset, token re-use). */
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 255, nullable: true })
  userAgent: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;
}
