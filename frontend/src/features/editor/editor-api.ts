/**
 * The editor's calls (docs/requirements.md#api-accounts): saving (author endpoints, or the admin ones with status),
 * submitting for review, the server's Markdown preview, and the images API at the host root
 * (upload requirements, validation, the thumbnail upload with progress and a 60 s limit, delete).
 * Every call carries the session cookie and X-Request-Timestamp; a 401 waits for the shared
 * token refresh and is tried once more (`browserApi()`, and `upload()` for the multipart calls).
 */
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap, unwrapWithMessage } from '../../lib/api/errors';
import { upload } from '../../lib/api/upload';
import type { components } from '@inkwell/client/schema';
import { CommonTexts } from '../../lib/texts/common';
import { EditorTexts } from './texts';
import type { EditorMode, PostResponse } from './editor-form';
import { DEFAULT_UPLOAD_INFO, UPLOAD_TIMEOUT_MS, uploadInfoFrom, type UploadInfo } from './thumbnail-rules';

type SavePayload = components['schemas']['PostSaveDto'];

export interface Saved {
  post: PostResponse;
  /** The server's notice ('Post saved as a draft...', with any skipped tags). */
  message: string | undefined;
}

/** Author: POST /blog/posts/author/create or PUT /blog/posts/author/{id}. Admin: POST /blog/posts or PUT /blog/posts/{id}. */
export async function savePost(mode: EditorMode, id: number | undefined, body: SavePayload): Promise<Saved> {
  const api = browserApi();
  const call =
    mode === 'author'
      ? id === undefined
        ? api.POST('/api/v1/blog/posts/author/create', { body })
        : api.PUT('/api/v1/blog/posts/author/{id}', { params: { path: { id } }, body })
      : id === undefined
        ? api.POST('/api/v1/blog/posts', { body })
        : api.PUT('/api/v1/blog/posts/{id}', { params: { path: { id } }, body });
  const { data, message } = await unwrapWithMessage(call);
  return { post: data, message };
}

/** POST /blog/posts/author/{id}/submit-for-review: DRAFT or REJECTED → PENDING_REVIEW; with the author's requested publish time (UTC ISO) when given. */
export async function submitForReview(id: number, requestedPublishAt?: string): Promise<Saved> {
  const { data, message } = await unwrapWithMessage(
    browserApi().POST('/api/v1/blog/posts/author/{id}/submit-for-review', {
      params: { path: { id } },
      body: requestedPublishAt ? { requestedPublishAt } : undefined,
    }),
  );
  return { post: data, message };
}

/** The signed-in writer's name (GET /users/profile), for the preview of a post not saved yet. */
export async function fetchOwnName(): Promise<string | undefined> {
  const profile = await unwrap(browserApi().GET('/api/v1/users/profile'));
  return profile?.fullName;
}

export interface RenderedPreview {
  html: string;
  readingTime: number;
  wordCount: number;
}

/** POST /blog/posts/preview {content}: the server's sanitized rendering (the one saving uses). */
export async function renderPreview(content: string, signal?: AbortSignal): Promise<RenderedPreview> {
  return unwrap(browserApi().POST('/api/v1/blog/posts/preview', { body: { content }, signal }));
}

/** GET /images/upload-info; the docs/requirements.md#constants-images defaults when it fails. */
export async function fetchUploadInfo(): Promise<UploadInfo> {
  try {
    return uploadInfoFrom(await unwrap(browserApi().GET('/images/upload-info')));
  } catch {
    return DEFAULT_UPLOAD_INFO;
  }
}

export type ImageCheck = components['schemas']['ImageValidationDto'];

/** POST /images/validate (multipart 'image'): the server's verdict before uploading. */
export async function validateImage(file: File): Promise<ImageCheck> {
  const check = await upload('/images/validate', { image: file });
  if (!check) throw new ApiError(CommonTexts.UNEXPECTED_ERROR, 200);
  return check;
}

/** DELETE /images/{filename} (204): the uploader or an admin; 409 while a post uses it. */
export async function deleteImage(filename: string): Promise<void> {
  await unwrap(browserApi().DELETE('/images/{filename}', { params: { path: { filename } } }));
}

// ---- the upload, with progress ----------------------------------------------------------------

export interface UploadedImage {
  url: string;
  filename: string;
  width: number;
  height: number;
  warnings: string[];
}

/** ThumbnailUploadDto; the spec's client also reads a cdnUrl. */
type UploadAnswer = Partial<components['schemas']['ThumbnailUploadDto']> & { cdnUrl?: string };

function fileNameOf(url: string): string {
  return url.split(/[?#]/)[0].split('/').pop() ?? '';
}

/**
 * POST /images/thumbnail/upload (multipart 'image') with upload progress (0-100) and the 60 s
 * limit; `signal` cancels it. The image URL comes from imageUrl, cdnUrl or url (docs/requirements.md#data-upload-requirements).
 */
export async function uploadThumbnail(file: File, onProgress: (percent: number) => void, signal: AbortSignal): Promise<UploadedImage> {
  const data: UploadAnswer =
    (await upload(
      '/images/thumbnail/upload',
      { image: file },
      { onProgress, signal, timeoutMs: UPLOAD_TIMEOUT_MS, texts: { timeout: EditorTexts.UPLOAD_TIMEOUT } },
    )) ?? {};
  const url = data.imageUrl ?? data.cdnUrl ?? data.url;
  if (typeof url !== 'string' || !url) throw new ApiError(CommonTexts.UNEXPECTED_ERROR, 201);
  return {
    url,
    filename: typeof data.filename === 'string' && data.filename ? data.filename : fileNameOf(url),
    width: Number(data.width) || 0,
    height: Number(data.height) || 0,
    warnings: Array.isArray(data.warnings) ? data.warnings.filter((warning) => typeof warning === 'string') : [],
  };
}
