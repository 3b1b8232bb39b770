/**
 * Responsive post thumbnails. POST /images/thumbnail/upload stores `<key>-<W>x<H>.webp` (the
 * full-size image, at most 2048 px) and beside it `<key>-400w.webp`, `-800w`, `-1600w`: only the
 * widths narrower than the image (never upscaled). So the srcset, and the width/height that keep
 * the layout from shifting, follow from the URL alone. Any other URL (an external image, an older
 * thumbnail) gets just `src`.
 *
 * The API writes exactly THUMBNAIL_VARIANT_WIDTHS (backend/src/images/image-rules.ts uses this
 * file; backend/test/images.e2e-spec.ts checks that the srcset names exactly the files an upload wrote).
 */

export const THUMBNAIL_VARIANT_WIDTHS = [400, 800, 1600] as const;

const STORED_THUMBNAIL = /^((?:https?:\/\/[^/?#\s]+)?\/images\/thumbnails\/)([0-9a-f]{32})-([1-9][0-9]{0,3})x([1-9][0-9]{0,3})\.webp$/;

/**
 * Where the image is shown, which decides `sizes` (the rendered width per viewport; the page
 * container is max-w-6xl with 1rem padding, the article max-w-3xl):
 * - `card`: a card in a grid of up to 3 columns (2 from 768 px, 3 from 1024 px)
 * - `card-2`: a grid of two cards; `card-1`: a single card across the container
 * - `featured`: the featured post (image on the left half from 768 px)
 * - `post`: the post page's featured image, the article's width
 */
export type ThumbnailLayout = 'card' | 'card-2' | 'card-1' | 'featured' | 'post';

export const THUMBNAIL_SIZES: Record<ThumbnailLayout, string> = {
  card: '(min-width: 1024px) 360px, (min-width: 768px) calc(50vw - 1.75rem), calc(100vw - 2rem)',
  'card-2': '(min-width: 1152px) 548px, (min-width: 768px) calc(50vw - 1.75rem), calc(100vw - 2rem)',
  'card-1': '(min-width: 1152px) 1120px, calc(100vw - 2rem)',
  featured: '(min-width: 1152px) 560px, (min-width: 768px) calc(50vw - 1rem), calc(100vw - 2rem)',
  post: '(min-width: 800px) 736px, calc(100vw - 2rem)',
};

export interface ThumbnailImage {
  src: string;
  /** Absent for URLs that are not stored thumbnails. */
  srcset?: string;
  sizes?: string;
  /** The full-size image's pixels (from its name); absent for other URLs. */
  width?: number;
  height?: number;
}

/** The img attributes for a thumbnail URL in the given layout. Pure: no I/O. */
export function thumbnailSrcset(url: string, layout: ThumbnailLayout = 'card'): ThumbnailImage {
  const match = STORED_THUMBNAIL.exec(url);
  if (!match) return { src: url };
  const [, prefix, key, w, h] = match;
  const width = Number(w);
  const height = Number(h);
  const candidates = THUMBNAIL_VARIANT_WIDTHS.filter((variant) => variant < width).map(
    (variant) => `${prefix}${key}-${variant}w.webp ${variant}w`,
  );
  candidates.push(`${url} ${width}w`);
  return { src: url, srcset: candidates.join(', '), sizes: THUMBNAIL_SIZES[layout], width, height };
}

/** The card layout for a grid of `count` cards (PostGrid: 1, 2 or 3 columns). */
export function cardLayoutFor(count: number): ThumbnailLayout {
  return count >= 3 ? 'card' : count === 2 ? 'card-2' : 'card-1';
}

/** How wide a social card's image should be at least (Open Graph and X recommend 1200 px). */
export const SOCIAL_IMAGE_WIDTH = 1200;

/**
 * The image a social card shows for a thumbnail: the narrowest stored variant at least 1200 px
 * wide (uploads keep 400, 800 and 1600 px variants, no 1200 one: so the 1600 px variant when the
 * image is wider than that), else the full-size image (it is no wider than 1600 px). Any other
 * URL is used as it is. Pure: no I/O.
 */
export function socialImageOfThumbnail(url: string): string {
  const match = STORED_THUMBNAIL.exec(url);
  if (!match) return url;
  const [, prefix, key, w] = match;
  const variant = THUMBNAIL_VARIANT_WIDTHS.find((width) => width >= SOCIAL_IMAGE_WIDTH && width < Number(w));
  return variant ? `${prefix}${key}-${variant}w.webp` : url;
}
