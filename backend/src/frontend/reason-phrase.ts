import { STATUS_CODES, type OutgoingHttpHeader, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';

/** The reason phrase HTTP gives a status code: 404 → 'Not Found', 503 → 'Service Unavailable'. */
export function reasonPhraseOf(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown';
}

type WriteHead = (
  status: number,
  reasonOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
  headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
) => ServerResponse;

/**
 * Makes the status line of this response carry its status's own reason phrase, whoever writes
 * the head. Astro's node adapter copies the page's Response.statusText into res.statusMessage
 * before writeHead, and a page that only sets `Astro.response.status = 404` keeps the default
 * statusText 'OK': the 404 page went out as `HTTP/1.1 404 OK` (503 OK, ...). Its own error path
 * says `500 Server error`. Node writes the head through writeHead in every case (explicitly, or
 * from write()/end() via _implicitHeader), so wrapping it here also covers the page cache's
 * replies (304 after a 200 rendering) and other middleware that wrap writeHead later.
 */
export function useStandardReasonPhrase(res: ServerResponse): void {
  const writeHead = res.writeHead as WriteHead;
  (res as { writeHead: WriteHead }).writeHead = function (this: ServerResponse, status, reasonOrHeaders, headers) {
    const reason = reasonPhraseOf(status);
    this.statusMessage = reason;
    return typeof reasonOrHeaders === 'string'
      ? writeHead.call(this, status, reason, headers)
      : writeHead.call(this, status, reasonOrHeaders);
  };
}
