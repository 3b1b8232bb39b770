import { ApiError, unwrap, type FetchResult, type Unwrapped } from './api/errors';
import { CommonTexts } from './texts/common';

/** A page's data load: the data, or the ApiError that stopped it (rendered as an error state). */
export type Loaded<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/**
 * One API call of a page, settled: the envelope's data typed by the operation, or the ApiError
 * with the API's status and message. Never throws.
 *
 *   const post = await load(Astro.locals.api.GET('/api/v1/blog/posts/public/{slug}', { params: { path: { slug } } }));
 */
export function load<R extends FetchResult>(call: Promise<R>): Promise<Loaded<Unwrapped<R>>> {
  return settleRead(() => unwrap(call));
}

/** A read of several calls (or one call and some shaping), settled the same way. Never throws. */
export async function settleRead<T>(read: () => Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, data: await read() };
  } catch (error) {
    return { ok: false, error: error instanceof ApiError ? error : new ApiError(CommonTexts.UNEXPECTED_ERROR, 500) };
  }
}

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
