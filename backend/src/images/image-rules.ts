import { THUMBNAIL_VARIANT_WIDTHS } from '../../../isomorphic/thumbnail-srcset';
import { ImagesMessages } from './images.messages';

/** The spec's thumbnail limits (docs/requirements.md#constants-images): what GET /images/upload-info answers. */
export const MAX_IMAGE_BYTES = 10_485_760;
export const ALLOWED_FORMATS = ['jpeg', 'jpg', 'png', 'webp', 'gif'] as const;
export const RECOMMENDED_DIMENSIONS = { width: 800, height: 400 } as const;
export const MAX_DIMENSIONS = { width: 2048, height: 2048 } as const;
/** Width and height ratios to 800x400 must each lie in 0.5–3 (else 400); more than 30 % off warns. */
export const MIN_RATIO = 0.5;
export const MAX_RATIO = 3;
/** Percent off 800x400 (either side) beyond which a valid image gets the warning. */
export const WARN_DEVIATION_PERCENT = 30;
/** Decoding stops at this many pixels (the largest thumbnail allowed): decompression bombs fail fast. */
export const MAX_THUMBNAIL_PIXELS = MAX_DIMENSIONS.width * MAX_DIMENSIONS.height;

/**
 * Responsive widths stored beside each thumbnail; only the ones narrower than the image exist
 * (never upscaled). The pages' srcset reads the same list (isomorphic/thumbnail-srcset.ts).
 */
export const VARIANT_WIDTHS = THUMBNAIL_VARIANT_WIDTHS;

export interface DimensionVerdict {
  errors: string[];
  warnings: string[];
}

/** The dimension rules of docs/requirements.md#decision-images against 800x400 (docs/requirements.md#validation-image-upload). */
export function checkThumbnailDimensions(width: number, height: number): DimensionVerdict {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (width > MAX_DIMENSIONS.width || height > MAX_DIMENSIONS.height) errors.push(ImagesMessages.dimensionsTooLarge(width, height));
  const { width: rw, height: rh } = RECOMMENDED_DIMENSIONS;
  const within = (value: number, recommended: number) => value >= MIN_RATIO * recommended && value <= MAX_RATIO * recommended;
  if (!within(width, rw) || !within(height, rh)) errors.push(ImagesMessages.dimensionsTooDifferent(width, height));
  if (errors.length) return { errors, warnings };
  // Whole numbers: 1040 px is exactly 30 % over 800 (no warning), which floating ratios get wrong.
  const farOff = (value: number, recommended: number) => Math.abs(value - recommended) * 100 > WARN_DEVIATION_PERCENT * recommended;
  if (farOff(width, rw) || farOff(height, rh)) warnings.push(ImagesMessages.DIMENSIONS_WARNING);
  return { errors, warnings };
}

/** The widths of the variants stored for an image `width` pixels wide. */
export function variantWidthsFor(width: number): number[] {
  return VARIANT_WIDTHS.filter((w) => w < width);
}

/**
 * File names. The full-size image is `<key>-<W>x<H>.webp`, each variant `<key>-<w>w.webp`, so a
 * page derives the srcset and the width/height attributes from the URL alone (no database read).
 * `<key>` is 32 random hex digits; nothing else is ever served, read or deleted.
 */
export const THUMBNAIL_NAME = /^([0-9a-f]{32})-([1-9][0-9]{0,3})x([1-9][0-9]{0,3})\.webp$/;
export const VARIANT_NAME = /^([0-9a-f]{32})-([1-9][0-9]{0,3})w\.webp$/;

export const thumbnailFileName = (key: string, width: number, height: number) => `${key}-${width}x${height}.webp`;
export const variantFileName = (key: string, width: number) => `${key}-${width}w.webp`;

/** Key and size of a full-size thumbnail name, or undefined for anything else. */
export function parseThumbnailName(name: string): { key: string; width: number; height: number } | undefined {
  const match = THUMBNAIL_NAME.exec(name);
  return match ? { key: match[1], width: Number(match[2]), height: Number(match[3]) } : undefined;
}

/** The key of any stored thumbnail file (full size or variant). */
export function keyOfThumbnailFile(name: string): string | undefined {
  return (THUMBNAIL_NAME.exec(name) ?? VARIANT_NAME.exec(name))?.[1];
}

/** Every file of one thumbnail: the full-size name and its variants. */
export function thumbnailFiles(name: string, variantWidths: readonly number[]): string[] {
  const parsed = parseThumbnailName(name);
  return parsed ? [name, ...variantWidths.map((w) => variantFileName(parsed.key, w))] : [];
}
