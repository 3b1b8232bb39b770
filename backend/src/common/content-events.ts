import { Global, Injectable, Module } from '@nestjs/common';

export interface ContentChange {
  /** What changed, e.g. 'post', 'tag'. */
  kind: string;
  id?: number;
  /** Slugs whose public pages show this content (old and new, when a slug changed). */
  slugs?: string[];
}

type Listener = (change: ContentChange) => void;

/**
 * In-process notice that public content changed (a post published, edited, archived; a tag
 * renamed or deactivated). Services that change what anonymous readers see call changed() after
 * their transaction commits; caches of public pages listen and drop what is stale.
 */
@Injectable()
export class ContentEvents {
  private readonly listeners = new Set<Listener>();
  private relay?: Listener;

  /** Content changed here: this instance's listeners drop what is stale, then the relay (if any) tells the other instances. */
  changed(change: ContentChange): void {
    this.deliver(change);
    this.relay?.(change);
  }

  /** Tells this instance's listeners only (a notice that came from another instance, or a resync). */
  deliver(change: ContentChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Sends every local change on to other instances too (REDIS_URL); returns a function that stops it. */
  relayTo(relay: Listener): () => void {
    this.relay = relay;
    return () => {
      if (this.relay === relay) this.relay = undefined;
    };
  }

  /** Returns a function that removes the listener. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

@Global()
@Module({ providers: [ContentEvents], exports: [ContentEvents] })
export class ContentEventsModule {}
