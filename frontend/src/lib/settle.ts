import { ApiError, UNEXPECTED_ERROR, unwrap } from './api/errors';

/** A page's data load: the data, or the ApiError that stopped it (rendered as an error state). */
export type Loaded<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/**
 * The envelope's `data` of a typed-client call's success answer. (Taken from the success member
 * only: the error member's `data?: never` must not widen the result to unknown.)
 */
type DataOf<R> = R extends { data: infer Body } ? (Body extends { data: infer T } ? T : never) : never;

/**
 * Runs a typed-client call through unwrap() without throwing, so a page renders its error state
 * (with the server's message and status) instead of failing with a 500.
 */
export async function load<R extends { data?: unknown; error?: unknown; response: Response }>(call: Promise<R>): Promise<Loaded<DataOf<R>>> {
  try {
    return { ok: true, data: (await unwrap(call)) as DataOf<R> };
  } catch (error) {
    return { ok: false, error: error instanceof ApiError ? error : new ApiError(UNEXPECTED_ERROR, 500) };
  }
}

/** The request's address, for Try Again links (a plain reload that works without JavaScript). */
export function retryHref(url: URL): string {
  return url.pathname + url.search;
}
