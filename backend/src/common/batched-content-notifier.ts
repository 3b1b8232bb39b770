import { OnModuleDestroy } from '@nestjs/common';
import { ContentEvents } from './content-events';

/** At most one content notice per this window; also how stale cached lists' counts can get. */
export const CONTENT_NOTICE_WINDOW_MS = 5_000;

/**
 * Tells the public caches (page cache, the public answers' micro-caches) through ContentEvents
 * that something shown on a post changed (its likes, its comments), after the change committed.
 * The first change is told at once; further changes within the next 5 s are gathered into one
 * notice at the window's end (like the 5 s view-count flush), so a burst clears the caches once
 * per window instead of once per click, and cached lists show counts at most about 5 s old. The
 * post page's islands read the live numbers themselves.
 */
export abstract class BatchedContentNotifier implements OnModuleDestroy {
  private pending = new Map<number, string>();
  private timer?: NodeJS.Timeout;
  private lastNotice = 0;

  protected constructor(
    private readonly events: ContentEvents,
    private readonly kind: string,
  ) {}

  /** Post `id` (slug `slug`) changed. */
  changed(id: number, slug: string): void {
    this.pending.set(id, slug);
    if (this.timer) return;
    const wait = this.lastNotice + CONTENT_NOTICE_WINDOW_MS - Date.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
    this.timer.unref();
  }

  /** Sends the gathered changes now (also before shutdown). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.size) return;
    const changed = this.pending;
    this.pending = new Map();
    this.lastNotice = Date.now();
    const ids = [...changed.keys()];
    this.events.changed({ kind: this.kind, id: ids.length === 1 ? ids[0] : undefined, slugs: [...changed.values()] });
  }

  onModuleDestroy(): void {
    this.flush();
  }
}
