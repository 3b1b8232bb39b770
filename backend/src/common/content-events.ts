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

  changed(change: ContentChange): void {
    for (const listener of this.listeners) listener(change);
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
