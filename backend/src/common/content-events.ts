import { Global, Injectable, Module } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What changed, exactly: each cache drops only the entries that show it (docs/architecture.md,
 * 'What each change drops'). Every kind is plain JSON: the Redis relay carries it as it is.
 */
export type ContentChange =
  /** A post anonymous readers see (or saw) was published, edited, unpublished or deleted; `slugs` old and new. */
  | { kind: 'post'; postId: number; slugs: string[] }
  /** A post readers never saw was created, edited, moved between statuses or deleted: only the back office's post counts and lists show it. */
  | { kind: 'unpublished-post'; postId: number }
  /** A published post's like or comment count changed (nothing else about it). */
  | { kind: 'post-counters'; postId: number; slug: string; counter: 'likes' | 'comments' }
  /** A comment on a published post was edited (no count changed): the post's page shows its first comments. */
  | { kind: 'post-comments'; postId: number; slug: string }
  /** A tag was renamed, (de)activated or deleted; `slugs` old and new. */
  | { kind: 'tag'; tagId: number; slugs: string[] }
  /**
   * An account changed. `profileChanged`: its name, bio or avatar (what posts and lists show
   * beside its posts); otherwise only what the back office and the authors page show (status,
   * roles, verification, e-mail: a ban, for one).
   */
  | { kind: 'user'; userId: number; profileChanged: boolean }
  /** Notices may have been missed (Redis away): drop everything. */
  | { kind: 'resync' };

export type ContentChangeKind = ContentChange['kind'];

const KINDS: ReadonlySet<string> = new Set<ContentChangeKind>([
  'post',
  'unpublished-post',
  'post-counters',
  'post-comments',
  'tag',
  'user',
  'resync',
]);
const isId = (value: unknown): value is number => Number.isSafeInteger(value);
const isSlugs = (value: unknown): value is string[] => Array.isArray(value) && value.every((slug) => typeof slug === 'string');

/** Whether a value (a relayed message) is a well-formed ContentChange; other instances' notices are checked before delivery. */
export function isContentChange(value: unknown): value is ContentChange {
  if (typeof value !== 'object' || value === null) return false;
  const change = value as Record<string, unknown>;
  if (typeof change.kind !== 'string' || !KINDS.has(change.kind)) return false;
  switch (change.kind as ContentChangeKind) {
    case 'post':
      return isId(change.postId) && isSlugs(change.slugs);
    case 'unpublished-post':
      return isId(change.postId);
    case 'post-counters':
      return isId(change.postId) && typeof change.slug === 'string' && (change.counter === 'likes' || change.counter === 'comments');
    case 'post-comments':
      return isId(change.postId) && typeof change.slug === 'string';
    case 'tag':
      return isId(change.tagId) && isSlugs(change.slugs);
    case 'user':
      return isId(change.userId) && typeof change.profileChanged === 'boolean';
    case 'resync':
      return true;
  }
}

type Listener = (change: ContentChange) => void;

/** The changes a batched writer made since its last delivery (see ContentEvents.inBatches). */
interface Batch {
  readonly intervalMs: number;
  readonly pending: Map<string, ContentChange>;
  deliveredAt: number;
}

/** How often a batched writer's changes reach the caches, by default. */
export const BATCH_INTERVAL_MS = 1000;
/** Tells the other instances; settles once they have dropped what the change makes stale (or gave up waiting). */
type Relay = (change: ContentChange) => Promise<void>;

/**
 * In-process notice that content changed, saying what (a post published or edited, its counters,
 * a tag, an account). Services await changed() after their transaction commits and before they
 * answer: every cache on this instance drops the exact entries that show the change synchronously,
 * and the relay (REDIS_URL) settles once every other instance has dropped them too, so the caller
 * reads their own write whichever instance answers next.
 */
@Injectable()
export class ContentEvents {
  private readonly listeners = new Set<Listener>();
  private relay?: Relay;
  private readonly batches = new AsyncLocalStorage<Batch>();

  /**
   * Content changed here: this instance's listeners drop what is stale, then the relay (if any)
   * tells the other instances and waits for them. Inside `inBatches`, the change waits for its
   * batch's next delivery instead.
   */
  async changed(change: ContentChange): Promise<void> {
    const batch = this.batches.getStore();
    if (!batch) return this.send(change);
    batch.pending.set(JSON.stringify(change), change);
    if (Date.now() - batch.deliveredAt >= batch.intervalMs) await this.deliverBatch(batch);
  }

  /**
   * Runs `work` with the changes it makes told at most once per `intervalMs` (each distinct change
   * once), and whatever is left as it ends, whether it settles or throws. For a background writer
   * of thousands of changes that no reader waits on one by one (a site import): told one by one,
   * each would drop the same cached home and blog pages again, and readers would wait for their
   * render all through the import. Its own reads must not come from these caches; its caller
   * reads its writes once `work` has ended, everything told by then.
   */
  async inBatches<T>(work: () => Promise<T>, intervalMs = BATCH_INTERVAL_MS): Promise<T> {
    const batch: Batch = { intervalMs, pending: new Map(), deliveredAt: Date.now() };
    try {
      return await this.batches.run(batch, work);
    } finally {
      await this.deliverBatch(batch);
    }
  }

  private async deliverBatch(batch: Batch): Promise<void> {
    const changes = [...batch.pending.values()];
    batch.pending.clear();
    batch.deliveredAt = Date.now();
    for (const change of changes) await this.send(change);
  }

  private async send(change: ContentChange): Promise<void> {
    this.deliver(change);
    await this.relay?.(change);
  }

  /** Tells this instance's listeners only (a notice that came from another instance, or a resync). */
  deliver(change: ContentChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Sends every local change on to other instances too (REDIS_URL); returns a function that stops it. */
  relayTo(relay: Relay): () => void {
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
