import { ApiError, UNEXPECTED_ERROR } from './api/errors';

/** A page's data load: the data, or the ApiError that stopped it (rendered as an error state). */
export type Loaded<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/** Awaits an unwrap() call without throwing, so a page can render its error state instead of a 500. */
export async function settle<T>(promise: Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, data: await promise };
  } catch (error) {
    return { ok: false, error: error instanceof ApiError ? error : new ApiError(UNEXPECTED_ERROR, 500) };
  }
}

/** The request's address, for Try Again links (a plain reload that works without JavaScript). */
export function retryHref(url: URL): string {
  return url.pathname + url.search;
}
