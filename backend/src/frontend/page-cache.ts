import { createHash } from 'node:crypto';

/** A rendered page kept for anonymous readers: status, the headers the page set, the body. */
export interface CachedPage {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  etag: string;
}

export interface PageCacheLimits {
  /** Sum of body and header sizes the cache may hold. */
  maxBytes: number;
  maxEntries: number;
}

/** 64 MB and 5,000 pages: a whole seeded site's hot pages, bounded memory. */
export const DEFAULT_PAGE_CACHE_LIMITS: PageCacheLimits = { maxBytes: 64 * 1024 * 1024, maxEntries: 5_000 };

/** A strong ETag: a hash of the exact bytes. */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether an If-None-Match header names this ETag (or is `*`); weak comparison, as RFC 9110 asks for GET. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value.replace(/^W\//, '') === opaque;
  });
}

function sizeOf(key: string, page: CachedPage): number {
  let size = key.length + page.body.length + page.etag.length + 64;
  for (const [name, value] of Object.entries(page.headers)) size += name.length + (Array.isArray(value) ? value.join('').length : value.length);
  return size;
}

/**
 * Least-recently-used store of rendered pages, bounded by entries and by bytes. A Map keeps
 * insertion order: a hit re-inserts the key, so the first key is always the least recently used.
 */
export class PageCache {
  private readonly entries = new Map<string, { page: CachedPage; size: number }>();
  private bytes = 0;

  constructor(private readonly limits: PageCacheLimits = DEFAULT_PAGE_CACHE_LIMITS) {}

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  get(key: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.page;
  }

  /** Stores a page; one bigger than an eighth of the byte budget is not kept (it would evict too much). */
  set(key: string, page: CachedPage): boolean {
    const size = sizeOf(key, page);
    this.delete(key);
    if (size > this.limits.maxBytes / 8) return false;
    this.entries.set(key, { page, size });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.limits.maxBytes && this.entries.size <= this.limits.maxEntries) break;
      this.entries.delete(oldest);
      this.bytes -= entry.size;
    }
    return true;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
