import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { User } from '../../users/entities/user.entity';

/**
 * A personal API token. Only the SHA-256 of the token is stored: the token itself
 * is shown once, when it is created. Revoking deletes the row, so the next request is refused.
 */
@Entity('api_tokens')
@Index('IDX_api_tokens_user', ['userId'])
export class ApiToken {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_api_tokens' })
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_api_tokens_user' })
  user?: User;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Index('UQ_api_tokens_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  /** ApiTokenScope values (isomorphic/api-tokens.ts). */
  @Column({ type: 'varchar', length: 32, array: true })
  scopes: string[];

  /** Null: the token does not expire. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  /** Written at most once a minute per token (the guard reads it with the token). */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
