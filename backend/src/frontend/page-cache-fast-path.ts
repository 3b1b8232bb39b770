import { Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { writeCachedPage } from './cached-page-writer';
import { isPublicPagePath, pageCacheKey } from './page-cache-policy';
import { PageCacheService } from './page-cache.service';
import { POST_VIEW_RECORDER, recordPageView, type PostViewRecorder } from './post-view-recorder';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Answers page-cache hits straight from the HTTP server's request event, before Express and the
 * middleware chain (security headers, request logging, cookie parsing, static files) run: a hit
 * replays the headers stored with the page — helmet's included — so the answer is the same, at
 * close to a bare Node server's speed, for every visitor: a public page is the same whoever asks
 * (a signed-in reader's personal parts come from the fragment). Misses and everything else go on to
 * the app unchanged, where FrontendMiddleware renders and fills the cache. Hits are not in the
 * request log; they carry a fresh X-Request-Id all the same.
 */
@Injectable()
export class PageCacheFastPath implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly pages: PageCacheService,
    @Optional() @Inject(POST_VIEW_RECORDER) private readonly views?: PostViewRecorder,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.pages.enabled) return;
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server || typeof server.listeners !== 'function') return;
    const listeners = server.listeners('request') as RequestListener[];
    if (listeners.length === 0) return;
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.serve(req, res)) return;
      for (const listener of listeners) listener.call(server, req, res);
    });
  }

  /** Answers the request from the cache when it is a GET/HEAD hit of a public page, session cookies or not; false otherwise. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (!isPublicPagePath(path)) return false;
    // A post or author page asked for as ActivityPub is the federation's (docs/federation.md): one header test.
    if (req.headers.accept?.includes('+json')) return false;
    const page = this.pages.cache.get(pageCacheKey(url));
    if (!page) return false;
    recordPageView(this.views, req, path, page.status, true);
    res.setHeader('X-Request-Id', randomUUID());
    writeCachedPage(req, res, page);
    return true;
  }
}
