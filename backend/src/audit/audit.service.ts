import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { toPage } from '../common/pagination/page';
import { toAuditEntry } from './audit.mapper';
import { AuditRecord, AuditType } from './audit.types';
import { AuditEntryDto, AuditEntryPageDto } from './dto/audit-entry-response.dto';
import { AuditEntry } from './entities/audit-entry.entity';

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export interface RecentAuditFilter {
  /** Only entries this user did. */
  actorId?: number;
  /** Only these types. */
  types?: readonly AuditType[];
}

/**
 * The audit log: services record what happened inside the transaction that does it (so an
 * action that fails leaves no entry, and a committed one always has its entry); the dashboards
 * and the user administration read it.
 */
@Injectable()
export class AuditService {
  constructor(@InjectRepository(AuditEntry) private readonly entries: Repository<AuditEntry>) {}

  /** Writes one entry with the caller's transaction (`manager` of `dataSource.transaction`). */
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
