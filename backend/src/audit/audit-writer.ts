import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditRecord, AuditType } from './audit.types';
import { AuditEntry } from './entities/audit-entry.entity';

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The one writer of the audit log. Only the audit module's subscribers use it (a dependency rule
 * in .dependency-cruiser.cjs): a service records a domain event, and the subscriber for it writes
 * the entry in the event's transaction (an action that fails leaves no entry, a committed one
 * always has its entry). The readers (dashboards, user administration) use AuditReader.
 */
@Injectable()
export class AuditWriter {
  /** Writes one entry with the event's transaction (`manager` of `DomainEvents.transaction`). */
  async record(manager: EntityManager, entry: AuditRecord): Promise<void> {
    const row: Partial<AuditEntry> = {
      type: entry.type,
      actorId: entry.actorId,
      targetType: entry.targetType,
      targetId: entry.targetId,
      title: cut(entry.title, 200),
      description: cut(entry.description ?? '', 1000),
      link: entry.link ? entry.link.slice(0, 500) : null,
      details: entry.details ?? {},
    };
    // QueryDeepPartialEntity cannot describe a jsonb object of unknown shape.
    await manager.insert(AuditEntry, row as Parameters<EntityManager['insert']>[1]);
  }

  /**
   * An erased account: the entries about it keep their type, time and actor, but
   * their descriptions and details (which may name the person) are wiped.
   */
  async forgetUser(manager: EntityManager, userId: number): Promise<void> {
    await manager.query(
      `UPDATE audit_log SET description = 'Erased account', details = '{}'::jsonb
        WHERE target_type = 'user' AND target_id = $1 AND type NOT IN ($2, $3, $4)`,
      [userId, AuditType.USER_DELETION_SCHEDULED, AuditType.USER_DELETION_CANCELLED, AuditType.USER_DELETED],
    );
  }
}
