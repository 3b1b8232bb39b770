import { createHash } from 'node:crypto';
import { compressBody, CONTENT_CODINGS, MIN_COMPRESSED_BYTES, variantEtag, type ContentCoding } from './content-coding';

/** A body in one content coding, with that representation's own ETag. */
export interface EncodedBody {
  body: Buffer;
  etag: string;
}

/** A rendered page kept for anonymous readers: status, the headers the page set, the body. */
export interface CachedPage {
  status: number;
  headers: Record<string, string | string[]>;
  /** The identity body (what the page handler wrote). */
  body: Buffer;
  etag: string;
  /**
   * The body compressed once, when the page was kept (or rendered): br and gzip, each with its
   * ETag (the identity ETag + "-br"/"-gz"). A coding is missing when the body is too small to
   * be worth it or compressing did not make it smaller: such clients get the identity body.
   */
  encoded?: Partial<Record<ContentCoding, EncodedBody>>;
}

export interface PageCacheLimits {
  /** Sum of body and header sizes the cache may hold. */
  maxBytes: number;
  maxEntries: number;
  /**
   * Tighter limits for some groups (by `groupOf` name): a group whose addresses anyone can vary
   * without end (search results) evicts its own least recently used pages, never the others'.
   */
  groups?: Record<string, { maxBytes: number; maxEntries: number }>;
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

/**
 * The page with its body compressed in the given codings (all by default), off the event loop.
 * Made once per rendering: cache hits only pick the bytes.
 */
export async function withEncodings(page: CachedPage, codings: readonly ContentCoding[] = CONTENT_CODINGS): Promise<CachedPage> {
  if (page.body.length < MIN_COMPRESSED_BYTES || codings.length === 0) return page;
  const bodies = await Promise.all(codings.map((coding) => compressBody(page.body, coding)));
  const encoded: Partial<Record<ContentCoding, EncodedBody>> = {};
  codings.forEach((coding, i) => {
    const body = bodies[i];
    if (body.length < page.body.length) encoded[coding] = { body, etag: variantEtag(page.etag, coding) };
  });
  return { ...page, encoded };
}

function sizeOf(key: string, page: CachedPage): number {
  let size = key.length + page.body.length + page.etag.length + 64;
  for (const variant of Object.values(page.encoded ?? {})) size += variant.body.length + variant.etag.length;
  for (const [name, value] of Object.entries(page.headers))
    size += name.length + (Array.isArray(value) ? value.join('').length : value.length);
  return size;
}

/**
 * Least-recently-used store of rendered pages, bounded by entries and by bytes. A Map keeps
 * insertion order: a hit re-inserts the key, so the first key is always the least recently used.
 */
export class PageCache {
  private readonly entries = new Map<string, { page: CachedPage; size: number; group: string }>();
  /** The keys of each group (see `groupOf`): what deleteGroup() drops. */
  private readonly groups = new Map<string, Set<string>>();
  /** Bytes held per group that has limits of its own. */
  private readonly groupBytes = new Map<string, number>();
  private bytes = 0;

  /** `groupOf` names the group a key belongs to (by default all keys share one). */
  constructor(
    private readonly limits: PageCacheLimits = DEFAULT_PAGE_CACHE_LIMITS,
    private readonly groupOf: (key: string) => string = () => '',
  ) {}

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
    if (this.limits.groups?.[entry.group]) {
      // A limited group evicts in its own least-recently-used order, kept by its key set.
      const keys = this.groups.get(entry.group);
      keys?.delete(key);
      keys?.add(key);
    }
    return entry.page;
  }

  /** Stores a page; one bigger than an eighth of the byte budget is not kept (it would evict too much). */
  set(key: string, page: CachedPage): boolean {
    const size = sizeOf(key, page);
    this.delete(key);
    if (size > this.limits.maxBytes / 8) return false;
    const group = this.groupOf(key);
    this.entries.set(key, { page, size, group });
    let keys = this.groups.get(group);
    if (!keys) this.groups.set(group, (keys = new Set()));
    keys.add(key);
    this.bytes += size;
    const groupLimits = this.limits.groups?.[group];
    if (groupLimits) {
      this.groupBytes.set(group, (this.groupBytes.get(group) ?? 0) + size);
      for (const oldest of keys) {
        if ((this.groupBytes.get(group) ?? 0) <= groupLimits.maxBytes && keys.size <= groupLimits.maxEntries) break;
        this.delete(oldest);
      }
      if (!this.entries.has(key)) return false;
    }
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.limits.maxBytes && this.entries.size <= this.limits.maxEntries) break;
      this.delete(oldest);
    }
    return true;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
    const held = this.groupBytes.get(entry.group);
    if (held !== undefined) this.groupBytes.set(entry.group, held - entry.size);
    const keys = this.groups.get(entry.group);
    keys?.delete(key);
    if (keys && !keys.size) this.groups.delete(entry.group);
  }

  /** Drops every page of one group (e.g. every address of one post's page). */
  deleteGroup(group: string): void {
    for (const key of [...(this.groups.get(group) ?? [])]) this.delete(key);
  }

  /** Drops every page but those of one group. */
  deleteAllBut(keep: string): void {
    for (const group of [...this.groups.keys()]) if (group !== keep) this.deleteGroup(group);
  }

  clear(): void {
    this.entries.clear();
    this.groups.clear();
    this.groupBytes.clear();
    this.bytes = 0;
  }
}
