import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ContentEvents } from '../common/content-events';

/** At most one content notice per this window; also how stale cached lists' comment counts can get. */
export const COMMENT_NOTICE_WINDOW_MS = 5_000;

/**
 * Tells the public caches (page cache, the public answers' micro-caches) that a post's comments
 * changed, through ContentEvents, after the comment's transaction committed. The first change is
 * told at once; further changes within the next 5 s are gathered into one notice at the window's
 * end (as likes do, and like the 5 s view-count flush), so a busy thread clears the caches once per
 * window instead of once per comment, and cached lists show commentCount at most about 5 s old.
 * The post page's comment island reads the comments and their count live.
 */
@Injectable()
export class CommentChangeNotifier implements OnModuleDestroy {
  private pending = new Map<number, string>();
  private timer?: NodeJS.Timeout;
  private lastNotice = 0;

  constructor(private readonly events: ContentEvents) {}

  /** The comments of post `id` (slug `slug`) changed. */
  changed(id: number, slug: string): void {
    this.pending.set(id, slug);
    if (this.timer) return;
    const wait = this.lastNotice + COMMENT_NOTICE_WINDOW_MS - Date.now();
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
    this.events.changed({ kind: 'comments', id: ids.length === 1 ? ids[0] : undefined, slugs: [...changed.values()] });
  }

  onModuleDestroy(): void {
    this.flush();
  }
}
