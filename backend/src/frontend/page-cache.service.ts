import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ContentChange, ContentEvents } from '../common/content-events';
import { APP_CONFIG, AppConfig } from '../config/env';
import { CachedPage, DEFAULT_PAGE_CACHE_LIMITS, PageCache } from './page-cache';
import { PageGroup, pageGroupOf, postPageGroup } from './page-cache-policy';

/** The pages that show like counts beside posts other than the page's own (cards, authors' totals). */
const LIKE_COUNT_LISTS = [PageGroup.home, PageGroup.posts, PageGroup.tags, PageGroup.authors, PageGroup.authorPages, PageGroup.search];

/**
 * Search result pages: anyone can ask for new ones without end (a crawler trying random words), so
 * they get at most a quarter of the cache's bytes and 1,000 pages, and evict only each other.
 */
export const SEARCH_PAGE_LIMITS = { maxBytes: DEFAULT_PAGE_CACHE_LIMITS.maxBytes / 4, maxEntries: 1_000 };

/**
 * The server-side cache of anonymous public pages. Each change drops the pages that show it
 * (pages are grouped by what they show: page-cache-policy pageGroupOf):
 * - `post` (published, edited, unpublished, deleted): every page. Besides that post's own pages
 *   and every list, other posts' pages show it among their related posts (or now should: a
 *   publication can enter any page's related section), and the notice does not say which.
 *   Posts change rarely next to likes and comments, which still drop only their post's page
 *   (related cards show no counts).
 * - `post-counters`: that post's page; for likes, also the pages whose cards or totals show like
 *   counts (home, /blog, tags, authors, author pages, search). Comment counts show only on the post's page.
 * - `unpublished-post`: nothing (no public page shows it).
 * - `post-comments` (a comment edited): that post's page, which renders its first comments.
 * - `tag`: a tag shows on the cards and pages of its posts, which this cache cannot tell apart:
 *   every page but /authors.
 * - `user` with a new name, bio or avatar: every page that shows authors (all but the sitemap);
 *   any other account change (a ban, roles): /authors, the author pages, the sitemap and the
 *   search pages (they list active authors; a banned author's published posts stay published and shown).
 * - `resync`: everything.
 * `generation` and store() keep a render that began before a change to its page from being kept.
 */
@Injectable()
export class PageCacheService implements OnModuleDestroy {
  readonly cache = new PageCache({ ...DEFAULT_PAGE_CACHE_LIMITS, groups: { [PageGroup.search]: SEARCH_PAGE_LIMITS } }, pageGroupOf);
  readonly enabled: boolean;
  /** Counts drops; a render stores its page only when its group was not dropped since it began. */
  private sequence = 0;
  /** When a group was last dropped. */
  private readonly droppedAt = new Map<string, number>();
  /** When every group but one ('' for none) was last dropped. */
  private readonly allButDroppedAt = new Map<string, number>();
  private readonly unsubscribe: () => void;

  constructor(@Inject(APP_CONFIG) config: AppConfig, events: ContentEvents) {
    this.enabled = config.pageCache;
    this.unsubscribe = events.onChange((change) => this.dropStale(change));
  }

  /** Where the drops are now: take it before rendering, give it to store(). */
  get generation(): number {
    return this.sequence;
  }

  /** Keeps a page rendered from `generation` on, unless a change to what it shows came since; whether it was kept. */
  store(key: string, page: CachedPage, generation: number): boolean {
    const group = pageGroupOf(key);
    if ((this.droppedAt.get(group) ?? 0) > generation) return false;
    for (const [kept, at] of this.allButDroppedAt) if (at > generation && kept !== group) return false;
    return this.cache.set(key, page);
  }

  dropStale(change: ContentChange): void {
    switch (change.kind) {
      case 'post':
        this.invalidate();
        return;
      case 'post-counters':
        this.drop(
          change.counter === 'likes'
            ? [postPageGroup(change.slug), PageGroup.other, ...LIKE_COUNT_LISTS]
            : [postPageGroup(change.slug), PageGroup.other],
        );
        return;
      case 'post-comments':
        this.drop([postPageGroup(change.slug), PageGroup.other]);
        return;
      case 'tag':
        this.dropAllBut(PageGroup.authors);
        return;
      case 'user':
        if (change.profileChanged) this.dropAllBut(PageGroup.sitemap);
        else this.drop([PageGroup.authors, PageGroup.authorPages, PageGroup.sitemap, PageGroup.search]);
        return;
      case 'resync':
        this.invalidate();
    }
  }

  /** Drops every page. */
  invalidate(): void {
    this.allButDroppedAt.set('', ++this.sequence);
    this.cache.clear();
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }

  private drop(groups: readonly string[]): void {
    const at = ++this.sequence;
    for (const group of groups) {
      this.droppedAt.set(group, at);
      this.cache.deleteGroup(group);
    }
  }

  /** Every page but one group's (`keep`). */
  private dropAllBut(keep: string): void {
    this.allButDroppedAt.set(keep, ++this.sequence);
    this.cache.deleteAllBut(keep);
  }
}
