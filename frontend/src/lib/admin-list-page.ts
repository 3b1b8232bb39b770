/**
 * The prologue the back-office list screens with a server-read first page share (/admin/posts,
 * /admin/tags, /admin/comments, /admin/users): the admin guard with the screen's 'Access Denied' view, the `?page=` convention,
 * the list read from the address, a page past the end sent to the last page (302), 503 when the
 * API could not answer, and the `?notice=` a create or an update comes back with.
 */
import type { ApiClient } from './api/client';
import { adminScreen, requireRole, type PageAccess } from './page-access';
import { pageRedirect } from './paging';
import { loadFailureStatus, type Loaded } from './settle';
import type { SessionUser } from './session';

interface AdminListContext {
  url: URL;
  request: Request;
  locals: { api: ApiClient; user?: SessionUser };
  response: { status?: number };
  redirect: (path: string, status?: 301 | 302 | 303 | 307 | 308) => Response;
}

/** A list screen's own parts: its title, how its query is read from and written to the address, and its read. */
export interface AdminListScreen<Q extends { page: number }, T extends { totalPages: number }> {
  title: string;
  queryFrom: (params: URLSearchParams) => Q;
  listHref: (query: Q) => string;
  read: (api: ApiClient, query: Q) => Promise<Loaded<T>>;
  /** An address the screen hands on to another page before reading (the users list's `?userId=`). */
  handOff?: (params: URLSearchParams) => string | undefined;
}

export async function adminListPage<Q extends { page: number }, T extends { totalPages: number }>(
  Astro: AdminListContext,
  screen: AdminListScreen<Q, T>,
) {
  const access: PageAccess | Response = requireRole(Astro, adminScreen(screen.title));
  if (access instanceof Response) return access;
  const unpaged = pageRedirect(Astro);
  if (unpaged) return unpaged;
  const query = screen.queryFrom(Astro.url.searchParams);
  const handedOff = access.allowed ? screen.handOff?.(Astro.url.searchParams) : undefined;
  if (handedOff) return Astro.redirect(handedOff, 302);
  const list = access.allowed ? await screen.read(Astro.locals.api, query) : undefined;
  // A page past the end (an old link, a typed number) shows the last page instead.
  if (list?.ok && list.data.totalPages > 0 && query.page >= list.data.totalPages) {
    return Astro.redirect(screen.listHref({ ...query, page: list.data.totalPages - 1 }), 302);
  }
  if (list && !list.ok) Astro.response.status = loadFailureStatus(list.error);
  const rawNotice = Astro.url.searchParams.get('notice');
  const notice: 'created' | 'updated' | undefined = rawNotice === 'created' || rawNotice === 'updated' ? rawNotice : undefined;
  return { access, query, list, notice };
}
