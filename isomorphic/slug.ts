/**
 * Slugs (docs/requirements.md#slugs), the one copy the API's checks and the pages' editors
 * use: lower-case, accents removed (NFD + combining marks dropped, Vietnamese đ/Đ → d), only a-z,
 * 0-9 and hyphens, spaces and underscores become hyphens, repeated hyphens collapsed, edge hyphens
 * trimmed; cut to the length limit without a trailing hyphen.
 */

/** Post slugs: at most 200 characters. */
export const SLUG_MAX_LENGTH = 200;
/** Tag slugs: 2-100 characters (docs/requirements.md#validation-tag). */
export const TAG_SLUG_MAX_LENGTH = 100;

/** The body of a slug: lowercase letters, digits and single hyphens between them, for building larger patterns. */
export const SLUG_BODY = '[a-z0-9]+(?:-[a-z0-9]+)*';
/** A whole slug (posts, tags). */
export const SLUG_PATTERN = new RegExp(`^${SLUG_BODY}$`);
/** What the spec's check accepts: only lowercase letters, digits and hyphens. */
export const SLUG_CHARS = /^[a-z0-9-]+$/;

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
 * The slug after the title (or a tag's name) changes from `oldTitle` to `newTitle` (docs/requirements.md#post-editor):
 * it follows only while it is empty or still the old title's slug; a slug the writer typed stays.
 */
export function slugAfterTitleChange(slug: string, oldTitle: string, newTitle: string, maxLength = SLUG_MAX_LENGTH): string {
  return slug.trim() === '' || slug === slugify(oldTitle, maxLength) ? slugify(newTitle, maxLength) : slug;
}
