import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ContentEvents } from '../common/content-events';

/** At most one content notice per this window; also how stale a cached page's like counts can get. */
export const LIKE_NOTICE_WINDOW_MS = 5_000;

/**
 * Tells the public caches (page cache, the public answers' micro-caches) that like counts changed,
 * through ContentEvents, after the like's transaction committed. The first change is told at once;
 * further changes within the next 5 s are gathered into one notice at the window's end (like the
 * 5 s view-count flush), so a burst of likes clears the caches once per window instead of once per
 * click, and cached lists show counts at most about 5 s old. (The post page's like island reads the
 * live count itself.)
 */
@Injectable()
export class LikeChangeNotifier implements OnModuleDestroy {
  private pending = new Map<number, string>();
  private timer?: NodeJS.Timeout;
  private lastNotice = 0;

  constructor(private readonly events: ContentEvents) {}

  /** The like count of post `id` (slug `slug`) changed. */
  changed(id: number, slug: string): void {
    this.pending.set(id, slug);
    if (this.timer) return;
    const wait = this.lastNotice + LIKE_NOTICE_WINDOW_MS - Date.now();
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
    if (!this.pending.size) return;
    const changed = this.pending;
    this.pending = new Map();
    this.lastNotice = Date.now();
    const ids = [...changed.keys()];
    this.events.changed({ kind: 'likes', id: ids.length === 1 ? ids[0] : undefined, slugs: [...changed.values()] });
  }

  onModuleDestroy(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
  }
}
