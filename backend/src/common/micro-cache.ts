/**
 * Answers shared for a few seconds: every caller within `ttlMs` of the first gets the same promise
 * (so a burst of identical reads makes one query), failures are dropped at once, and the owner
 * clears it on every content change. Bounded by entry count: when full it starts over, which
 * only costs a few extra queries.
 */
export class MicroCache<T> {
  private readonly entries = new Map<string, { expires: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  remember(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = load();
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    this.entries.set(key, { expires: now + this.ttlMs, value });
    return value;
  }

  /** Drops one key's answer (the next remember() loads it again). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
