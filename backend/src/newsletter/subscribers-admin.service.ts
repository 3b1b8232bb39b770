import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page, toPage } from '../common/pagination/page';
import { containsPattern, countRows } from '../common/sql-patterns';
import type { FollowerCountsDto } from './dto/newsletter.dto';
import type {
  AdminSubscriberDto,
  ImportReportDto,
  ImportRowIssueDto,
  SubscriberQueryDto,
  SuppressionDto,
  SuppressionQueryDto,
} from './dto/subscribers-admin.dto';
import type { FollowKind } from './entities/newsletter-follow.entity';
import type { SubscriberCadence, SubscriberSource, SubscriberStatus } from './entities/newsletter-subscriber.entity';
import type { SuppressionReason } from './entities/newsletter-suppression.entity';
import { followsOf } from './newsletter-follows';
import { NewsletterMessages } from './newsletter.messages';
import { csvField, CsvRow, CsvUnreadable, EXPORT_HEADER, parseSubscriberCsv } from './subscriber-csv';

interface AdminRow {
  id: number;
  email: string;
  name: string | null;
  user_id: number | null;
  status: SubscriberStatus;
  cadence: SubscriberCadence;
  digest_weekday: number | null;
  source: SubscriberSource;
  soft_bounces: number;
  suppressed: SuppressionReason | null;
  created_at: Date;
  confirmed_at: Date | null;
}

/** Rows exported per query: the CSV is streamed, never held whole. */
const EXPORT_BATCH = 1000;
/** The CSV text an import takes (the JSON body limit is 2 MB). */
const IMPORT_MAX_CHARS = 2 * 1024 * 1024;

/**
 * The subscribers' back-office (`/admin/subscribers`, ADMIN only): the list with search and
 * filters, removal, the suppression list, CSV export and import, and follower counts.
 */
@Injectable()
export class SubscribersAdminService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(query: SubscriberQueryDto): Promise<Page<AdminSubscriberDto> & { currentPage: number }> {
    const { where, params } = this.filters(query);
    const from = `FROM newsletter_subscribers s ${where}`;
    const total = await countRows(this.dataSource, from, params);
    const rows: AdminRow[] = await this.dataSource.query(
      `SELECT s.id, s.email, s.name, s.user_id, s.status, s.cadence, s.digest_weekday, s.source, s.soft_bounces, s.created_at, s.confirmed_at,
              (SELECT x.reason FROM newsletter_suppressions x WHERE x.email = s.email) AS suppressed
         ${from} ORDER BY s.created_at DESC, s.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.size, query.page * query.size],
    );
    const follows = await followsOf(
      this.dataSource,
      rows.map((row) => row.id),
    );
    const content = rows.map((row) => this.toDto(row, follows.get(row.id) ?? []));
    return { ...toPage(content, total, query.page, query.size), currentPage: query.page };
  }

  async remove(id: number): Promise<void> {
    const [removed]: [unknown[], number] = await this.dataSource.query(`DELETE FROM newsletter_subscribers WHERE id = $1 RETURNING id`, [
      id,
    ]);
    if (!removed.length) throw new NotFoundException(NewsletterMessages.SUBSCRIBER_NOT_FOUND);
  }

  async suppressions(query: SuppressionQueryDto): Promise<Page<SuppressionDto> & { currentPage: number }> {
    const params: unknown[] = [];
    let where = '';
    if (query.search) {
      params.push(containsPattern(query.search.toLowerCase()));
      where = `WHERE email ILIKE $1`;
    }
    const total = await countRows(this.dataSource, `FROM newsletter_suppressions ${where}`, params);
    const rows: { email: string; reason: SuppressionReason; detail: string | null; created_at: Date }[] = await this.dataSource.query(
      `SELECT email, reason, detail, created_at FROM newsletter_suppressions ${where} ORDER BY created_at DESC, email LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.size, query.page * query.size],
    );
    const content = rows.map((row) => ({
      email: row.email,
      reason: row.reason,
      detail: row.detail,
      createdAt: row.created_at.toISOString(),
    }));
    return { ...toPage(content, total, query.page, query.size), currentPage: query.page };
  }

  /** An admin suppresses an address by hand (reason 'manual'); one already suppressed keeps its reason. */
  async suppress(email: string, detail: string | null | undefined): Promise<SuppressionDto> {
    await this.dataSource.query(
      `INSERT INTO newsletter_suppressions (email, reason, detail) VALUES ($1, 'manual', $2) ON CONFLICT (email) DO NOTHING`,
      [email, detail ?? null],
    );
    const [row]: { email: string; reason: SuppressionReason; detail: string | null; created_at: Date }[] = await this.dataSource.query(
      `SELECT email, reason, detail, created_at FROM newsletter_suppressions WHERE email = $1`,
      [email],
    );
    return { email: row.email, reason: row.reason, detail: row.detail, createdAt: row.created_at.toISOString() };
  }

  /** Un-suppresses: newsletter e-mail may go to the address again (its soft-bounce count starts over). */
  async unsuppress(email: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const [removed]: [unknown[], number] = await manager.query(`DELETE FROM newsletter_suppressions WHERE email = $1 RETURNING email`, [
        email,
      ]);
      if (!removed.length) throw new NotFoundException(NewsletterMessages.SUPPRESSION_NOT_FOUND);
      await manager.query(`UPDATE newsletter_subscribers SET soft_bounces = 0 WHERE email = $1`, [email]);
    });
  }

  async counts(): Promise<FollowerCountsDto> {
    const [totals]: { publication: number; active: number; pending: number; unsubscribed: number; suppressed: number }[] =
      await this.dataSource.query(
        `SELECT (SELECT count(*)::int FROM newsletter_follows f JOIN newsletter_subscribers s ON s.id = f.subscriber_id
                  WHERE f.kind = 'publication' AND s.status = 'active') AS publication,
                count(*) FILTER (WHERE status = 'active')::int AS active,
                count(*) FILTER (WHERE status = 'pending')::int AS pending,
                count(*) FILTER (WHERE status = 'unsubscribed')::int AS unsubscribed,
                (SELECT count(*)::int FROM newsletter_suppressions) AS suppressed
           FROM newsletter_subscribers`,
      );
    const targets = (kind: FollowKind, table: string, nameColumn: string) =>
      this.dataSource.query(
        `SELECT x.id, x.${nameColumn} AS name, x.slug, count(*)::int AS count
           FROM newsletter_follows f JOIN newsletter_subscribers s ON s.id = f.subscriber_id JOIN ${table} x ON x.id = f.target_id
          WHERE f.kind = $1 AND s.status = 'active'
          GROUP BY x.id ORDER BY count DESC, x.id LIMIT 200`,
        [kind],
      ) as Promise<{ id: number; name: string; slug: string; count: number }[]>;
    return { ...totals, authors: await targets('author', 'users', 'full_name'), tags: await targets('tag', 'tags', 'name') };
  }

  /** The whole list as CSV (Inkwell's format, importable as it is), written in batches to `write`. */
  async exportCsv(write: (chunk: string) => Promise<void>): Promise<void> {
    await write(`${EXPORT_HEADER.join(',')}\r\n`);
    let after = 0;
    for (;;) {
      const rows: (AdminRow & { follows: string | null })[] = await this.dataSource.query(
        `SELECT s.id, s.email, s.name, s.status, s.cadence, s.digest_weekday, s.source, s.created_at, s.confirmed_at,
                (SELECT x.reason FROM newsletter_suppressions x WHERE x.email = s.email) AS suppressed,
                (SELECT string_agg(CASE f.kind WHEN 'publication' THEN 'publication'
                                               WHEN 'author' THEN 'author:' || COALESCE(u.slug, f.target_id::text)
                                               ELSE 'tag:' || COALESCE(t.slug, f.target_id::text) END, '; '
                                   ORDER BY CASE f.kind WHEN 'publication' THEN 0 WHEN 'author' THEN 1 ELSE 2 END, f.id)
                   FROM newsletter_follows f
                   LEFT JOIN users u ON f.kind = 'author' AND u.id = f.target_id
                   LEFT JOIN tags t ON f.kind = 'tag' AND t.id = f.target_id
                  WHERE f.subscriber_id = s.id) AS follows
           FROM newsletter_subscribers s WHERE s.id > $1 ORDER BY s.id LIMIT $2`,
        [after, EXPORT_BATCH],
      );
      if (!rows.length) return;
      after = rows[rows.length - 1].id;
      const lines = rows.map((row) =>
        [
          row.email,
          row.name ?? '',
          row.follows ?? '',
          row.status,
          row.cadence,
          row.digest_weekday === null ? '' : String(row.digest_weekday),
          row.source,
          row.created_at.toISOString(),
          row.confirmed_at ? row.confirmed_at.toISOString() : '',
          row.suppressed ?? '',
        ]
          .map(csvField)
          .join(','),
      );
      await write(`${lines.join('\r\n')}\r\n`);
    }
  }

  /**
   * Imports a CSV (subscriber-csv.ts: Inkwell's, Ghost's or Substack's format). ALL OR NOTHING:
   * every row is checked first (the address, the name, each follow's author or tag); when any row
   * has an error, the answer is 400 with every error by line and nothing is written. Otherwise
   * every row is written in one transaction: a new address becomes an active subscriber (source
   * 'import': the admin asserts the consent) following what the row names; an address already
   * there gets the row's follows added (a pending one becomes active); an address that
   * unsubscribed is left alone and reported as skipped. No e-mail is sent to anyone.
   */
  async importCsv(csv: string, dryRun: boolean): Promise<ImportReportDto> {
    if (csv.length > IMPORT_MAX_CHARS) throw new BadRequestException(NewsletterMessages.CSV_TOO_LARGE);
    let parsed;
    try {
      parsed = parseSubscriberCsv(csv);
    } catch (error) {
      if (!(error instanceof CsvUnreadable)) throw error;
      const message =
        error.message === 'no email column'
          ? NewsletterMessages.CSV_NO_EMAIL_COLUMN
          : error.message === 'empty'
            ? NewsletterMessages.CSV_EMPTY
            : NewsletterMessages.CSV_UNREADABLE;
      throw new BadRequestException({ message, errors: { csv: [message] } });
    }
    const { rows, skipped, errors, format } = parsed;
    const resolved = await this.resolveFollows(rows, errors);
    if (errors.length) {
      errors.sort((a, b) => a.line - b.line);
      throw new BadRequestException({
        message: NewsletterMessages.csvRowErrors(errors.length),
        errors: Object.fromEntries(
          errors.slice(0, 1000).map((issue) => [`line ${issue.line}`, [`${issue.email ? `${issue.email}: ` : ''}${issue.reason}`]]),
        ),
      });
    }
    if (!rows.length && !skipped.length)
      throw new BadRequestException({ message: NewsletterMessages.CSV_EMPTY, errors: { csv: [NewsletterMessages.CSV_EMPTY] } });
    const report: ImportReportDto = {
      format,
      applied: !dryRun,
      rows: rows.length + skipped.length,
      created: 0,
      updated: 0,
      skipped: [...skipped],
    };
    if (dryRun) {
      const existing = await this.existing(
        this.dataSource.manager,
        rows.map((row) => row.email),
      );
      for (const row of rows) {
        const status = existing.get(row.email);
        if (status === 'unsubscribed') report.skipped.push({ line: row.line, email: row.email, reason: 'unsubscribed here earlier' });
        else if (status) report.updated += 1;
        else report.created += 1;
      }
      report.skipped.sort((a, b) => a.line - b.line);
      return report;
    }
    await this.dataSource.transaction(async (manager) => {
      const existing = await this.existing(
        manager,
        rows.map((row) => row.email),
      );
      for (let start = 0; start < rows.length; start += 500) {
        const batch = rows.slice(start, start + 500);
        const fresh = batch.filter((row) => !existing.has(row.email));
        if (fresh.length)
          await manager.query(
            `INSERT INTO newsletter_subscribers (email, name, status, source, confirmed_at)
             SELECT e, n, 'active', 'import', now() FROM unnest($1::text[], $2::text[]) AS v(e, n)
             ON CONFLICT (email) DO NOTHING`,
            [fresh.map((row) => row.email), fresh.map((row) => row.name)],
          );
        const kept: CsvRow[] = [];
        for (const row of batch) {
          const status = existing.get(row.email);
          if (status === 'unsubscribed') report.skipped.push({ line: row.line, email: row.email, reason: 'unsubscribed here earlier' });
          else {
            kept.push(row);
            if (status) report.updated += 1;
            else report.created += 1;
          }
        }
        await manager.query(
          `UPDATE newsletter_subscribers SET status = 'active', confirmed_at = COALESCE(confirmed_at, now()) WHERE email = ANY($1::text[]) AND status = 'pending'`,
          [kept.map((row) => row.email)],
        );
        const emails: string[] = [];
        const kinds: string[] = [];
        const ids: number[] = [];
        for (const row of kept)
          for (const follow of resolved.get(row.line) ?? []) {
            emails.push(row.email);
            kinds.push(follow.kind);
            ids.push(follow.targetId);
          }
        if (emails.length)
          await manager.query(
            `INSERT INTO newsletter_follows (subscriber_id, kind, target_id)
             SELECT s.id, v.k, v.t FROM unnest($1::text[], $2::text[], $3::int[]) AS v(e, k, t) JOIN newsletter_subscribers s ON s.email = v.e
             ON CONFLICT (subscriber_id, kind, target_id) DO NOTHING`,
            [emails, kinds, ids],
          );
      }
    });
    report.skipped.sort((a, b) => a.line - b.line);
    return report;
  }

  private async existing(manager: EntityManager, emails: string[]): Promise<Map<string, SubscriberStatus>> {
    const rows: { email: string; status: SubscriberStatus }[] = emails.length
      ? await manager.query(`SELECT email, status FROM newsletter_subscribers WHERE email = ANY($1::text[])`, [emails])
      : [];
    return new Map(rows.map((row) => [row.email, row.status]));
  }

  /** Each row's follows as (kind, id); an author or tag that does not exist is an error of its row. */
  private async resolveFollows(
    rows: CsvRow[],
    errors: ImportRowIssueDto[],
  ): Promise<Map<number, { kind: FollowKind; targetId: number }[]>> {
    const refs = (kind: FollowKind) => [
      ...new Set(rows.flatMap((row) => row.follows.filter((f) => f.kind === kind).map((f) => f.ref.toLowerCase()))),
    ];
    const lookup = async (kind: FollowKind, sql: string): Promise<Map<string, number>> => {
      const wanted = refs(kind);
      if (!wanted.length) return new Map();
      const found: { id: number; slug: string }[] = await this.dataSource.query(sql, [
        wanted,
        wanted.filter((ref) => /^\d{1,9}$/.test(ref)).map(Number),
      ]);
      const map = new Map<string, number>();
      for (const row of found) {
        map.set(row.slug.toLowerCase(), row.id);
        map.set(String(row.id), row.id);
      }
      return map;
    };
    const authors = await lookup(
      'author',
      `SELECT id, slug FROM users WHERE status = 'ACTIVE' AND (lower(slug) = ANY($1::text[]) OR id = ANY($2::int[]))`,
    );
    const tags = await lookup(
      'tag',
      `SELECT id, slug FROM tags WHERE is_active AND (lower(slug) = ANY($1::text[]) OR id = ANY($2::int[]))`,
    );
    const resolved = new Map<number, { kind: FollowKind; targetId: number }[]>();
    for (const row of rows) {
      const follows: { kind: FollowKind; targetId: number }[] = [];
      let failed = false;
      for (const follow of row.follows) {
        if (follow.kind === 'publication') follows.push({ kind: 'publication', targetId: 0 });
        else {
          const id = (follow.kind === 'author' ? authors : tags).get(follow.ref.toLowerCase());
          if (id === undefined) {
            errors.push({ line: row.line, email: row.email, reason: `no ${follow.kind} '${follow.ref.slice(0, 100)}'` });
            failed = true;
            break;
          }
          follows.push({ kind: follow.kind, targetId: id });
        }
      }
      if (!failed) resolved.set(row.line, follows);
    }
    return resolved;
  }

  private filters(query: SubscriberQueryDto): { where: string; params: unknown[] } {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (query.search) {
      params.push(containsPattern(query.search));
      clauses.push(`(s.email ILIKE $${params.length} OR s.name ILIKE $${params.length})`);
    }
    if (query.status) {
      params.push(query.status);
      clauses.push(`s.status = $${params.length}`);
    }
    if (query.follow) {
      const match = /^(publication)$|^(author|tag):(\d{1,9})$/.exec(query.follow);
      if (!match)
        throw new BadRequestException({
          message: NewsletterMessages.FOLLOW_FILTER_INVALID,
          errors: { follow: [NewsletterMessages.FOLLOW_FILTER_INVALID] },
        });
      params.push(match[1] ?? match[2], match[1] ? 0 : Number(match[3]));
      clauses.push(
        `EXISTS (SELECT 1 FROM newsletter_follows f WHERE f.subscriber_id = s.id AND f.kind = $${params.length - 1} AND f.target_id = $${params.length})`,
      );
    }
    return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
  }

  private toDto(row: AdminRow, follows: AdminSubscriberDto['follows']): AdminSubscriberDto {
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      userId: row.user_id,
      status: row.status,
      cadence: row.cadence,
      digestWeekday: row.digest_weekday,
      source: row.source,
      softBounces: row.soft_bounces,
      suppressed: row.suppressed,
      createdAt: row.created_at.toISOString(),
      confirmedAt: row.confirmed_at ? row.confirmed_at.toISOString() : null,
      follows,
    };
  }
}
