import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { ImagesMessages } from './images.messages';
import { checkThumbnailDimensions, MAX_IMAGE_BYTES, MAX_THUMBNAIL_PIXELS, variantWidthsFor } from './image-rules';
import type { UploadedImage } from './upload-receiver';

/** WebP quality of every stored image (docs/requirements.md#constants-images 'Default optimised image quality'). */
export const WEBP_QUALITY = 80;

export type ThumbnailFormat = 'jpeg' | 'png' | 'gif' | 'webp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The format the bytes say they are (magic numbers), never the client's name or MIME type:
 * JPEG `FF D8 FF`, PNG's 8-byte signature, `GIF87a`/`GIF89a`, `RIFF....WEBP`. SVG, HTML, PDF and
 * everything else is undefined.
 */
export function sniffImageFormat(bytes: Buffer): ThumbnailFormat | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return 'gif';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

export interface ImageFacts {
  format: ThumbnailFormat;
  /** As displayed (EXIF orientation applied). */
  width: number;
  height: number;
  size: number;
  animated: boolean;
}

/** A refused image: every reason, the first one first (the envelope's message). */
export class ImageRejectedError extends Error {
  constructor(readonly reasons: string[]) {
    super(reasons[0]);
  }
}

export interface ThumbnailVerdict {
  facts: ImageFacts;
  warnings: string[];
}

const decoderOptions = { limitInputPixels: MAX_THUMBNAIL_PIXELS, failOn: 'error' as const };

/** The first bytes of a file (its magic number). */
async function headOf(path: string, length = 12): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(length);
    const { bytesRead } = await file.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * Every check of a thumbnail that needs no decoding: present, non-empty, at most 10 MB, JPEG/PNG/
 * WebP/GIF by its bytes (and sharp's header reading agrees), dimensions against 800x400 and the
 * 2048x2048 maximum. Throws ImageRejectedError with the spec's texts.
 */
export async function examineThumbnail(file: UploadedImage | undefined): Promise<ThumbnailVerdict> {
  if (!file) throw new ImageRejectedError([ImagesMessages.FILE_REQUIRED]);
  if (file.size === 0) throw new ImageRejectedError([ImagesMessages.FILE_EMPTY]);
  if (file.size > MAX_IMAGE_BYTES) throw new ImageRejectedError([ImagesMessages.fileTooLarge(file.size)]);
  const format = sniffImageFormat(await headOf(file.path));
  if (!format) throw new ImageRejectedError([ImagesMessages.FILE_TYPE]);
  let meta: sharp.Metadata;
  try {
    // Header only: no pixel limit here, so a 20000x20000 image is measured (and refused for its size) rather than "unreadable".
    meta = await sharp(file.path, { limitInputPixels: false, failOn: 'error' }).metadata();
  } catch {
    throw new ImageRejectedError([ImagesMessages.LOAD_FAILED]);
  }
  if (meta.format !== format) throw new ImageRejectedError([ImagesMessages.FILE_TYPE]);
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new ImageRejectedError([ImagesMessages.LOAD_FAILED]);
  const { errors, warnings } = checkThumbnailDimensions(width, height);
  if (errors.length) throw new ImageRejectedError(errors);
  const animated = (meta.pages ?? 1) > 1;
  if (animated) warnings.push(ImagesMessages.ANIMATION_WARNING);
  return { facts: { format, width, height, size: file.size, animated }, warnings };
}

/** Decodes every pixel (of the first frame) once: truncated or corrupt data fails here. */
async function decode(path: string): Promise<{ data: Buffer; info: sharp.OutputInfo }> {
  try {
    return await sharp(path, decoderOptions).rotate().raw().toBuffer({ resolveWithObject: true });
  } catch {
    throw new ImageRejectedError([ImagesMessages.LOAD_FAILED]);
  }
}

/** The full check of POST /images/validate: examineThumbnail, then a complete decode. */
export async function validateThumbnail(file: UploadedImage | undefined): Promise<ThumbnailVerdict> {
  const verdict = await examineThumbnail(file);
  await decode(file!.path);
  return verdict;
}

export interface EncodedThumbnail {
  verdict: ThumbnailVerdict;
  full: Buffer;
  /** Narrower copies, widest last; only widths below the image's own. */
  variants: { width: number; data: Buffer }[];
}

/**
 * Checks, decodes once and re-encodes: the full-size WebP (quality 80, EXIF orientation applied,
 * all metadata stripped) and the responsive variants, never upscaled.
 */
export async function encodeThumbnail(file: UploadedImage | undefined): Promise<EncodedThumbnail> {
  const verdict = await examineThumbnail(file);
  const { data, info } = await decode(file!.path);
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  try {
    const full = await sharp(data, raw).webp({ quality: WEBP_QUALITY }).toBuffer();
    const variants: EncodedThumbnail['variants'] = [];
    for (const width of variantWidthsFor(info.width)) {
      variants.push({
        width,
        data: await sharp(data, raw).resize({ width, withoutEnlargement: true }).webp({ quality: WEBP_QUALITY }).toBuffer(),
      });
    }
    // What was decoded is what is stored: the measured size must be the decoded one.
    return { verdict: { ...verdict, facts: { ...verdict.facts, width: info.width, height: info.height } }, full, variants };
  } catch {
    throw new ImageRejectedError([ImagesMessages.LOAD_FAILED]);
  }
}
