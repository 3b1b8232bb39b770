/**
 * The prologue the back-office pages about one record share (/admin/posts/{id}/edit and
 * /preview, /admin/tags/{id}/edit and /posts): the admin guard with the screen's 'Access Denied'
 * view, the `?page=` convention where the page is paged, the record of the route's id (a
 * malformed id fails as the API's 404 would, without asking it) and the page's status when it
 * could not be read (404 for an unknown id, 503 when the API could not answer).
 */
import type { ApiClient } from './api/client';
import { ApiError } from './api/errors';
import { adminScreen, requireRole, type PageAccess } from './page-access';
import { pageRedirect } from './paging';
import { recordIdParam } from './route-id';
import { recordLoadFailureStatus, type Loaded } from './settle';
import type { SessionUser } from './session';

interface AdminRecordContext {
  url: URL;
  request: Request;
  params: { id?: string };
  locals: { api: ApiClient; user?: SessionUser };
  response: { status?: number };
  redirect: (path: string, status?: 301 | 302 | 303 | 307 | 308) => Response;
}

export interface AdminRecordScreen<T> {
  /** The screen's title, for its 'Access Denied' view. */
  title: string;
  /** What the record is, as the not-found text names it ('Post', 'Tag'). */
  noun: string;
  read: (api: ApiClient, id: number) => Promise<Loaded<T>>;
  /** The page lists something of the record in pages (`?page=`). */
  paged?: boolean;
}

/** The access and the record (none when the visitor gets the denied view), or the redirect to return. */
export async function adminRecordPage<T>(
  Astro: AdminRecordContext,
  screen: AdminRecordScreen<T>,
): Promise<{ access: PageAccess; record: Loaded<T> | undefined } | Response> {
  const access = requireRole(Astro, adminScreen(screen.title));
  if (access instanceof Response) return access;
  if (screen.paged) {
    const unpaged = pageRedirect(Astro);
    if (unpaged) return unpaged;
  }
  if (!access.allowed) return { access, record: undefined };
  const id = recordIdParam(Astro.params.id);
  const record: Loaded<T> = id
    ? await screen.read(Astro.locals.api, id)
    : { ok: false, error: new ApiError(`${screen.noun} with id ${Astro.params.id} not found`, 404) };
  if (!record.ok) Astro.response.status = recordLoadFailureStatus(record.error);
  return { access, record };
}
