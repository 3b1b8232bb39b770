import { AuditEntryDto } from './dto/audit-entry-response.dto';
import type { AuditType } from './audit.types';
import type { AuditEntry } from './entities/audit-entry.entity';

/** Entity (with `actor` loaded, id and fullName only) → answer. */
export function toAuditEntry(entry: AuditEntry): AuditEntryDto {
  return {
    id: entry.id,
    type: entry.type as AuditType,
    title: entry.title,
    description: entry.description,
    link: entry.link,
    timestamp: entry.createdAt.toISOString(),
    actor: entry.actor ? { id: entry.actor.id, fullName: entry.actor.fullName } : null,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: entry.details ?? {},
  };
}
