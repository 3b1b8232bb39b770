/**
 * Formatters of the public reading pages (docs/requirements.md#post-card, docs/requirements.md#reading-time): card read time from the summary, '99+' like counts, title-cased slugs.
 */
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../../../isomorphic/slug';

/** Card read time: summary length divided by 200, rounded up (docs/requirements.md#reading-time), at least 1 minute. */
export function cardReadingTime(summary: string | null | undefined): number {
  return Math.max(1, Math.ceil((summary ?? '').length / 200));
}

/** Post reading time: words divided by 200, rounded up, at least 1 minute. */
export function readingTimeOf(text: string | null | undefined): number {
  const words = (text ?? '').trim().split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.ceil(words / 200));
}

/** Like counts on small screens: above 99 shows '99+'. */
export function compactCount(count: number | null | undefined): string {
  const value = count ?? 0;
  return value > 99 ? '99+' : String(value);
}

const VI_NUMBER = new Intl.NumberFormat('vi-VN');

/** Thousands separated the Vietnamese way ('12.345'). */
export function formatCount(count: number | null | undefined): string {
  return VI_NUMBER.format(count ?? 0);
}

/** 'web-development' → 'Web Development'. */
export function titleCaseSlug(slug: string): string {
  return slug
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}

/** Post slugs: lowercase letters, digits and hyphens (docs/requirements.md#validation-comment), at most 200 characters. */
export function isValidSlug(slug: string | undefined): slug is string {
  return !!slug && slug.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(slug);
}
