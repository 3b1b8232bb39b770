import { ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { CLOCK, type Clock } from '../common/clock';
import { RoleName } from '../users/roles';
import { AnalyticsMessages } from './analytics.messages';
import type { StatsAuthorDto, StatsDayDto, StatsDto, StatsPostDto } from './dto/analytics.dto';

const DAY_MS = 86_400_000;
const TOP = 10;
/** How long an answer is reused (docs/analytics.md: the figures are at most this old). */
export const ANSWER_TTL_MS = 30_000;

/**
 * The end of the 30-s window `time` is in: answers (and the Stats pages held with them,
 * StatsPageHold) last until then, so whatever is shown in a window was computed in it.
 */
export const answerWindowEnd = (time: number): number => (Math.floor(time / ANSWER_TTL_MS) + 1) * ANSWER_TTL_MS;
const MAX_ANSWERS = 1_000;

/** A caller's own copy of a held answer (post(), author() add fields to theirs). */
const copy = (stats: StatsDto): StatsDto => ({ ...stats });

/** Whose figures: the whole site, one author's posts, or one post. */
export type StatsScope = { kind: 'site' } | { kind: 'author'; id: number } | { kind: 'post'; id: number };

const utcDay = (time: number): string => new Date(time).toISOString().slice(0, 10);

interface Part {
  /** SQL condition on analytics_views (raw rows after the daily watermark), with $4 the scope's id. */
  raw: string;
}

/**
 * The figures the Stats pages and the analytics API show (docs/analytics.md, 'Reading'): the
 * rolled-up tables for the days before the rollup's daily watermark, the raw rows from it on
 * (today, and whatever the rollup has not reached yet), so a range of any length reads at most a
 * day or so of raw rows. Every query's parameters: $1 the first day, $2 the watermark day, $3 the
 * first moment read from raw rows, $4 the scope's id.
 */
@Injectable()
export class AnalyticsQueryService {
  private readonly answers = new Map<string, { answer: Promise<StatsDto>; until: number }>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** An author's own posts (or an admin's). */
  mine(user: AuthUser, days: number): Promise<StatsDto> {
    return this.stats({ kind: 'author', id: user.id }, days);
  }

  /** One post: its author or an administrator; 404 for an unknown post, 403 for someone else's. */
  async post(user: AuthUser, id: number, days: number): Promise<StatsDto> {
    const [row] = (await this.dataSource.query(`SELECT id, author_id, title, slug, status FROM posts WHERE id = $1`, [id])) as {
      id: number;
      author_id: number;
      title: string;
      slug: string;
      status: string;
    }[];
    if (!row) throw new NotFoundException(AnalyticsMessages.postNotFound(id));
    if (row.author_id !== user.id && !user.roles.includes(RoleName.ADMIN)) throw new ForbiddenException(AnalyticsMessages.FORBIDDEN_POST);
    const stats = await this.stats({ kind: 'post', id }, days);
    stats.post = {
      postId: row.id,
      title: row.title,
      slug: row.slug,
      published: row.status === 'PUBLISHED',
      views: stats.totals.views,
      visitors: stats.totals.visitors,
    };
    return stats;
  }

  /** One author's posts, for an administrator; 404 for an unknown account. */
  async author(id: number, days: number): Promise<StatsDto> {
    const [row] = (await this.dataSource.query(`SELECT full_name FROM users WHERE id = $1`, [id])) as { full_name: string }[];
    if (!row) throw new NotFoundException(AnalyticsMessages.authorNotFound(id));
    const stats = await this.stats({ kind: 'author', id }, days);
    stats.authorName = row.full_name;
    return stats;
  }

  site(days: number): Promise<StatsDto> {
    return this.stats({ kind: 'site' }, days);
  }

  /**
   * The figures of a scope and range, computed at most once per 30-s window (ANSWER_TTL_MS, at
   * fixed boundaries: answerWindowEnd) on this instance (requests meanwhile share the answer, or
   * the computation under way): today's raw rows are counted afresh each time, which takes a while
   * on a busy site; the figures are at most that old.
   */
  stats(scope: StatsScope, days: number): Promise<StatsDto> {
    const key = `${scope.kind}:${scope.kind === 'site' ? 0 : scope.id}:${days}`;
    const now = Date.now();
    const held = this.answers.get(key);
    if (held && held.until > now) return held.answer.then(copy);
    const answer = this.compute(scope, days);
    this.answers.set(key, { answer, until: answerWindowEnd(now) });
    answer.catch(() => this.answers.get(key)?.answer === answer && this.answers.delete(key));
    if (this.answers.size > MAX_ANSWERS)
      for (const [old, entry] of this.answers) if (entry.until <= now || this.answers.size > MAX_ANSWERS) this.answers.delete(old);
    return answer.then(copy);
  }

  private async compute(scope: StatsScope, days: number): Promise<StatsDto> {
    const now = this.clock.now().getTime();
    const to = utcDay(now);
    const from = utcDay(Date.parse(to) - (days - 1) * DAY_MS);
    const [state] = (await this.dataSource.query(
      `SELECT to_char(daily_until, 'YYYY-MM-DD') AS d FROM analytics_rollup_state WHERE id = 1`,
    )) as {
      d: string;
    }[];
    const until = state?.d ?? to;
    const rawFrom = new Date(`${until > from ? until : from}T00:00:00Z`);
    const params = [from, until, rawFrom, scope.kind === 'site' ? 0 : scope.id];
    const part: Part = { raw: scope.kind === 'site' ? '$4::int = 0' : scope.kind === 'author' ? 'v.author_id = $4' : 'v.post_id = $4' };
    const [series, topPosts, sources, devices, authors] = await Promise.all([
      this.series(scope, part, params),
      scope.kind === 'post' ? Promise.resolve([]) : this.topPosts(scope, part, params),
      this.breakdown(scope, part, params, 'source'),
      this.breakdown(scope, part, params, 'device'),
      scope.kind === 'site' ? this.topAuthors(params) : Promise.resolve(undefined),
    ]);
    const byDay = new Map(series.map((row) => [row.day, row]));
    const filled: StatsDayDto[] = [];
    for (let time = Date.parse(from); time <= Date.parse(to); time += DAY_MS) {
      const day = utcDay(time);
      filled.push(byDay.get(day) ?? { day, views: 0, visitors: 0 });
    }
    const groups = new Map<string, number>();
    for (const row of sources) groups.set(row.name, (groups.get(row.name) ?? 0) + row.views);
    return {
      days,
      from,
      to,
      totals: filled.reduce((sum, row) => ({ views: sum.views + row.views, visitors: sum.visitors + row.visitors }), {
        views: 0,
        visitors: 0,
      }),
      series: filled,
      topPosts,
      sourceGroups: [...groups].map(([source, views]) => ({ source, views })).sort((a, b) => b.views - a.views),
      sources: sources.slice(0, TOP).map((row) => ({ source: row.name, host: row.host, views: row.views })),
      devices: devices.map((row) => ({ device: row.name, views: row.views })),
      ...(authors ? { authors } : {}),
    };
  }

  private async series(scope: StatsScope, part: Part, params: unknown[]): Promise<StatsDayDto[]> {
    const rolled =
      scope.kind === 'post'
        ? `SELECT day, views, visitors FROM analytics_daily WHERE post_id = $4 AND day >= $1 AND day < $2`
        : `SELECT day, views, visitors FROM analytics_daily_scope WHERE scope = ${scope.kind === 'site' ? '-1' : '$4'} AND day >= $1 AND day < $2`;
    const rows = (await this.dataSource.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(views)::int AS views, sum(visitors)::int AS visitors FROM (
         ${rolled}
         UNION ALL
         SELECT (v.ts AT TIME ZONE 'UTC')::date, count(*), count(DISTINCT v.visitor) FROM analytics_views v
         WHERE v.ts >= $3 AND ${part.raw} GROUP BY 1
       ) t GROUP BY 1 ORDER BY 1`,
      params,
    )) as StatsDayDto[];
    return rows;
  }

  private async topPosts(scope: StatsScope, part: Part, params: unknown[]): Promise<StatsPostDto[]> {
    const mine = scope.kind === 'author' ? 'AND author_id = $4' : '';
    const rows = (await this.dataSource.query(
      `WITH t AS (
         SELECT post_id, sum(views)::int AS views, sum(visitors)::int AS visitors FROM (
           SELECT post_id, views, visitors FROM analytics_daily WHERE day >= $1 AND day < $2 ${mine}
           UNION ALL
           SELECT post_id, count(*), count(DISTINCT visitor) FROM analytics_views v
           WHERE v.ts >= $3 AND v.post_id IS NOT NULL AND ${part.raw} GROUP BY post_id, (v.ts AT TIME ZONE 'UTC')::date
         ) u GROUP BY post_id ORDER BY views DESC, post_id LIMIT ${TOP}
       )
       SELECT t.post_id AS "postId", p.title, p.slug, p.status = 'PUBLISHED' AS published, t.views, t.visitors
       FROM t JOIN posts p ON p.id = t.post_id ORDER BY t.views DESC, t.post_id`,
      params,
    )) as StatsPostDto[];
    return rows;
  }

  /** Views per source (group and host) or per device class, most first. */
  private async breakdown(
    scope: StatsScope,
    part: Part,
    params: unknown[],
    kind: 'source' | 'device',
  ): Promise<{ name: string; host: string; views: number }[]> {
    const rawName = kind === 'source' ? 'v.source, v.source_host' : `v.device, ''`;
    let rolled: string;
    if (scope.kind === 'post') {
      const name = kind === 'source' ? 'source, source_host' : `device, ''`;
      rolled = `SELECT ${name}, views FROM analytics_hourly WHERE post_id = $4 AND hour >= $1::date::timestamp AT TIME ZONE 'UTC' AND hour < $2::date::timestamp AT TIME ZONE 'UTC'`;
    } else {
      rolled = `SELECT name, host, views FROM analytics_daily_sources WHERE scope = ${scope.kind === 'site' ? '-1' : '$4'} AND kind = '${kind}' AND day >= $1 AND day < $2`;
    }
    return (await this.dataSource.query(
      `SELECT name, host, sum(views)::int AS views FROM (
         ${rolled}
         UNION ALL
         SELECT ${rawName}, count(*) FROM analytics_views v WHERE v.ts >= $3 AND ${part.raw} GROUP BY 1, 2
       ) t(name, host, views) GROUP BY 1, 2 ORDER BY views DESC, name, host`,
      params,
    )) as { name: string; host: string; views: number }[];
  }

  private async topAuthors(params: unknown[]): Promise<StatsAuthorDto[]> {
    return (await this.dataSource.query(
      `WITH t AS (
         SELECT scope AS author_id, sum(views)::int AS views, sum(visitors)::int AS visitors FROM (
           SELECT scope, views, visitors FROM analytics_daily_scope WHERE scope > 0 AND day >= $1 AND day < $2
           UNION ALL
           SELECT v.author_id, count(*), count(DISTINCT v.visitor) FROM analytics_views v
           WHERE v.ts >= $3 AND v.author_id IS NOT NULL AND $4::int = 0 GROUP BY v.author_id, (v.ts AT TIME ZONE 'UTC')::date
         ) u GROUP BY scope ORDER BY views DESC, scope LIMIT ${TOP}
       )
       SELECT t.author_id AS "authorId", u.full_name AS name, t.views, t.visitors FROM t JOIN users u ON u.id = t.author_id
       ORDER BY t.views DESC, t.author_id`,
      params,
    )) as StatsAuthorDto[];
  }
}
