/**
 * The one `?page=` convention of every paged address (the public lists, the reader's lists, My
 * Posts, the back-office lists, a tag's posts, a user's audit trail): pages are counted from 1,
 * as the pager, its jump box and the spec's 'a jumped page must be between 1 and the total'
 * show them, and the first page has no `page` at all (`/blog`, `/blog?page=2`, `/blog?page=3`).
 * The API counts from 0: pages read `pageIndex` (0-based) and write `pageHref` from a 0-based
 * index. Any other spelling of `page` (0, 1, 007, -1, 1.5, abc, empty, repeated, past 7 digits)
 * is answered by `pageRedirect` with a 301 to the convention's address. Isomorphic (the admin
 * lists' islands read their address with it too). The one writer of `?page` (`writtenPage`) and
 * the one pager window (`pageWindow`) are here; components/islands/Pager.tsx draws the pager.
 */

export const PAGE_PARAM = 'page';

/** A page number as the address writes it: 2 and up, no leading zero, at most 7 digits. */
const WRITTEN_PAGE = /^[1-9]\d{0,6}$/;
/** What is read as a page number (leading zeros and 0 included); anything else is the first page. */
const READABLE_PAGE = /^\d{1,7}$/;

/**
 * The 0-based page of an address's `?page=` (its first value): `page=N` is page N counted from 1;
 * 0 and anything that is not a whole number of at most 7 digits read as the first page (and
 * `pageRedirect` sends such an address to the convention's form).
 */
export function pageIndex(params: URLSearchParams): number {
  const raw = params.get(PAGE_PARAM);
  return raw && READABLE_PAGE.test(raw) ? Math.max(0, Number(raw) - 1) : 0;
}

/** How the 0-based page `index` is written in an address: '2' and up, undefined for the first page (no `page`). */
export function writtenPage(index: number): string | undefined {
  return Number.isInteger(index) && index > 0 ? String(index + 1) : undefined;
}

/** A URL's path and query (no origin, no fragment). */
function pathAndQuery(url: URL): string {
  const search = url.searchParams.toString();
  return `${url.pathname}${search ? `?${search}` : ''}`;
}

/**
 * The address of the 0-based page `index` of `url` (a URL or a path with or without a query):
 * the other query values are kept, `page` is written 1-based, and the first page drops it.
 */
export function pageHref(url: URL | string, index: number): string {
  const next = typeof url === 'string' ? new URL(url, 'http://inkwell.invalid') : new URL(url);
  next.searchParams.delete(PAGE_PARAM);
  const written = writtenPage(index);
  if (written) next.searchParams.set(PAGE_PARAM, written);
  return pathAndQuery(next);
}

/**
 * The address with some query values replaced (undefined removes one). A `page` among them is a
 * 0-based index written as `pageHref` writes it (undefined: the first page).
 */
export function withQuery(url: URL, values: Record<string, string | number | undefined>): string {
  const next = new URL(url);
  for (const [name, value] of Object.entries(values)) {
    if (name === PAGE_PARAM) continue;
    if (value === undefined) next.searchParams.delete(name);
    else next.searchParams.set(name, String(value));
  }
  return PAGE_PARAM in values ? pageHref(next, Number(values[PAGE_PARAM] ?? 0)) : pathAndQuery(next);
}

/** The pager's window: up to `width` page numbers (0-based) around the current one, kept inside 0..totalPages-1. */
export function pageWindow(current: number, totalPages: number, width = 5): number[] {
  if (totalPages <= 0) return [];
  const start = Math.max(0, Math.min(current - Math.floor(width / 2), totalPages - width));
  const end = Math.min(totalPages, start + width);
  return Array.from({ length: end - start }, (_, index) => start + index);
}

/**
 * The last page's address when the 0-based `page` is past the end of a list that has pages (an
 * old link, a typed number), else undefined: the page answers a 302 there (it depends on the data).
 */
export function pastLastPage(
  url: URL | string,
  page: number,
  list: { ok: true; data: { totalPages: number } } | { ok: false } | undefined,
): string | undefined {
  if (!list?.ok || list.data.totalPages <= 0 || page < list.data.totalPages) return undefined;
  return pageHref(url, list.data.totalPages - 1);
}

/**
 * The convention's address of `url` when its `page` is written another way, else undefined:
 * page=1, page=0 and anything unreadable lose `page` (the first page); page=007 becomes page=7;
 * a repeated `page` keeps its first value.
 */
export function conventionalPageAddress(url: URL): string | undefined {
  const values = url.searchParams.getAll(PAGE_PARAM);
  if (values.length === 0) return undefined;
  if (values.length === 1 && WRITTEN_PAGE.test(values[0]) && values[0] !== '1') return undefined;
  return pageHref(url, pageIndex(url.searchParams));
}

/**
 * A paged page's first line: a 301 to the convention's address when the request's `page` is
 * written another way (see `conventionalPageAddress`), else undefined. Permanent because the
 * convention is a fixed property of the addresses (page=1 and no page are the same page for
 * good), so browsers, search engines and the anonymous page cache settle on one address per page;
 * 301 rather than 308 because only GET and HEAD are redirected, where the two are the same.
 */
export function pageRedirect(context: {
  url: URL;
  request: Request;
  redirect: (path: string, status?: 301 | 302 | 303 | 307 | 308) => Response;
}): Response | undefined {
  const method = context.request.method;
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const target = conventionalPageAddress(context.url);
  return target === undefined ? undefined : context.redirect(target, 301);
}

/**
 * A paged page's prologue in one call: the 0-based page, or the 301 (`pageRedirect`) to return.
 *
 *   const page = pagedRequest(Astro);
 *   if (page instanceof Response) return page;
 */
export function pagedRequest(context: Parameters<typeof pageRedirect>[0]): number | Response {
  return pageRedirect(context) ?? pageIndex(context.url.searchParams);
}
