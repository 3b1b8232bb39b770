import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { markCompressedByApp } from '../common/http-compression';
import { negotiateCoding, type Coding } from './content-coding';
import { matchesIfNoneMatch, type CachedPage } from './page-cache';
import { ANONYMOUS_CACHE_CONTROL, ANONYMOUS_VARY } from './page-cache-policy';

interface WireHeaders {
  body: Buffer;
  etag: string;
  full: OutgoingHttpHeaders;
  notModified: OutgoingHttpHeaders;
}

/** Headers of a page as sent, per coding, worked out once per cached page (hits only look them up). */
const wireHeaders = new WeakMap<CachedPage, Partial<Record<Coding, WireHeaders>>>();

function representation(page: CachedPage, coding: Coding): WireHeaders {
  let byCoding = wireHeaders.get(page);
  if (!byCoding) {
    byCoding = {};
    wireHeaders.set(page, byCoding);
  }
  let headers = byCoding[coding];
  if (!headers) {
    const variant = coding === 'identity' ? undefined : page.encoded?.[coding];
    const body = variant?.body ?? page.body;
    const etag = variant?.etag ?? page.etag;
    const common: OutgoingHttpHeaders = { ...page.headers, etag, 'cache-control': ANONYMOUS_CACHE_CONTROL, vary: ANONYMOUS_VARY };
    const notModified = { ...common };
    delete notModified['content-type'];
    const full: OutgoingHttpHeaders = { ...common, 'content-length': body.length };
    if (variant) full['content-encoding'] = coding;
    headers = { body, etag, full, notModified };
    byCoding[coding] = headers;
  }
  return headers;
}

/**
 * Sends a page kept for anonymous readers (cached, or just rendered): its status, headers and
 * the body in the coding the client's Accept-Encoding picks (br, gzip, else identity), with that
 * representation's ETag, `Vary: Accept-Encoding, Cookie` and `public, max-age=0, must-revalidate`;
 * 304 without a body when the client's If-None-Match names that ETag. HEAD gets the headers only.
 */
export function writeCachedPage(req: IncomingMessage, res: ServerResponse, page: CachedPage): void {
  const sent = representation(page, negotiateCoding(req.headers['accept-encoding']));
  markCompressedByApp(res);
  if (page.status === 200 && matchesIfNoneMatch(req.headers['if-none-match'], sent.etag)) {
    res.removeHeader('content-type');
    res.writeHead(304, sent.notModified);
    res.end();
    return;
  }
  res.writeHead(page.status, sent.full);
  res.end(req.method === 'HEAD' ? undefined : sent.body);
}
