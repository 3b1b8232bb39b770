import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One key's attempts in its current window (DatabaseAttemptCounter). The key is stored as an
 * HMAC (keyed with a secret derived from JWT_SECRET), so no e-mail address lands in this table,
 * including addresses that have no account. Rows whose window ended are swept.
 */
@Entity('attempt_counters')
export class AttemptCounterRow {
  @PrimaryColumn({ name: 'key_hash', type: 'char', length: 64, primaryKeyConstraintName: 'PK_attempt_counters' })
  keyHash: string;

  @Column({ type: 'int' })
  count: number;

  @Index('IDX_attempt_counters_window_ends_at')
  @Column({ name: 'window_ends_at', type: 'timestamptz' })
  windowEndsAt: Date;
}
