import type { ApiError } from './api/errors';

/** A page's data load (see public-content.ts): the data, or the ApiError that stopped it (rendered as an error state). */
export type Loaded<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/** The request's address, for Try Again links (a plain reload that works without JavaScript). */
export function retryHref(url: URL): string {
  return url.pathname + url.search;
}

/**
 * A page's HTTP status when its data could not be read: 503 when the API could not answer (down
 * or unreachable), else 200 (the page shows its own error state).
 */
export function loadFailureStatus(error: ApiError): number {
  return error.status >= 500 || error.status === 0 ? 503 : 200;
}

/** The same for a page about one record: an unknown or malformed id is 404. */
export function recordLoadFailureStatus(error: ApiError): number {
  return error.status === 404 || error.status === 400 ? 404 : loadFailureStatus(error);
}
