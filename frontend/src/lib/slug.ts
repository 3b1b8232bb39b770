/**
 * Slugs on the frontend (spec 001 §5 'Slug derivation'), the one copy the post editor, the tag
 * editor and the public pages use. The same steps as the server's `slugify`
 * (backend/src/common/validation/slug.ts; tests/editor-helpers.spec.ts compares the two):
 * lower-case, accents removed (NFD + combining marks dropped, Vietnamese đ/Đ → d), only a-z, 0-9
 * and hyphens, spaces and underscores become hyphens, repeated hyphens collapsed, edge hyphens
 * trimmed; cut to the length limit without a trailing hyphen.
 */

/** Post slugs: at most 200 characters. */
export const SLUG_MAX_LENGTH = 200;
/** Tag slugs: 2-100 characters (spec 001 §5 Tag). */
export const TAG_SLUG_MAX_LENGTH = 100;

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
 * The slug after the title (or a tag's name) changes from `oldTitle` to `newTitle` (spec 001 §2):
 * it follows only while it is empty or still the old title's slug; a slug the writer typed stays.
 */
export function slugAfterTitleChange(slug: string, oldTitle: string, newTitle: string, maxLength = SLUG_MAX_LENGTH): string {
  return slug.trim() === '' || slug === slugify(oldTitle, maxLength) ? slugify(newTitle, maxLength) : slug;
}
