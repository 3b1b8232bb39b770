/**
 * The tag calls of spec 001 §7 ('Tags') from the browser, through the session's client: the
 * list, create, update, activate, deactivate and delete.
 */
import { unwrap } from '../../lib/api/errors';
import { fetchTagList, type AdminTag, type TagListPage, type TagListQuery, type tagPayload } from '../../lib/admin-tags';
import { sessionApi } from '../../lib/session-browser';

type TagBody = ReturnType<typeof tagPayload>;

export function listTags(query: TagListQuery): Promise<TagListPage> {
  return fetchTagList(sessionApi(), query);
}

/** POST /blog/tags. */
export async function createTag(body: TagBody): Promise<AdminTag> {
  return unwrap(sessionApi().POST('/api/v1/blog/tags', { body }));
}

/** PUT /blog/tags/{id}. */
export async function updateTag(id: number, body: TagBody): Promise<AdminTag> {
  return unwrap(sessionApi().PUT('/api/v1/blog/tags/{id}', { params: { path: { id } }, body }));
}

/** POST /blog/tags/{id}/activate or DELETE /blog/tags/{id}/deactivate. */
export async function setTagActive(id: number, active: boolean): Promise<AdminTag> {
  const api = sessionApi();
  const call = active
    ? api.POST('/api/v1/blog/tags/{id}/activate', { params: { path: { id } } })
    : api.DELETE('/api/v1/blog/tags/{id}/deactivate', { params: { path: { id } } });
  return unwrap(call);
}

/** DELETE /blog/tags/{id} (204); 409 when the tag is active and used by posts. */
export async function deleteTag(id: number): Promise<void> {
  await unwrap(sessionApi().DELETE('/api/v1/blog/tags/{id}', { params: { path: { id } } }));
}
