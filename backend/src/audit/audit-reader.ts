import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, Repository, SelectQueryBuilder } from 'typeorm';
import { toPage } from '../common/pagination/page';
import { toAuditEntry } from './audit.mapper';
import { AuditType } from './audit.types';
import { AuditEntryDto, AuditEntryPageDto } from './dto/audit-entry-response.dto';
import { AuditEntry } from './entities/audit-entry.entity';

export interface RecentAuditFilter {
  /** Only entries this user did. */
  actorId?: number;
  /** Only these types. */
  types?: readonly AuditType[];
}

/**
 * The audit log's reads: the dashboards and the user administration. Entries are written only by
 * the audit module's subscribers to the domain events, through AuditWriter (audit-writer.ts).
 */
@Injectable()
export class AuditReader {
  constructor(@InjectRepository(AuditEntry) private readonly entries: Repository<AuditEntry>) {}

  /** The newest entries, newest first (at most 100). */
  async recent(limit: number, filter: RecentAuditFilter = {}): Promise<AuditEntryDto[]> {
    const qb = this.withActor(this.entries.createQueryBuilder('entry'));
    if (filter.actorId !== undefined) qb.andWhere('entry.actorId = :actorId', { actorId: filter.actorId });
    if (filter.types?.length) qb.andWhere('entry.type IN (:...types)', { types: [...filter.types] });
    const rows = await qb
      .orderBy('entry.createdAt', 'DESC')
      .addOrderBy('entry.id', 'DESC')
      .limit(Math.min(100, Math.max(1, Math.trunc(limit) || 1)))
      .getMany();
    return rows.map(toAuditEntry);
  }

  /** What happened to a user or what they did, newest first (zero-based page). */
  async forUser(userId: number, page: number, size: number): Promise<AuditEntryPageDto> {
    const about = (qb: SelectQueryBuilder<AuditEntry>) =>
      qb.where(
        new Brackets((w) =>
          w.where("entry.targetType = 'user' AND entry.targetId = :userId", { userId }).orWhere('entry.actorId = :userId', { userId }),
        ),
      );
    const [rows, total] = await Promise.all([
      about(this.withActor(this.entries.createQueryBuilder('entry')))
        .orderBy('entry.createdAt', 'DESC')
        .addOrderBy('entry.id', 'DESC')
        .offset(page * size)
        .limit(size)
        .getMany(),
      about(this.entries.createQueryBuilder('entry')).getCount(),
    ]);
    const content = rows.map(toAuditEntry);
    const result = toPage(content, total, page, size);
    return { ...result, content, currentPage: result.number };
  }

  private withActor(qb: SelectQueryBuilder<AuditEntry>): SelectQueryBuilder<AuditEntry> {
    return qb.leftJoin('entry.actor', 'actor').addSelect(['actor.id', 'actor.fullName']);
  }
}
