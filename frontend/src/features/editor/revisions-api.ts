/**
 * The History panel's and the edit-conflict dialog's calls:
 * a post's revisions (paged, newest first), one revision, the word-level comparison the server
 * makes with jsdiff, the restore, and the post as saved now (for 'keep theirs').
 */
import { browserApi } from '../../lib/api/client';
import { unwrap, unwrapWithMessage } from '../../lib/api/errors';
import type { components } from '@inkwell/client/schema';
import type { PostResponse } from './editor-form';

export type RevisionSummary = components['schemas']['RevisionSummaryDto'];
export type Revision = components['schemas']['RevisionDto'];
export type RevisionDiff = components['schemas']['RevisionDiffDto'];
export type DiffPart = components['schemas']['DiffPartDto'];

/** Revisions per page of the panel. */
export const REVISIONS_PAGE_SIZE = 10;

/** GET /blog/posts/{id}/revisions?page&size. */
export async function listRevisions(postId: number, page: number) {
  return unwrap(
    browserApi().GET('/api/v1/blog/posts/{id}/revisions', { params: { path: { id: postId }, query: { page, size: REVISIONS_PAGE_SIZE } } }),
  );
}

/** GET /blog/posts/{id}/revisions/{revisionId}. */
export async function getRevision(postId: number, revisionId: number): Promise<Revision> {
  return unwrap(browserApi().GET('/api/v1/blog/posts/{id}/revisions/{revisionId}', { params: { path: { id: postId, revisionId } } }));
}

/** GET /blog/posts/{id}/revisions/compare?from (to omitted: the post as saved now). */
export async function compareRevision(postId: number, from: number): Promise<RevisionDiff> {
  return unwrap(browserApi().GET('/api/v1/blog/posts/{id}/revisions/compare', { params: { path: { id: postId }, query: { from } } }));
}

/** POST /blog/posts/{id}/revisions/{revisionId}/restore {version}: the post as restored, with its new version. */
export async function restoreRevision(
  postId: number,
  revisionId: number,
  version: number,
): Promise<{ post: PostResponse; message: string | undefined }> {
  const { data, message } = await unwrapWithMessage(
    browserApi().POST('/api/v1/blog/posts/{id}/revisions/{revisionId}/restore', {
      params: { path: { id: postId, revisionId } },
      body: { version },
    }),
  );
  return { post: data, message };
}

/** GET /blog/posts/{id}: the post as saved now. */
export async function currentPost(postId: number): Promise<PostResponse> {
  return unwrap(browserApi().GET('/api/v1/blog/posts/{id}', { params: { path: { id: postId } } }));
}
