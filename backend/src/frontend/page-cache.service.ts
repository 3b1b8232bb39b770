import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ContentEvents } from '../common/content-events';
import { APP_CONFIG, AppConfig } from '../config/env';
import { DEFAULT_PAGE_CACHE_LIMITS, PageCache } from './page-cache';

/**
 * The server-side cache of anonymous public pages. Any content change clears it all (simple and
 * always correct: a post shows on the home page, the lists, its tags' pages, the feed and the
 * sitemap). `generation` lets a render that started before a change avoid storing stale HTML.
 */
@Injectable()
export class PageCacheService implements OnModuleDestroy {
  readonly cache = new PageCache(DEFAULT_PAGE_CACHE_LIMITS);
  readonly enabled: boolean;
  private currentGeneration = 0;
  private readonly unsubscribe: () => void;

  constructor(@Inject(APP_CONFIG) config: AppConfig, events: ContentEvents) {
    this.enabled = config.pageCache;
    this.unsubscribe = events.onChange(() => this.invalidate());
  }

  get generation(): number {
    return this.currentGeneration;
  }

  invalidate(): void {
    this.currentGeneration++;
    this.cache.clear();
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}
