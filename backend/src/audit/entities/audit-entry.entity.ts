import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';
import type { AuditTargetType } from '../audit.types';

/**
 * One row of the audit log: who (actor, kept as null when that account is deleted) did what
 * (type) to which row (target_type + target_id, no foreign key: the target may be deleted and
 * its history must stay). Written in the same transaction as the action it records.
 *
 * Indexes: the newest entries (dashboards) read IDX_audit_log_created backwards; a user's history
 * reads IDX_audit_log_target (as the target) and IDX_audit_log_actor (as the actor).
 */
@Entity('audit_log')
@Check('CHK_audit_log_target_type', `"target_type" IN ('user', 'post', 'tag', 'comment', 'webhook')`)
@Index('IDX_audit_log_created', ['createdAt', 'id'])
@Index('IDX_audit_log_target', ['targetType', 'targetId', 'createdAt', 'id'])
@Index('IDX_audit_log_actor', ['actorId', 'createdAt', 'id'])
export class AuditEntry {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_audit_log' })
  id: number;

  @Column({ type: 'varchar', length: 40 })
  type: string;

  @Column({ name: 'actor_id', type: 'int', nullable: true })
  actorId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'FK_audit_log_actor' })
  actor?: User | null;

  @Column({ name: 'target_type', type: 'varchar', length: 16 })
  targetType: AuditTargetType;

  @Column({ name: 'target_id', type: 'int' })
  targetId: number;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  link: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
