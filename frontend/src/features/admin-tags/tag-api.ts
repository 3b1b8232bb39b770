/**
 * The tag calls of docs/requirements.md#api-tags ('Tags') from the browser, through the session's client: the
 * list, create, update, activate, deactivate and delete.
 */
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { fetchTagList, type AdminTag, type TagListPage, type TagListQuery, type tagPayload } from './admin-tags';

type TagBody = ReturnType<typeof tagPayload>;

export function listTags(query: TagListQuery): Promise<TagListPage> {
  return fetchTagList(browserApi(), query);
}

/** POST /blog/tags. */
export async function createTag(body: TagBody): Promise<AdminTag> {
  return unwrap(browserApi().POST('/api/v1/blog/tags', { body }));
}

/** PUT /blog/tags/{id}. */
export async function updateTag(id: number, body: TagBody): Promise<AdminTag> {
  return unwrap(browserApi().PUT('/api/v1/blog/tags/{id}', { params: { path: { id } }, body }));
}

/** POST /blog/tags/{id}/activate or DELETE /blog/tags/{id}/deactivate. */
export async function setTagActive(id: number, active: boolean): Promise<AdminTag> {
  const api = browserApi();
  const call = active
    ? api.POST('/api/v1/blog/tags/{id}/activate', { params: { path: { id } } })
    : api.DELETE('/api/v1/blog/tags/{id}/deactivate', { params: { path: { id } } });
  return unwrap(call);
}

/** DELETE /blog/tags/{id} (204); 409 when the tag is active and used by posts. */
export async function deleteTag(id: number): Promise<void> {
  await unwrap(browserApi().DELETE('/api/v1/blog/tags/{id}', { params: { path: { id } } }));
}
