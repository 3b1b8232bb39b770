import compression from 'compression';
import type { RequestHandler } from 'express';
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
  if (typeof type !== 'string' || NEVER_COMPRESSED.test(type)) return false;
  return compression.filter(req as Parameters<typeof compression.filter>[0], res as Parameters<typeof compression.filter>[1]);
}

/**
 * The `compression` middleware as the app uses it: br or gzip by Accept-Encoding (br preferred),
 * for answers of at least COMPRESSION_THRESHOLD_BYTES that shouldCompressOnTheFly admits. It adds
 * `Vary: Accept-Encoding` to every answer it considers, and leaves `Cache-Control: no-transform`
 * answers, HEAD and answers that already carry a Content-Encoding alone. Requests without an
 * Accept-Encoding header (health checks, scripts, server-to-server calls) skip it altogether:
 * nothing would be compressed, and its per-request wrapping costs API calls several per cent;
 * the answers that a cache may keep get their `Vary: Accept-Encoding` from apiCacheControl and
 * FrontendMiddleware instead.
 */
export function onTheFlyCompression(): RequestHandler {
  const compress = compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    filter: shouldCompressOnTheFly,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: ON_THE_FLY_BROTLI_QUALITY } },
  }) as RequestHandler;
  return (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next());
}
