import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { matchesIfNoneMatch, type CachedPage } from './page-cache';
import { ANONYMOUS_CACHE_CONTROL } from './page-cache-policy';

interface WireHeaders {
  full: OutgoingHttpHeaders;
  notModified: OutgoingHttpHeaders;
}

/** Headers of a page as sent, worked out once per cached page (hits only look them up). */
const wireHeaders = new WeakMap<CachedPage, WireHeaders>();

function headersOf(page: CachedPage): WireHeaders {
  let headers = wireHeaders.get(page);
  if (!headers) {
    const common: OutgoingHttpHeaders = { ...page.headers, etag: page.etag, 'cache-control': ANONYMOUS_CACHE_CONTROL, vary: 'Cookie' };
    const notModified = { ...common };
    delete notModified['content-type'];
    headers = { full: { ...common, 'content-length': page.body.length }, notModified };
    wireHeaders.set(page, headers);
  }
  return headers;
}

/**
 * Sends a page kept for anonymous readers (cached, or just rendered): its status, headers and
 * bytes, with the ETag and `public, max-age=0, must-revalidate`; 304 without a body when the
 * client's If-None-Match names this ETag. HEAD gets the headers only.
 */
export function writeCachedPage(req: IncomingMessage, res: ServerResponse, page: CachedPage): void {
  const headers = headersOf(page);
  if (page.status === 200 && matchesIfNoneMatch(req.headers['if-none-match'], page.etag)) {
    res.removeHeader('content-type');
    res.writeHead(304, headers.notModified);
    res.end();
    return;
  }
  res.writeHead(page.status, headers.full);
  res.end(req.method === 'HEAD' ? undefined : page.body);
}
