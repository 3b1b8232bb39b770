import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The stored event stream (docs/events.md): one row per domain event, written in the transaction
 * of the change it records, so a committed change always has its event and a rolled-back one never
 * does. `id` orders the stream; readers (webhooks, exports) keep the last id they handled.
 */
@Entity({ name: 'domain_events' })
@Index('IDX_domain_events_subject', ['subjectType', 'subjectId', 'id'])
export class DomainEventRow {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_domain_events' })
  id: string;

  @Column({ type: 'varchar', length: 60 })
  name: string;

  @Column({ name: 'subject_type', type: 'varchar', length: 20 })
  subjectType: string;

  @Column({ name: 'subject_id', type: 'int' })
  subjectId: number;

  @Column({ name: 'actor_id', type: 'int', nullable: true })
  actorId: number | null;

  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @CreateDateColumn({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;
}
