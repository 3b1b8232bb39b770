/** The body of a slug: lowercase letters, digits and single hyphens between them (spec 001 §5), for building larger patterns. */
export const SLUG_BODY = '[a-z0-9]+(?:-[a-z0-9]+)*';
/** A whole slug (posts, tags). */
export const SLUG_PATTERN = new RegExp(`^${SLUG_BODY}$`);
/** What the spec's check accepts: only lowercase letters, digits and hyphens. */
export const SLUG_CHARS = /^[a-z0-9-]+$/;

/**
 * Spec 001 §5 slug derivation: lower-case, accents removed (NFD + combining marks dropped,
 * Vietnamese đ/Đ → d), only a-z, 0-9 and hyphens, spaces become hyphens, repeated hyphens
 * collapsed, edge hyphens trimmed.
 */
export function slugify(text: string, maxLength = 200): string {
  const slug = text
    .replace(/[đĐ]/g, 'd')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return slug.slice(0, maxLength).replace(/-+$/, '');
}
