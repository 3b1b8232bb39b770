/**
 * The thumbnail checks the editor runs before the server's (docs/requirements.md#validation-thumbnail, docs/requirements.md#constants-images): the
 * upload requirements (GET /images/upload-info, with the docs/requirements.md#constants-images defaults when it fails), file type
 * and size, the largest dimensions and the recommended 800x400. Pure.
 */
import { EditorTexts } from './texts';

export interface Dimensions {
  width: number;
  height: number;
}

export interface UploadInfo {
  maxSize: number;
  allowedFormats: string[];
  recommendedDimensions: Dimensions;
  maxDimensions: Dimensions;
}

/** docs/requirements.md#constants-images: 10 MB, jpeg/jpg/png/webp, 800x400 recommended, 2048x2048 at most. */
export const DEFAULT_UPLOAD_INFO: UploadInfo = {
  maxSize: 10_485_760,
  allowedFormats: ['jpeg', 'jpg', 'png', 'webp'],
  recommendedDimensions: { width: 800, height: 400 },
  maxDimensions: { width: 2048, height: 2048 },
};

/** The upload's time limit (docs/requirements.md#constants). */
export const UPLOAD_TIMEOUT_MS = 60_000;

const positive = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

function dimensions(value: unknown, fallback: Dimensions): Dimensions {
  const raw = value as Partial<Dimensions> | null | undefined;
  return raw && positive(raw.width) && positive(raw.height) ? { width: raw.width, height: raw.height } : fallback;
}

/** The server's requirements, each field checked; what is missing or malformed keeps the default. */
export function uploadInfoFrom(raw: unknown): UploadInfo {
  const info = (raw ?? {}) as Record<string, unknown>;
  const formats = Array.isArray(info.allowedFormats)
    ? info.allowedFormats
        .filter((format): format is string => typeof format === 'string' && /^[a-z0-9]+$/i.test(format))
        .map((format) => format.toLowerCase())
    : [];
  return {
    maxSize: positive(info.maxSize) ? info.maxSize : DEFAULT_UPLOAD_INFO.maxSize,
    allowedFormats: formats.length ? formats : DEFAULT_UPLOAD_INFO.allowedFormats,
    recommendedDimensions: dimensions(info.recommendedDimensions, DEFAULT_UPLOAD_INFO.recommendedDimensions),
    maxDimensions: dimensions(info.maxDimensions, DEFAULT_UPLOAD_INFO.maxDimensions),
  };
}

/** '10 MB', '1.5 MB', '820 KB', '12 bytes'. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** The input's accept list: the MIME types and extensions of the allowed formats. */
export function acceptAttribute(info: UploadInfo): string {
  const types = new Set(info.allowedFormats.map((format) => `image/${format === 'jpg' ? 'jpeg' : format}`));
  return [...types, ...info.allowedFormats.map((format) => `.${format}`)].join(',');
}

const JPEG = new Set(['jpeg', 'jpg']);

/** Type (MIME type or, without one, the extension) and size, in that order, in the spec's words; undefined when both pass. */
export function fileProblem(file: { name: string; type: string; size: number }, info: UploadInfo): string | undefined {
  const formats = new Set(info.allowedFormats);
  const mime = /^image\/([a-z0-9.+-]+)$/i.exec(file.type)?.[1]?.toLowerCase();
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  const format = mime ?? (file.type ? undefined : extension);
  const allowed = format && (formats.has(format) || (JPEG.has(format) && [...JPEG].some((name) => formats.has(name))));
  if (!allowed) return EditorTexts.FILE_TYPE;
  if (file.size <= 0) return EditorTexts.FILE_EMPTY;
  if (file.size > info.maxSize) return EditorTexts.fileTooLarge(file.size);
  return undefined;
}

/** Wider or taller than the largest dimensions allowed. */
export function dimensionProblem(size: Dimensions, info: UploadInfo): string | undefined {
  const { width, height } = info.maxDimensions;
  return size.width > width || size.height > height ? EditorTexts.dimensionsTooLarge(size.width, size.height, width, height) : undefined;
}

/** Not exactly the recommended size: the editor asks 'Continue anyway?' before uploading (docs/requirements.md#validation-image-upload). */
export function dimensionMismatch(size: Dimensions, info: UploadInfo): boolean {
  return size.width !== info.recommendedDimensions.width || size.height !== info.recommendedDimensions.height;
}

/** The stored file's name in a thumbnail URL of ours (/images/thumbnails/{name}), for DELETE /images/{filename}; undefined for other URLs. */
export function ownImageFilename(url: string): string | undefined {
  let path: string;
  try {
    const parsed = new URL(url, 'http://same.origin');
    const sameOrigin =
      parsed.origin === 'http://same.origin' || (typeof window !== 'undefined' && parsed.origin === window.location.origin);
    if (!sameOrigin) return undefined;
    path = parsed.pathname;
  } catch {
    return undefined;
  }
  const match = /^\/images\/thumbnails\/([A-Za-z0-9_-]+\.[a-z0-9]+)$/i.exec(path);
  return match?.[1];
}

/**
 * A chosen image that is not uploaded yet: a save uploads it first, so a choice is
 * never dropped. `state`: still being checked; uploading (with its progress); ready (uploads
 * without a question); ask (not the recommended size: 'Continue anyway?' first); failed (the last
 * upload failed: a save tries again, autosave waits); refused (the checks failed: it cannot be
 * uploaded as it is).
 */
export interface PendingImage {
  state: 'checking' | 'uploading' | 'ready' | 'ask' | 'failed' | 'refused';
  progress?: number;
  /**
   * Uploads it (when `ask`, asking 'Continue anyway?' first where the size calls for it) and
   * answers the stored image; rejects with ImageNotUploaded when it is not uploaded.
   */
  upload(options: { ask: boolean }): Promise<{ url: string }>;
}

/** Why a chosen image was not uploaded: `title` and `message` as the save's notice shows them. */
export class ImageNotUploaded extends Error {
  constructor(
    readonly title: string,
    message: string,
  ) {
    super(message);
    this.name = 'ImageNotUploaded';
  }
}
