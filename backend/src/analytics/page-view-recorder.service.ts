import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { DataSource } from 'typeorm';
import { ACCESS_COOKIE, type AccessTokenPayload } from '../auth/auth-user';
import { CLOCK, type Clock } from '../common/clock';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PostViewsService } from '../post-views/post-views.service';
import { deviceClassOf, isBotAgent, pageKindOf, postSlugOfPath, sourceOf } from './view-classes';

/** Views are written once a second: a kill -9 loses at most the views of the last second (and of a flush under way). */
export const ANALYTICS_FLUSH_MS = 1_000;
/** Views held when the database is away (kept for the next flush); past this the oldest are dropped. */
const MAX_PENDING = 200_000;
const DAY_MS = 86_400_000;

/**
 * One answered public page, as the request path records it: times and header strings only, no
 * parsing (that happens at flush time). Index order: see `push`.
 */
type PendingView = [
  at: number,
  path: string,
  url: string,
  address: string | undefined,
  forwardedFor: string | string[] | undefined,
  userAgent: string | undefined,
  referer: string | undefined,
  cookie: string | undefined,
  /** Sec-GPC: 1 or DNT: 1 */
  optedOut: boolean,
];

const ACCESS_IN_COOKIE = new RegExp(`(?:^|;\\s*)${ACCESS_COOKIE}=([^;\\s]+)`);

/**
 * The one recorder of page views (docs/analytics.md; the frontend's PostViewRecorder). The frontend layer calls pageServed for each
 * public page it answers, from the page cache (fast path, middleware hit, a waiter given another
 * request's render: 304s and HEAD included) or just rendered. It feeds both counts:
 * - the post's `viewCount` (PostViewsService, unchanged rules): a cached post page (200) counts
 *   here; a rendered one already counted where its render read the post;
 * - the analytics buffer (unless ANALYTICS=off): every GET of a public page answered 200 or 304
 *   that is no prefetch or prerender. Bots, the post's own author and administrators are dropped
 *   at flush time, when the user agent is tested and the session cookie's token verified.
 * Once a second the buffer is written in ONE INSERT … SELECT FROM unnest(…) statement, which
 * resolves post slugs to posts and drops the author's and admins' views in the same statement;
 * each instance writes only its own buffer, so several instances lose and double nothing. The
 * buffer is written on shutdown too.
 */
@Injectable()
export class PageViewRecorder implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Analytics');
  private pending: PendingView[] = [];
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly salts = new Map<string, Buffer>();
  private readonly siteHost: string;
  private readonly trust: (address: string, hop: number) => boolean;
  readonly enabled: boolean;

  constructor(
    private readonly postViews: PostViewsService,
    private readonly jwt: JwtService,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.enabled = config.analytics.enabled;
    this.siteHost = new URL(config.publicUrl).hostname.toLowerCase().replace(/^www\./, '');
    this.trust = compileTrust(config.trustProxy);
  }

  onModuleInit(): void {
    if (!this.enabled) return;
    this.timer = setInterval(() => void this.flush(), ANALYTICS_FLUSH_MS);
    this.timer.unref();
  }

  /**
   * A public page answered: `path` without its query, `status` the page's (200 for a 304 of a
   * kept 200 page), `cached` when it came from the page cache rather than this request's render.
   */
  pageServed(req: IncomingMessage, path: string, status: number, cached: boolean): void {
    try {
      if (cached && status === 200) {
        const slug = postSlugOfPath(path);
        if (slug) this.postViews.count(slug);
      }
      if (!this.enabled || status !== 200 || req.method !== 'GET') return;
      const headers = req.headers;
      const purpose = headers['sec-purpose'] ?? headers.purpose ?? headers['x-purpose'] ?? headers['x-moz'];
      if (purpose !== undefined && /prefetch|prerender|preview/i.test(String(purpose))) return;
      this.pending.push([
        this.clock.now().getTime(),
        path,
        req.url ?? path,
        req.socket?.remoteAddress,
        headers['x-forwarded-for'],
        headers['user-agent'],
        headers.referer,
        headers.cookie,
        headers['sec-gpc'] === '1' || headers.dnt === '1',
      ]);
      if (this.pending.length > MAX_PENDING) this.pending.splice(0, this.pending.length - MAX_PENDING);
    } catch {
      // a view that cannot be counted never fails the page
    }
  }

  /** Views waiting for the next flush (tests, the benchmark). */
  get pendingCount(): number {
    return this.pending.length;
  }

  /** Writes the pending views (serialised: a flush waits for the previous one). */
  flush(): Promise<void> {
    this.flushing = this.flushing
      .then(() => this.write())
      .catch((error: unknown) => this.logger.error(`page view flush failed: ${String(error)}`));
    return this.flushing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async write(): Promise<void> {
    if (!this.pending.length || !this.dataSource.isInitialized) return;
    const batch = this.pending;
    this.pending = [];
    try {
      await this.insert(batch);
    } catch (error) {
      // The database is away: the views wait for the next flush (bounded by MAX_PENDING).
      this.pending = batch.concat(this.pending).slice(-MAX_PENDING);
      throw error;
    }
  }

  private async insert(batch: PendingView[]): Promise<void> {
    const at: number[] = [];
    const slugs: (string | null)[] = [];
    const kinds: string[] = [];
    const visitors: (string | null)[] = [];
    const sources: string[] = [];
    const hosts: string[] = [];
    const devices: string[] = [];
    const viewers: (number | null)[] = [];
    // Under load most views share a handful of user agents and referrers: each is classified once a batch.
    const devicesByAgent = new Map<string, string | null>();
    const sourcesBy = new Map<string, { group: string; host: string }>();
    const viewerByToken = new Map<string, number | null>();
    const salts = new Map<number, Buffer>();
    for (const view of batch) {
      const day = Math.floor(view[0] / DAY_MS);
      if (!salts.has(day)) salts.set(day, await this.saltOf(view[0]));
    }
    for (const [time, path, url, address, forwardedFor, userAgent, referer, cookie, optedOut] of batch) {
      if (!userAgent) continue;
      let device = devicesByAgent.get(userAgent);
      if (device === undefined) devicesByAgent.set(userAgent, (device = isBotAgent(userAgent) ? null : deviceClassOf(userAgent)));
      if (device === null) continue;
      const page = pageKindOf(path);
      if (!page) continue;
      const query = url.indexOf('?');
      const sourceKey = `${query === -1 ? '' : url.slice(query)}\n${referer ?? ''}`;
      let source = sourcesBy.get(sourceKey);
      if (!source) sourcesBy.set(sourceKey, (source = sourceOf(url, referer, this.siteHost)));
      let visitor: string | null = null;
      if (!optedOut) {
        const salt = salts.get(Math.floor(time / DAY_MS))!;
        const client = this.clientAddress(address, forwardedFor);
        visitor = createHash('sha256')
          .update(salt)
          .update(`\0${client}\0${userAgent}\0${this.siteHost}`)
          .digest()
          .readBigInt64BE(0)
          .toString();
      }
      at.push(time / 1000);
      slugs.push(page.slug ?? null);
      kinds.push(page.kind);
      visitors.push(visitor);
      sources.push(source.group);
      hosts.push(source.host);
      devices.push(device);
      viewers.push(cookie ? this.viewerOf(cookie, viewerByToken) : null);
    }
    if (!at.length) return;
    await this.dataSource.query(
      `INSERT INTO analytics_views (ts, post_id, author_id, page_kind, visitor, source, source_host, device)
       SELECT to_timestamp(v.at), p.id, p.author_id, v.kind, v.visitor, v.source, v.host, v.device
       FROM unnest($1::float8[], $2::varchar[], $3::varchar[], $4::bigint[], $5::varchar[], $6::varchar[], $7::varchar[], $8::int[])
         AS v(at, slug, kind, visitor, source, host, device, viewer)
       LEFT JOIN posts p ON v.slug IS NOT NULL AND p.slug = v.slug AND p.status = 'PUBLISHED'
       WHERE (v.slug IS NULL OR p.id IS NOT NULL)
         AND (v.viewer IS NULL OR (v.viewer IS DISTINCT FROM p.author_id AND NOT EXISTS (
           SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = v.viewer AND r.name = 'ADMIN')))`,
      [at, slugs, kinds, visitors, sources, hosts, devices, viewers],
    );
  }

  /** The signed-in reader's id from the session cookie's access token (verified here, at flush time), else null. */
  private viewerOf(cookie: string, cache: Map<string, number | null>): number | null {
    const token = ACCESS_IN_COOKIE.exec(cookie)?.[1];
    if (!token) return null;
    let viewer = cache.get(token);
    if (viewer === undefined) {
      try {
        const payload = this.jwt.verify<AccessTokenPayload>(token);
        viewer = typeof payload.sub === 'number' ? payload.sub : null;
      } catch {
        viewer = null;
      }
      cache.set(token, viewer);
    }
    return viewer;
  }

  /** The client's address as the rate limits see it (TRUST_PROXY decides whether X-Forwarded-For counts). */
  private clientAddress(address: string | undefined, forwardedFor: string | string[] | undefined): string {
    if (!forwardedFor) return address ?? '';
    const headers = { 'x-forwarded-for': Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor };
    return proxyAddr({ headers, socket: { remoteAddress: address }, connection: { remoteAddress: address } } as never, this.trust);
  }

  /**
   * The random salt of a UTC day, shared by every instance through the database (the same visitor
   * on two instances is one visitor) and held here while its day lasts. The rollup deletes past
   * days' salts from the database (AnalyticsRollup), and this map forgets them the same way.
   */
  private async saltOf(time: number): Promise<Buffer> {
    const day = new Date(time).toISOString().slice(0, 10);
    const held = this.salts.get(day);
    if (held) return held;
    let salt: Buffer | undefined;
    for (let attempt = 0; !salt && attempt < 3; attempt++) {
      const rows = (await this.dataSource.query(
        `WITH made AS (INSERT INTO analytics_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING RETURNING salt)
         SELECT salt FROM made UNION ALL SELECT salt FROM analytics_salts WHERE day = $1`,
        [day, randomBytes(32)],
      )) as { salt: Buffer }[];
      salt = rows[0]?.salt;
    }
    if (!salt) throw new Error(`no analytics salt for ${day}`);
    const today = new Date(this.clock.now().getTime() - 60_000).toISOString().slice(0, 10);
    for (const kept of this.salts.keys()) if (kept < today) this.salts.delete(kept);
    this.salts.set(day, salt);
    return salt;
  }

  /** Forgets held salts of days before `day` (the rollup deleted them from the database). */
  forgetSaltsBefore(day: string): void {
    for (const kept of this.salts.keys()) if (kept < day) this.salts.delete(kept);
  }
}

/** Express's 'trust proxy' setting as a proxy-addr trust function (the same rules as req.ip). */
function compileTrust(setting: boolean | number | string): (address: string, hop: number) => boolean {
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting.split(',').map((part) => part.trim()));
}
