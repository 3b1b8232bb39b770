/** The links panel's API calls (browser). */
import type { components } from '@inkwell/client/schema';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';

export type PreviewLink = components['schemas']['PreviewLinkDto'];

export const createPreviewLink = (postId: number): Promise<PreviewLink> =>
  unwrap(browserApi().POST('/api/v1/blog/posts/{id}/preview-links', { params: { path: { id: postId } } }));

export const listPreviewLinks = (postId: number): Promise<PreviewLink[]> =>
  unwrap(browserApi().GET('/api/v1/blog/posts/{id}/preview-links', { params: { path: { id: postId } } }));

export async function revokePreviewLink(postId: number, linkId: number): Promise<void> {
  await unwrap(browserApi().DELETE('/api/v1/blog/posts/{id}/preview-links/{linkId}', { params: { path: { id: postId, linkId } } }));
}
