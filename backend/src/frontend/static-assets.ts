import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { markCompressedByApp } from '../common/http-compression';
import { CONTENT_CODINGS, negotiateCoding, variantEtag, type Coding, type ContentCoding } from './content-coding';
import { matchesIfNoneMatch } from './page-cache';

/** Astro's hashed build output: a name never changes content, so caches keep it for a year. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Other files of the build (favicon.svg...) keep their name across builds: caches ask again each time. */
export const REVALIDATE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** Files the build holds, by extension; anything else is left to express.static. */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

/** The extension of the precompressed file beside an asset, per coding (what scripts/precompress-assets.mjs writes). */
export const PRECOMPRESSED_EXTENSIONS: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

/** Files larger than this stay on disk, served by express.static (uncompressed). */
const MAX_IN_MEMORY_BYTES = 4 * 1024 * 1024;

interface Representation {
  body: Buffer;
  etag: string;
  full: OutgoingHttpHeaders;
  notModified: OutgoingHttpHeaders;
}

type Asset = { identity: Representation } & Partial<Record<ContentCoding, Representation>>;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

function representation(
  body: Buffer,
  etag: string,
  type: string,
  cacheControl: string,
  vary: boolean,
  coding?: ContentCoding,
): Representation {
  const common: OutgoingHttpHeaders = { etag, 'cache-control': cacheControl };
  if (vary) common.vary = 'Accept-Encoding';
  const full: OutgoingHttpHeaders = { ...common, 'content-type': type, 'content-length': body.length };
  if (coding) full['content-encoding'] = coding;
  return { body, etag, full, notModified: common };
}

/**
 * The files of the Astro client build (dist/client), held in memory with the .br and .gz files
 * the build wrote beside them (scripts/precompress-assets.mjs): a request gets the coding its
 * Accept-Encoding picks, with that file's own ETag (the identity ETag + "-br"/"-gz"), 304 for a
 * matching If-None-Match, and `immutable` caching for the hashed `/_astro/` files. An asset whose
 * .br or .gz is missing (or not smaller) goes out as it is for that coding; nothing is compressed
 * per request.
 */
export class StaticAssets {
  private readonly files = new Map<string, Asset>();

  constructor(root: string) {
    if (!existsSync(root)) return;
    for (const path of filesUnder(root)) {
      const type = CONTENT_TYPES[extname(path).toLowerCase()];
      if (!type || statSync(path).size > MAX_IN_MEMORY_BYTES) continue;
      const urlPath = `/${relative(root, path).split(sep).join('/')}`;
      const body = readFileSync(path);
      const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      const cacheControl = urlPath.startsWith('/_astro/') ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL;
      const variants: Partial<Record<ContentCoding, Buffer>> = {};
      for (const coding of CONTENT_CODINGS) {
        const file = `${path}${PRECOMPRESSED_EXTENSIONS[coding]}`;
        if (!existsSync(file)) continue;
        const compressed = readFileSync(file);
        if (compressed.length < body.length) variants[coding] = compressed;
      }
      const vary = Object.keys(variants).length > 0;
      const asset: Asset = { identity: representation(body, etag, type, cacheControl, vary) };
      for (const [coding, compressed] of Object.entries(variants) as [ContentCoding, Buffer][]) {
        asset[coding] = representation(compressed, variantEtag(etag, coding), type, cacheControl, vary, coding);
      }
      this.files.set(urlPath, asset);
    }
  }

  /** How many files are held (tests, start-up checks). */
  get size(): number {
    return this.files.size;
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  /** Answers a GET or HEAD for a file of the build; false (nothing sent) for anything else. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const asset = this.files.get(path);
    if (!asset) return false;
    const coding: Coding = negotiateCoding(req.headers['accept-encoding']);
    const sent = (coding === 'identity' ? undefined : asset[coding]) ?? asset.identity;
    markCompressedByApp(res);
    if (matchesIfNoneMatch(req.headers['if-none-match'], sent.etag)) {
      res.writeHead(304, sent.notModified);
      res.end();
      return true;
    }
    res.writeHead(200, sent.full);
    res.end(req.method === 'HEAD' ? undefined : sent.body);
    return true;
  }
}
