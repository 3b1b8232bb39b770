/**
 * Spec 001 §5 slug derivation, the same steps as the server's `slugify`
 * (backend/src/common/validation/slug.ts): lower-case, accents removed (NFD + combining marks
 * dropped, Vietnamese đ/Đ → d), only a-z, 0-9 and hyphens, spaces become hyphens, repeated
 * hyphens collapsed, edge hyphens trimmed; at most 200 characters.
 */
export const SLUG_MAX_LENGTH = 200;

/** A whole slug as the server accepts it: lowercase letters and digits, single hyphens between them. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function slugify(text: string, maxLength = SLUG_MAX_LENGTH): string {
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

/**
 * The slug after the title changes from `oldTitle` to `newTitle` (spec 001 §2): it follows the
 * title only while it is empty or still the old title's slug; a slug the writer typed stays.
 */
export function slugAfterTitleChange(slug: string, oldTitle: string, newTitle: string): string {
  return slug.trim() === '' || slug === slugify(oldTitle) ? slugify(newTitle) : slug;
}
