import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** The content codings Inkwell sends: brotli and gzip, else the bytes as they are. */
export type ContentCoding = 'br' | 'gzip';
export type Coding = ContentCoding | 'identity';

/** Compressed codings in order of preference when the client accepts both equally. */
export const CONTENT_CODINGS: readonly ContentCoding[] = ['br', 'gzip'];

/** Bodies smaller than this are sent as they are: the saving would not pay for the work. */
export const MIN_COMPRESSED_BYTES = 1024;

/** The ETag of a body's br or gzip variant: the identity ETag with a suffix ("…-br", "…-gz"). */
export function variantEtag(identityEtag: string, coding: ContentCoding): string {
  const weak = identityEtag.startsWith('W/');
  const opaque = weak ? identityEtag.slice(2) : identityEtag;
  return `${weak ? 'W/' : ''}${opaque.slice(0, -1)}-${coding === 'br' ? 'br' : 'gz'}"`;
}

interface Weights {
  br?: number;
  gzip?: number;
  star?: number;
}

function parseQ(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=');
    if (name?.trim().toLowerCase() === 'q') {
      const q = Number(value?.trim());
      return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
    }
  }
  return 1;
}

/**
 * The coding to send for an Accept-Encoding header (RFC 9110 §12.5.3): br or gzip when the
 * client accepts it (by name or `*`, with q > 0), the higher q winning and br on a tie; identity
 * otherwise (no header, only unknown codings, or q=0 for both).
 */
function parseAcceptEncoding(header: string): Coding {
  const weights: Weights = {};
  for (const part of header.split(',')) {
    const [token, ...params] = part.split(';');
    const name = token?.trim().toLowerCase();
    if (!name) continue;
    const q = parseQ(params);
    if (name === 'br') weights.br = q;
    else if (name === 'gzip' || name === 'x-gzip') weights.gzip = Math.max(weights.gzip ?? 0, q);
    else if (name === '*') weights.star = q;
  }
  const br = weights.br ?? weights.star ?? 0;
  const gz = weights.gzip ?? weights.star ?? 0;
  if (br <= 0 && gz <= 0) return 'identity';
  return br >= gz ? 'br' : 'gzip';
}

/** Browsers send a handful of distinct headers: each is parsed once (bounded, cleared when full). */
const negotiated = new Map<string, Coding>();
const MAX_REMEMBERED = 256;

export function negotiateCoding(header: string | string[] | undefined): Coding {
  if (header === undefined) return 'identity';
  const value = Array.isArray(header) ? header.join(',') : header;
  let coding = negotiated.get(value);
  if (coding === undefined) {
    coding = parseAcceptEncoding(value);
    if (negotiated.size >= MAX_REMEMBERED) negotiated.clear();
    negotiated.set(value, coding);
  }
  return coding;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compression for rendered pages (compressed once when kept, or per rendering with PAGE_CACHE=off),
 * in libuv's thread pool, off the event loop. Measured on the seeded site's pages (24-68 KB of
 * HTML): brotli quality 5 takes 1-3 ms and gives 3.9-8.7 KB; quality 9 gives the same bytes in
 * 10-30 ms; quality 11 saves another 8 % in 40-150 ms (3.5 s for the 1.4 MB sitemap) — too much
 * work for a cache that any content change clears (a like or a comment does, every 5 s at most).
 * gzip level 6 is within 0.5 % of level 9 at half its cost on large bodies.
 */
export const STORED_BROTLI_QUALITY = 5;
export const STORED_GZIP_LEVEL = 6;

/** Compresses a body with one coding, off the event loop (libuv's thread pool). */
export function compressBody(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  if (coding === 'br') {
    return brotliAsync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: STORED_BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  }
  return gzipAsync(body, { level: STORED_GZIP_LEVEL });
}
