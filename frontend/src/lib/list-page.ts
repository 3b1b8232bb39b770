/**
 * The prologue and the load outcome every signed-in reader list shares (/liked-posts,
 * /my-comments, /notifications), so the guard, the `?page=` convention and the failure status
 * are written once and stay the same on all of them.
 */
import type { ApiError } from './api/errors';
import { requireRole, SIGNED_IN } from './page-access';
import { pageIndex, pageRedirect, pastLastPage } from './paging';
import { loadFailureStatus } from './settle';
import type { SessionUser } from './session';

interface ListPageContext {
  url: URL;
  request: Request;
  locals: { user?: SessionUser };
  response: { status?: number };
  redirect: (path: string, status?: 301 | 302 | 303 | 307 | 308) => Response;
}

/** The visitor and the 0-based page of a signed-in list, or the redirect to return (login, `?page=` spelling). */
export function signedInListPage(Astro: ListPageContext): { user: SessionUser; url: URL; page: number } | Response {
  const access = requireRole(Astro, SIGNED_IN);
  if (access instanceof Response) return access;
  const unpaged = pageRedirect(Astro);
  if (unpaged) return unpaged;
  return { user: access.user, url: Astro.url, page: pageIndex(Astro.url.searchParams) };
}

/**
 * After the list is read: the 302 to the last page when `page` is past it, else undefined, having
 * set 503 when the API could not answer (other failures render the page's own error state).
 */
export function settleListPage(
  Astro: ListPageContext,
  page: number,
  list: { ok: true; data: { totalPages: number } } | { ok: false; error: ApiError },
): Response | undefined {
  const lastPage = pastLastPage(Astro.url, page, list);
  if (lastPage) return Astro.redirect(lastPage, 302);
  if (!list.ok) Astro.response.status = loadFailureStatus(list.error);
  return undefined;
}
