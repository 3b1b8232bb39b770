import {
  DynamicModule,
  Inject,
  Injectable,
  MiddlewareConsumer,
  Module,
  NestMiddleware,
  NestModule,
  Optional,
  RequestMethod,
} from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PROJECT_ROOT } from '../config/paths';
import { markCompressedByApp, shouldCompressOnTheFly } from '../common/http-compression';
import { AnalyticsModule } from '../analytics/analytics.module';
import { PageViewRecorder } from '../analytics/page-view-recorder.service';
import { StatsPageHold } from '../analytics/stats-page-hold';
import { TagsModule } from '../tags/tags.module';
import { writeCachedPage } from './cached-page-writer';
import { compressBody, MIN_COMPRESSED_BYTES, negotiateCoding } from './content-coding';
import { etagOf, withEncodings, type CachedPage } from './page-cache';
import { PageCacheFastPath } from './page-cache-fast-path';
import {
  hasSessionCookie,
  isCacheableResponse,
  isPersonalFragmentPath,
  isPublicPagePath,
  pageCacheKey,
  PRIVATE_CACHE_CONTROL,
  UNCACHED_PAGE_CACHE_CONTROL,
} from './page-cache-policy';
import { clearSignedInHint } from '../auth/auth.cookies';
import { PageCacheService } from './page-cache.service';
import { POST_VIEW_RECORDER, recordPageView, type PostViewRecorder } from './post-view-recorder';
import { PageGatewayService } from '../gateway/page-gateway.service';
import type { ServerLocals } from '../../../isomorphic/server-locals';
import { useStandardReasonPhrase } from './reason-phrase';
import { bufferResponse } from './response-buffer';
import { IMMUTABLE_CACHE_CONTROL, StaticAssets } from './static-assets';

export type { ServerLocals } from '../../../isomorphic/server-locals';

export type AstroHandler = (req: Request, res: Response, next: NextFunction, locals: ServerLocals) => Promise<void>;

export { POST_VIEW_RECORDER, type PostViewRecorder } from './post-view-recorder';

export const FRONTEND_DIST = join(PROJECT_ROOT, 'frontend', 'dist');
const CLIENT_DIST = join(FRONTEND_DIST, 'client');
const ASTRO_HANDLER = Symbol('ASTRO_HANDLER');
/** The folder of the client build (dist/client); tests give their own. */
export const CLIENT_DIR = Symbol('CLIENT_DIR');
/** Paths Nest answers itself; everything else is a page. */
const API_PATH = /^\/(api|images)(\/|$)/;
/** Page renderings at once (see renderPage). */
export const MAX_CONCURRENT_RENDERS = 4;
/** Per-request headers that must not be replayed from the cache. */
const NOT_CACHED_HEADERS = new Set([
  'set-cookie',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'x-request-id',
  'etag',
  'cache-control',
  'vary',
]);

/**
 * Serves the built Astro site: its files from memory, precompressed (br/gz) and hashed assets with
 * a year's cache (StaticAssets), then the SSR handler. GET/HEAD requests for the public reading
 * pages, signed in or not (their HTML is the same for everyone: isomorphic/public-pages.ts), get a
 * strong ETag per coding, `Cache-Control: public, max-age=0, must-revalidate`, `Vary:
 * Accept-Encoding` and 304 for a matching If-None-Match, and (unless PAGE_CACHE=off) are answered
 * from the in-memory page cache, which keeps each page's br and gzip bodies made once; their render
 * reads no session. The personal fragment and other pages requested with a session cookie are
 * rendered every time and marked `private, no-store`.
 */
@Injectable()
export class FrontendMiddleware implements NestMiddleware {
  private readonly files: StaticAssets;
  /** What StaticAssets does not hold (files over its size cap or of other types): served as they are. */
  private readonly assets: ReturnType<typeof express.static>;
  /** Top-level names under the client folder (_astro, favicon.svg...): only these paths can be files. */
  private readonly assetRoots: Set<string>;

  private rendering = 0;
  private readonly waiting: (() => void)[] = [];
  /** Renderings in progress of anonymous public pages, by key: later requests wait for them. */
  private readonly inflight = new Map<string, Promise<CachedPage | undefined>>();

  constructor(
    @Inject(ASTRO_HANDLER) private readonly handler: AstroHandler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pages: PageCacheService,
    private readonly gateway: PageGatewayService,
    @Optional() @Inject(POST_VIEW_RECORDER) private readonly views?: PostViewRecorder,
    @Optional() @Inject(CLIENT_DIR) clientDir: string = CLIENT_DIST,
    /** The Stats pages, held for their session until their figures' 30-s window ends (docs/analytics.md). */
    @Optional() private readonly statsPages?: StatsPageHold,
  ) {
    this.files = new StaticAssets(clientDir);
    this.assetRoots = new Set(existsSync(clientDir) ? readdirSync(clientDir) : []);
    this.assets = express.static(clientDir, {
      index: false,
      setHeaders: (res, path) => {
        if (relative(clientDir, path).startsWith(`_astro${sep}`)) res.setHeader('Cache-Control', IMMUTABLE_CACHE_CONTROL);
      },
    });
  }

  use(req: Request, res: Response, next: NextFunction): void {
    // A session's write (its profile, a notification read...) ends its held Stats pages: never a stale copy of its own write.
    if (req.method !== 'GET' && req.method !== 'HEAD') this.statsPages?.forget(req);
    if (API_PATH.test(req.path)) return next();
    // Before anything wraps writeHead (the response buffer below restores what it found).
    useStandardReasonPhrase(res);
    // A page path skips the static handler (and its file-system lookup) altogether.
    const root = req.path.split('/', 2)[1] ?? '';
    if (!this.assetRoots.has(root)) return this.render(req, res, next);
    if (this.files.serve(req, res, req.path)) return;
    this.assets(req, res, () => this.render(req, res, next));
  }

  private render(req: Request, res: Response, next: NextFunction): void {
    if (isPersonalFragmentPath(req.path)) return this.renderFragment(req, res, next);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isPublicPagePath(req.path)) {
      // Other pages (/login, /dashboard, 404s...): never kept; a signed-in visitor's is theirs alone.
      res.setHeader('Cache-Control', hasSessionCookie(req) ? PRIVATE_CACHE_CONTROL : UNCACHED_PAGE_CACHE_CONTROL);
      res.vary('Cookie').vary('Accept-Encoding');
      if (this.statsPages?.serve(req, res, negotiateCoding(req.headers['accept-encoding']))) return;
      return this.renderWhole(req, res, next);
    }

    const key = pageCacheKey(req.originalUrl);
    if (this.pages.enabled) {
      const hit = this.pages.cache.get(key);
      if (hit) return this.sendCached(req, res, hit);
      // Single flight: requests for a page being rendered wait for that rendering instead of
      // all rendering it at once (after a content change, every reader of the home page misses).
      const pending = this.inflight.get(key);
      if (pending) {
        void pending.then((page) => (page ? this.sendCached(req, res, page) : this.renderPublicPage(req, res, next, key)));
        return;
      }
    }
    this.renderPublicPage(req, res, next, key);
  }

  /**
   * The per-user fragment of a public page view (frontend/src/pages/fragments/session.astro):
   * always `private, no-store`, never kept. Without any session cookie it is 204 at once, with no
   * render, and the signed-in hint that made the browser ask is dropped.
   */
  private renderFragment(req: Request, res: Response, next: NextFunction): void {
    res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
    res.vary('Cookie');
    if (!hasSessionCookie(req)) {
      clearSignedInHint(res, this.config);
      res.status(204).end();
      return;
    }
    this.renderWhole(req, res, next);
  }

  /**
   * Renders a page that is never kept (signed in, or outside the page cache) whole and sends it in
   * one write, compressed once in libuv's thread pool in the coding the client takes. Streamed
   * through the on-the-fly compression instead, Astro's many small chunks each cost a brotli
   * flush: that was more than half the CPU of a signed-in post page (120 req/s with br against
   * 261 without compression, on the seeded site). What compression would leave alone (identity,
   * under 1 KB, not a compressible type, no-transform) is sent as it is.
   */
  private renderWhole(req: Request, res: Response, next: NextFunction): void {
    if (req.method === 'HEAD') return this.renderPage(req, res, next);
    bufferResponse(res, ({ body }) => {
      const coding = negotiateCoding(req.headers['accept-encoding']);
      const compressible =
        coding !== 'identity' &&
        body.length >= MIN_COMPRESSED_BYTES &&
        !res.hasHeader('Content-Encoding') &&
        !/no-transform/i.test(String(res.getHeader('Cache-Control') ?? '')) &&
        shouldCompressOnTheFly(req, res);
      if (!compressible) {
        this.statsPages?.keep(req, res, body, coding);
        res.end(body);
        return;
      }
      compressBody(body, coding)
        .then((encoded) => {
          if (res.destroyed) return;
          if (encoded.length >= body.length) return void res.end(body);
          markCompressedByApp(res);
          res.setHeader('Content-Encoding', coding);
          this.statsPages?.keep(req, res, encoded, coding);
          res.setHeader('Content-Length', encoded.length);
          res.end(encoded);
        })
        .catch(() => {
          if (!res.destroyed) res.end(body);
        });
    });
    this.renderPage(req, res, next);
  }

  /** Renders an anonymous public page whole, adds its ETag (304 when the client has it) and keeps it in the cache. */
  private renderPublicPage(req: Request, res: Response, next: NextFunction, key: string): void {
    const generation = this.pages.generation;
    let settle: (page: CachedPage | undefined) => void = () => undefined;
    if (this.pages.enabled && req.method === 'GET' && !this.inflight.has(key)) {
      let resolve!: (page: CachedPage | undefined) => void;
      const flight = new Promise<CachedPage | undefined>((done) => (resolve = done));
      this.inflight.set(key, flight);
      settle = (page) => {
        if (this.inflight.get(key) === flight) this.inflight.delete(key);
        resolve(page);
      };
      res.once('close', () => settle(undefined));
    }
    bufferResponse(res, ({ status, body }) => {
      const headers = res.getHeaders() as Record<string, string | string[]>;
      const rendered: CachedPage = { status, body, etag: etagOf(body), headers: {} };
      for (const [name, value] of Object.entries(headers)) if (!NOT_CACHED_HEADERS.has(name)) rendered.headers[name] = value;
      if (!isCacheableResponse(status, headers)) {
        settle(undefined);
        res.end(body);
        return;
      }
      // A page to keep gets both compressed bodies, made once here; otherwise (HEAD, PAGE_CACHE=off)
      // only the coding this client takes, with the same settings (so the same bytes and ETag).
      const keep = this.pages.enabled && req.method === 'GET';
      const coding = negotiateCoding(req.headers['accept-encoding']);
      const encoding = keep ? withEncodings(rendered) : withEncodings(rendered, coding === 'identity' ? [] : [coding]);
      encoding
        .catch(() => rendered)
        .then((page) => {
          const stored = keep && this.pages.store(key, page, generation);
          settle(stored ? page : undefined);
          if (res.destroyed) return;
          recordPageView(this.views, req, req.path, page.status, false);
          writeCachedPage(req, res, page);
        })
        .catch((error: unknown) => {
          settle(undefined);
          if (!res.headersSent) next(error);
          else res.destroy(error instanceof Error ? error : undefined);
        });
    });
    this.renderPage(req, res, next);
  }

  /**
   * Runs the page handler, at most MAX_CONCURRENT_RENDERS at a time; the rest wait in line.
   * Renders are CPU work on this one thread (public data comes from memory or one query), so more
   * at once gain nothing, while each holds its data and HTML in memory. Each starts from
   * setImmediate, after the event loop's I/O phase: Node accepted one new connection per loop
   * iteration here, and with renders running in the microtasks behind each accept, a burst of new
   * connections waited seconds under load (up to 10 s with 64 at once).
   */
  private renderPage(req: Request, res: Response, next: NextFunction): void {
    const start = () => {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        this.rendering--;
        this.waiting.shift()?.();
      };
      this.rendering++;
      if (res.destroyed || res.writableEnded) return release();
      res.once('close', release);
      const locals: ServerLocals = {
        // A public page is rendered for no one in particular: its reads carry no session.
        gateway: this.gateway.forRequest(req, { session: !isPublicPagePath(req.path) }),
        publicUrl: this.config.publicUrl,
        pageCache: this.config.pageCache,
        siteTimeZone: this.config.siteTimeZone,
      };
      setImmediate(() => {
        // The visitor may have gone in the meantime: no render for a closed connection.
        if (res.destroyed) return release();
        this.handler(req, res, next, locals).catch((error: unknown) => {
          release();
          next(error);
        });
      });
    };
    if (this.rendering < MAX_CONCURRENT_RENDERS) start();
    else this.waiting.push(start);
  }

  /** A page from the cache (a hit, or a waiter given another request's render): a post page counts its view here. */
  private sendCached(req: Request, res: Response, page: CachedPage): void {
    if (res.headersSent || res.destroyed) return;
    recordPageView(this.views, req, req.path, page.status, true);
    writeCachedPage(req, res, page);
  }
}

export interface FrontendModuleOptions {
  /** A page handler instead of the built Astro site (tests of the caching layer). */
  handler?: AstroHandler;
  /** Another folder of client files than frontend/dist/client (tests). */
  clientDir?: string;
}

@Module({})
export class FrontendModule implements NestModule {
  static forRoot(options: FrontendModuleOptions = {}): DynamicModule {
    return {
      module: FrontendModule,
      imports: [AnalyticsModule, TagsModule],
      providers: [
        { provide: POST_VIEW_RECORDER, useExisting: PageViewRecorder },
        {
          provide: ASTRO_HANDLER,
          useFactory: async (): Promise<AstroHandler> => {
            if (options.handler) return options.handler;
            const entry = join(FRONTEND_DIST, 'server', 'entry.mjs');
            if (!existsSync(entry)) throw new Error(`The frontend is not built (${entry} is missing): run npm run build`);
            const module = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
            return module.handler;
          },
        },
        { provide: CLIENT_DIR, useValue: options.clientDir ?? CLIENT_DIST },
        PageCacheService,
        PageCacheFastPath,
        FrontendMiddleware,
      ],
      exports: [PageCacheService],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(FrontendMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}
