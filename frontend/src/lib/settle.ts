import type { ApiError } from './api/errors';

/** A page's data load (see public-content.ts): the data, or the ApiError that stopped it (rendered as an error state). */
export type Loaded<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/** The request's address, for Try Again links (a plain reload that works without JavaScript). */
export function retryHref(url: URL): string {
  return url.pathname + url.search;
}
