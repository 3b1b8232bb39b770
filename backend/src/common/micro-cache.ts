interface Entry<T> {
  expires: number;
  value: Promise<T>;
  /** The answer once loaded (undefined while the load runs). */
  settled?: { value: T };
}

/**
 * Answers shared for a few seconds: every caller within `ttlMs` of the first gets the same promise
 * (so a burst of identical reads makes one query), failures are dropped at once. The owner drops
 * the exact entries a change makes stale (delete, deleteWhere) before the writer answers; the TTL
 * is only a backstop. Bounded by entry count: when full it starts over, which only costs a few
 * extra queries.
 */
export class MicroCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  remember(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = load();
    const entry: Entry<T> = { expires: now + this.ttlMs, value };
    value.then(
      (loaded) => {
        entry.settled = { value: loaded };
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.entries.set(key, entry);
    return value;
  }

  /** Drops one key's answer (the next remember() loads it again). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /**
   * Drops every answer for which `stale(key, value)` holds, and every load still running (it may
   * have read before the change: its callers get it, later callers load again).
   */
  deleteWhere(stale: (key: string, value: T) => boolean): void {
    for (const [key, entry] of this.entries) {
      if (!entry.settled || stale(key, entry.settled.value)) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
