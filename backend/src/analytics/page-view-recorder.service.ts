import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { DataSource } from 'typeorm';
import { ACCESS_COOKIE, type AccessTokenPayload } from '../auth/auth-user';
import { CLOCK, ShiftableClock, type Clock } from '../common/clock';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PostViewsService } from '../post-views/post-views.service';
import { deviceClassOf, isBotAgent, pageKindOf, postSlugOfPath, sourceOf } from './view-classes';

/** Views are written once a second: a kill -9 loses at most the views of the last second (and of a flush under way). */
export const ANALYTICS_FLUSH_MS = 1_000;
/** Views held when the database is away (kept for the next flush); past this the oldest are dropped. */
const MAX_PENDING = 200_000;
/** The request path's buffer starts this large and doubles when a second brings more (up to MAX_PENDING). */
const FIRST_CAPACITY = 16_384;
const DAY_MS = 86_400_000;
const SHIFTABLE_NOW = ShiftableClock.prototype.now;
const PREFETCH = /prefetch|prerender|preview/i;

/**
 * The views answered since the last flush, as the request path records them: one column per field,
 * allocated ahead and filled in place (no object, closure or parsing per view; that all happens at
 * flush time). Two of these take turns: the request path fills one while the flush reads the other.
 */
class ViewColumns {
  size = 0;
  at: Float64Array;
  path: string[];
  url: (string | undefined)[];
  address: (string | undefined)[];
  forwardedFor: (string | string[] | undefined)[];
  userAgent: (string | undefined)[];
  referer: (string | undefined)[];
  cookie: (string | undefined)[];
  /** Sec-Purpose (or Purpose, X-Purpose, X-Moz): tested at flush time for prefetch and prerender. */
  purpose: (string | string[] | undefined)[];
  /** 1: Sec-GPC: 1 or DNT: 1. */
  optedOut: Uint8Array;

  constructor(capacity: number) {
    this.at = new Float64Array(capacity);
    this.path = new Array<string>(capacity).fill('');
    this.url = new Array<undefined>(capacity).fill(undefined);
    this.address = new Array<undefined>(capacity).fill(undefined);
    this.forwardedFor = new Array<undefined>(capacity).fill(undefined);
    this.userAgent = new Array<undefined>(capacity).fill(undefined);
    this.referer = new Array<undefined>(capacity).fill(undefined);
    this.cookie = new Array<undefined>(capacity).fill(undefined);
    this.purpose = new Array<undefined>(capacity).fill(undefined);
    this.optedOut = new Uint8Array(capacity);
  }

  get capacity(): number {
    return this.at.length;
  }

  /** Twice the room (a busy second), keeping what is held. */
  grow(): void {
    const capacity = Math.min(MAX_PENDING, this.capacity * 2);
    const at = new Float64Array(capacity);
    at.set(this.at);
    this.at = at;
    const optedOut = new Uint8Array(capacity);
    optedOut.set(this.optedOut);
    this.optedOut = optedOut;
    for (const column of [this.path, this.url, this.address, this.forwardedFor, this.userAgent, this.referer, this.cookie, this.purpose])
      column.length = capacity;
  }

  /** Forgets the held strings (addresses, cookies: nothing outlives its flush) and empties the buffer. */
  clear(): void {
    const size = this.size;
    this.path.fill('', 0, size);
    for (const column of [this.url, this.address, this.forwardedFor, this.userAgent, this.referer, this.cookie, this.purpose])
      column.fill(undefined, 0, size);
    this.size = 0;
  }
}

/**
 * A batch ready to write: each distinct kind of view (page, visitor, source, device, reader) once,
 * and per view only its time and the index of its kind, so a busy second's statement stays small
 * whatever its number of views. Kept for the next flush when the database is away.
 */
interface Rows {
  /** Each view's time in ms after `base`, and its kind. */
  base: number;
  offsets: number[];
  kindOf: number[];
  slugs: (string | null)[];
  pages: string[];
  visitors: (string | null)[];
  sources: string[];
  hosts: string[];
  devices: string[];
  viewers: (number | null)[];
}

const ACCESS_IN_COOKIE = new RegExp(`(?:^|;\\s*)${ACCESS_COOKIE}=([^;\\s]+)`);

/**
 * The one recorder of page views (docs/analytics.md; the frontend's PostViewRecorder). The frontend layer calls pageServed for each
 * public page it answers, from the page cache (fast path, middleware hit, a waiter given another
 * request's render: 304s and HEAD included) or just rendered. It feeds both counts:
 * - the post's `viewCount` (PostViewsService, unchanged rules): a cached post page (200) counts
 *   here; a rendered one already counted where its render read the post;
 * - the analytics buffer (unless ANALYTICS=off): every GET of a public page answered 200 or 304
 *   that is no prefetch or prerender. Prefetches, bots, the post's own author and administrators
 *   are dropped at flush time, when the headers are tested and the session cookie's token verified.
 * Once a second the buffer is written in ONE INSERT … SELECT FROM unnest(…) statement, which
 * resolves post slugs to posts and drops the author's and admins' views in the same statement;
 * each instance writes only its own buffer, so several instances lose and double nothing. The
 * buffer is written on shutdown too.
 */
@Injectable()
export class PageViewRecorder implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Analytics');
  private views = new ViewColumns(FIRST_CAPACITY);
  /** The other buffer, while the request path fills `views` (undefined while a flush reads it). */
  private spare?: ViewColumns = new ViewColumns(FIRST_CAPACITY);
  /** Batches a failed INSERT left (the database was away), oldest first. */
  private retry: Rows[] = [];
  /** Views not held because the buffer was full (the database away for a long while), logged at the next flush. */
  private dropped = 0;
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
   * O(1) and allocation-free on the analytics side: a few header strings stored in place.
   */
  pageServed(req: IncomingMessage, path: string, status: number, cached: boolean): void {
    try {
      if (cached && status === 200) {
        const slug = postSlugOfPath(path);
        if (slug) this.postViews.count(slug);
      }
      if (!this.enabled || status !== 200 || req.method !== 'GET') return;
      const views = this.views;
      const i = views.size;
      if (i === views.capacity) {
        if (i >= MAX_PENDING) {
          this.dropped++;
          return;
        }
        views.grow();
      }
      const headers = req.headers;
      const clock = this.clock;
      views.at[i] = clock instanceof ShiftableClock && clock.now === SHIFTABLE_NOW ? Date.now() + clock.offsetMs : clock.now().getTime();
      // A value equal to the previous view's keeps that (older) string: this request's copy dies
      // young instead of living until the flush, and the flush compares the two by reference.
      const p = i - 1;
      const url = req.url;
      const userAgent = headers['user-agent'];
      const referer = headers.referer;
      const cookie = headers.cookie;
      views.path[i] = i && path === views.path[p] ? views.path[p] : path;
      views.url[i] = i && url === views.url[p] ? views.url[p] : url;
      views.address[i] = req.socket?.remoteAddress;
      views.forwardedFor[i] = headers['x-forwarded-for'];
      views.userAgent[i] = i && userAgent === views.userAgent[p] ? views.userAgent[p] : userAgent;
      views.referer[i] = i && referer === views.referer[p] ? views.referer[p] : referer;
      views.cookie[i] = i && cookie === views.cookie[p] ? views.cookie[p] : cookie;
      views.purpose[i] = headers['sec-purpose'] ?? headers.purpose ?? headers['x-purpose'] ?? headers['x-moz'];
      views.optedOut[i] = headers['sec-gpc'] === '1' || headers.dnt === '1' ? 1 : 0;
      views.size = i + 1;
    } catch {
      // a view that cannot be counted never fails the page
    }
  }

  /** Views waiting for the next flush (tests, the benchmark). */
  get pendingCount(): number {
    return this.views.size + this.retry.reduce((sum, rows) => sum + rows.offsets.length, 0);
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
    if (this.dropped) {
      this.logger.warn(`${this.dropped} page views not counted: the buffer was full (${MAX_PENDING}; the database away?)`);
      this.dropped = 0;
    }
    if ((!this.views.size && !this.retry.length) || !this.dataSource.isInitialized) return;
    // The salts of the views' days first, while the views stay in the buffer (the database away:
    // they wait there for the next flush). `size` is read afresh: views answered meanwhile count too.
    const salts = new Map<number, Buffer>();
    for (let i = 0; i < this.views.size; i++) {
      const time = this.views.at[i];
      const day = Math.floor(time / DAY_MS);
      if (!salts.has(day)) salts.set(day, await this.saltOf(time));
    }
    // No await from here to the swap: every view of the batch has its day's salt.
    const batch = this.views;
    // Flushes are serialised, so the spare is back from the previous one.
    this.views = this.spare ?? new ViewColumns(FIRST_CAPACITY);
    this.spare = undefined;
    let rows: Rows | undefined;
    try {
      if (batch.size) rows = this.classify(batch, salts);
    } finally {
      batch.clear();
      this.spare = batch;
    }
    const pending = rows && rows.offsets.length ? [...this.retry, rows] : this.retry;
    this.retry = [];
    for (let k = 0; k < pending.length; k++) {
      try {
        await this.insert(pending[k]);
      } catch (error) {
        // The database is away: the views wait for the next flush (the newest MAX_PENDING of them).
        this.retry = pending.slice(k);
        let held = this.retry.reduce((sum, kept) => sum + kept.offsets.length, 0);
        while (held > MAX_PENDING && this.retry.length > 1) held -= this.retry.shift()!.offsets.length;
        throw error;
      }
    }
  }

  /**
   * The flush's work, off the request path: the prefetch and bot tests, page kinds, sources,
   * devices, the salted visitor hash and the session's reader, each worked out once per distinct
   * value in the batch (a busy second repeats pages, user agents, referrers and readers).
   */
  private classify(batch: ViewColumns, salts: Map<number, Buffer>): Rows {
    const size = batch.size;
    const at = batch.at;
    let base = Infinity;
    for (let i = 0; i < size; i++) if (at[i] < base) base = at[i];
    const rows: Rows = {
      base,
      offsets: [],
      kindOf: [],
      slugs: [],
      pages: [],
      visitors: [],
      sources: [],
      hosts: [],
      devices: [],
      viewers: [],
    };
    const devicesByAgent = new Map<string, string | null>();
    const pagesByPath = new Map<string, { kind: string; slug: string | null; id: number } | null>();
    const sourcesBy = new Map<string, { group: string; host: string; id: number }>();
    const visitorsBy = new Map<string, number>();
    const visitorIds: (string | null)[] = [];
    const viewerByCookie = new Map<string, number | null>();
    const viewerByToken = new Map<string, number | null>();
    const kinds = new Map<string, number>();
    /** The index of view i's kind in `rows` (added when new), or -1: not counted (a prefetch, a bot, a page not counted). */
    const kindOfView = (i: number): number => {
      const userAgent = batch.userAgent[i];
      if (!userAgent) return -1;
      const purpose = batch.purpose[i];
      if (purpose !== undefined && PREFETCH.test(String(purpose))) return -1;
      let device = devicesByAgent.get(userAgent);
      if (device === undefined) devicesByAgent.set(userAgent, (device = isBotAgent(userAgent) ? null : deviceClassOf(userAgent)));
      if (device === null) return -1;
      const path = batch.path[i];
      let page = pagesByPath.get(path);
      if (page === undefined) {
        const kind = pageKindOf(path);
        pagesByPath.set(path, (page = kind ? { kind: kind.kind, slug: kind.slug ?? null, id: pagesByPath.size } : null));
      }
      if (!page) return -1;
      const url = batch.url[i] ?? path;
      const referer = batch.referer[i];
      const query = url.indexOf('?');
      const sourceKey = `${query === -1 ? '' : url.slice(query)}\n${referer ?? ''}`;
      let source = sourcesBy.get(sourceKey);
      if (!source) sourcesBy.set(sourceKey, (source = { ...sourceOf(url, referer, this.siteHost), id: sourcesBy.size }));
      let visitor = -1;
      if (!batch.optedOut[i]) {
        const day = Math.floor(at[i] / DAY_MS);
        const address = batch.address[i];
        const forwardedFor = batch.forwardedFor[i];
        const reader = `${day}\0${address ?? ''}\0${forwardedFor === undefined ? '' : String(forwardedFor)}\0${userAgent}`;
        const known = visitorsBy.get(reader);
        if (known !== undefined) visitor = known;
        else {
          const client = this.clientAddress(address, forwardedFor);
          visitorIds.push(
            createHash('sha256')
              .update(salts.get(day)!)
              .update(`\0${client}\0${userAgent}\0${this.siteHost}`)
              .digest()
              .readBigInt64BE(0)
              .toString(),
          );
          visitorsBy.set(reader, (visitor = visitorIds.length - 1));
        }
      }
      const cookie = batch.cookie[i];
      let viewer: number | null = null;
      if (cookie) {
        const known = viewerByCookie.get(cookie);
        if (known !== undefined) viewer = known;
        else viewerByCookie.set(cookie, (viewer = this.viewerOf(cookie, viewerByToken)));
      }
      const kindKey = `${page.id} ${source.id} ${visitor} ${device} ${viewer}`;
      let kind = kinds.get(kindKey);
      if (kind === undefined) {
        kinds.set(kindKey, (kind = rows.slugs.length));
        rows.slugs.push(page.slug);
        rows.pages.push(page.kind);
        rows.visitors.push(visitor === -1 ? null : visitorIds[visitor]);
        rows.sources.push(source.group);
        rows.hosts.push(source.host);
        rows.devices.push(device);
        rows.viewers.push(viewer);
      }
      return kind;
    };
    // Views in a row from one reader (a busy second's usual case) share their kind: compared field by field, nothing made.
    let previous = -1;
    let previousKind = -1;
    for (let i = 0; i < size; i++) {
      const kind = previous !== -1 && sameView(batch, i, previous) ? previousKind : kindOfView(i);
      previous = i;
      previousKind = kind;
      if (kind === -1) continue;
      rows.offsets.push(at[i] - base);
      rows.kindOf.push(kind + 1);
    }
    return rows;
  }

  /** One statement: the distinct kinds of view, their posts resolved and the author's and admins' own dropped, joined to every view. */
  private async insert(rows: Rows): Promise<void> {
    await this.dataSource.query(
      `WITH k AS (
         SELECT k.i, p.id AS post_id, p.author_id, k.page, k.visitor, k.source, k.host, k.device
         FROM unnest($3::varchar[], $4::varchar[], $5::bigint[], $6::varchar[], $7::varchar[], $8::varchar[], $9::int[])
           WITH ORDINALITY AS k(slug, page, visitor, source, host, device, viewer, i)
         LEFT JOIN posts p ON k.slug IS NOT NULL AND p.slug = k.slug AND p.status = 'PUBLISHED'
         WHERE (k.slug IS NULL OR p.id IS NOT NULL)
           AND (k.viewer IS NULL OR (k.viewer IS DISTINCT FROM p.author_id AND NOT EXISTS (
             SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = k.viewer AND r.name = 'ADMIN')))
       )
       INSERT INTO analytics_views (ts, post_id, author_id, page_kind, visitor, source, source_host, device)
       SELECT to_timestamp(($1::float8 + v.ms) / 1000), k.post_id, k.author_id, k.page, k.visitor, k.source, k.host, k.device
       FROM unnest($2::float8[], $10::int[]) AS v(ms, i) JOIN k ON k.i = v.i`,
      // The per-view columns are plain numbers: written as array literals here, not element by element by the driver.
      [
        rows.base,
        `{${rows.offsets.join(',')}}`,
        rows.slugs,
        rows.pages,
        rows.visitors,
        rows.sources,
        rows.hosts,
        rows.devices,
        rows.viewers,
        `{${rows.kindOf.join(',')}}`,
      ],
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

/** Whether views i and j were answered for the same page address, reader, source and session on the same UTC day (so they are of one kind). */
function sameView(batch: ViewColumns, i: number, j: number): boolean {
  return (
    batch.userAgent[i] === batch.userAgent[j] &&
    batch.path[i] === batch.path[j] &&
    batch.url[i] === batch.url[j] &&
    batch.referer[i] === batch.referer[j] &&
    batch.address[i] === batch.address[j] &&
    batch.forwardedFor[i] === batch.forwardedFor[j] &&
    batch.cookie[i] === batch.cookie[j] &&
    batch.purpose[i] === batch.purpose[j] &&
    batch.optedOut[i] === batch.optedOut[j] &&
    Math.floor(batch.at[i] / DAY_MS) === Math.floor(batch.at[j] / DAY_MS)
  );
}
