import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants } from 'node:zlib';

/** Answers smaller than this go out as they are (a few hundred bytes gain nothing from compression). */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Brotli quality for answers compressed on the fly: 4 compresses JSON about as well as gzip's
 * default level, at a similar CPU cost (quality 11, for files compressed once, is far slower).
 */
const ON_THE_FLY_BROTLI_QUALITY = 4;

/** Set on responses whose body the app already chose a coding for (cached pages, precompressed assets). */
const COMPRESSED_BY_APP = Symbol('compressedByApp');
type Marked = ServerResponse & { [COMPRESSED_BY_APP]?: true };

/** Tells the on-the-fly compression to leave this response alone: its body is already in its final coding. */
export function markCompressedByApp(res: ServerResponse): void {
  (res as Marked)[COMPRESSED_BY_APP] = true;
}

/** Types never compressed: event streams (each event must reach the client at once) and images (already compressed). */
const NEVER_COMPRESSED = /^(?:text\/event-stream|image\/(?!svg\+xml)|video\/|audio\/|application\/(?:zip|gzip|x-gzip|octet-stream|pdf))/i;

/**
 * Whether an answer is compressed on the fly: JSON, HTML, XML and other compressible text
 * (the `compressible` list the middleware uses), not marked as already in its final coding,
 * not an event stream or an image.
 */
export function shouldCompressOnTheFly(req: IncomingMessage, res: ServerResponse): boolean {
  if ((res as Marked)[COMPRESSED_BY_APP]) return false;
  const type = res.getHeader('Content-Type');
  if (typeof type !== 'string') return false;
  let verdict = COMPRESSIBLE_TYPES.get(type);
  if (verdict === undefined) {
    verdict =
      !NEVER_COMPRESSED.test(type) &&
      compression.filter(req as Parameters<typeof compression.filter>[0], res as Parameters<typeof compression.filter>[1]);
    if (COMPRESSIBLE_TYPES.size >= MAX_REMEMBERED_TYPES) COMPRESSIBLE_TYPES.clear();
    COMPRESSIBLE_TYPES.set(type, verdict);
  }
  return verdict;
}

/**
 * The verdict per Content-Type value (compression.filter looks the type up in the mime database
 * each time; it depends on nothing else, and an app sends a handful of types).
 */
const COMPRESSIBLE_TYPES = new Map<string, boolean>();
const MAX_REMEMBERED_TYPES = 256;

/**
 * The `compression` middleware as the app uses it: br or gzip by Accept-Encoding (br preferred),
 * for answers of at least COMPRESSION_THRESHOLD_BYTES that shouldCompressOnTheFly admits. It adds
 * `Vary: Accept-Encoding` to every answer it considers, and leaves `Cache-Control: no-transform`
 * answers, HEAD and answers that already carry a Content-Encoding alone. Requests without an
 * Accept-Encoding header (health checks, scripts, server-to-server calls) skip it altogether:
 * nothing would be compressed, and its per-request wrapping costs API calls several per cent;
 * the answers that a cache may keep get their `Vary: Accept-Encoding` from apiCacheControl and
 * FrontendMiddleware instead. The middleware itself is set up only when the answer starts and may
 * be compressed (deferCompression): most API answers are a few hundred bytes.
 */
export function onTheFlyCompression(): RequestHandler {
  const compress = compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    filter: shouldCompressOnTheFly,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: ON_THE_FLY_BROTLI_QUALITY } },
  }) as RequestHandler;
  return (req, res, next) => {
    if (req.headers['accept-encoding']) deferCompression(req, res, compress);
    next();
  };
}

/** As `compression` tests Cache-Control for no-transform. */
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;

type Method = (this: ServerResponse, ...args: unknown[]) => unknown;
interface Output {
  writeHead: Method;
  write: Method;
  end: Method;
}

/**
 * Puts off setting up `compress` for one response until its first writeHead, write or end, and
 * skips it when that first call is an `end` whose answer `compress` would leave alone anyway: for
 * such an answer it does here exactly what `compress` would have done (add `Vary: Accept-Encoding`
 * when the type is compressible and Cache-Control allows transforms; nothing else). Any other
 * first call — writeHead, write, an answer of at least the threshold, a HEAD of a large answer —
 * sets `compress` up then, so it decides and wraps as it always has. The methods put on the
 * response stay its innermost ones, so wrappers added later (the pages' reason phrase, response
 * buffers) keep calling through them.
 */
export function deferCompression(req: Request, res: Response, compress: RequestHandler): void {
  const original: Output = { writeHead: res.writeHead as Method, write: res.write as Method, end: res.end as Method };
  let output: Output | undefined;
  const settle = (): Output => {
    // A response whose client has gone gets nothing from a compression stream (compression, too, makes none then).
    if (res.destroyed) return (output = original);
    // Set `compress` up on the original methods, keep what it made of them, put back whatever wraps ours now
    // (its `on`, which holds back 'drain' listeners for its stream, stays).
    const outer = { writeHead: res.writeHead, write: res.write, end: res.end };
    res.writeHead = original.writeHead as Response['writeHead'];
    res.write = original.write as Response['write'];
    res.end = original.end as Response['end'];
    compress(req, res, () => undefined);
    output = { writeHead: res.writeHead as Method, write: res.write as Method, end: res.end as Method };
    res.writeHead = outer.writeHead;
    res.write = outer.write;
    res.end = outer.end;
    return output;
  };
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    return (output ?? settle()).writeHead.apply(this, args);
  } as Response['writeHead'];
  res.write = function (this: ServerResponse, ...args: unknown[]) {
    return (output ?? settle()).write.apply(this, args);
  } as Response['write'];
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (!output) {
      if (leftAlone(req, res, args[0], args[1])) {
        output = original;
        // As `compress` does: the head is written before the body, so an answer without a
        // Content-Length of its own goes out chunked, as it always has.
        if (!this.headersSent) this.writeHead(this.statusCode);
      } else settle();
    }
    return output!.end.apply(this, args);
  } as Response['end'];
}

/**
 * Whether `compress` would leave an answer that starts with end(chunk, encoding) as it is; if so,
 * its one trace — `Vary: Accept-Encoding` — is added here, in the order `compress` adds it.
 */
function leftAlone(req: Request, res: Response, chunk: unknown, encoding: unknown): boolean {
  if (res.headersSent || typeof chunk === 'function' || (encoding !== undefined && typeof encoding !== 'string')) return false;
  if (typeof res.vary !== 'function') return false;
  if (!shouldCompressOnTheFly(req, res)) return true;
  const cacheControl = res.getHeader('Cache-Control');
  if (cacheControl && NO_TRANSFORM.test(String(cacheControl))) return true;
  const declared = res.getHeader('Content-Length');
  const length = declared ? undefined : chunkLength(chunk, encoding as BufferEncoding | undefined);
  if (!(Number(declared) < COMPRESSION_THRESHOLD_BYTES || (length !== undefined && length < COMPRESSION_THRESHOLD_BYTES))) return false;
  res.vary('Accept-Encoding');
  return true;
}

/** The length `compression` estimates for a first and only chunk. */
function chunkLength(chunk: unknown, encoding: BufferEncoding | undefined): number {
  if (!chunk) return 0;
  return Buffer.isBuffer(chunk) ? chunk.length : Buffer.byteLength(chunk as string, encoding);
}
