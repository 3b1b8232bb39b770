/**
 * The site-wide settings admins choose on /admin/settings, with their defaults. One list: the
 * service reads and writes only these keys, the admin DTO validates these values, and a missing
 * row means the default here (so a new setting needs no migration).
 */
export const ERASED_AUTHOR_POSTS = ['reassign', 'delete'] as const;
export type ErasedAuthorPosts = (typeof ERASED_AUTHOR_POSTS)[number];

export interface SiteSettings {
  /** Administrators without two-factor sign-in set it up at their next sign-in, before /admin. */
  requireAdminTwoFactor: boolean;
  /** What erasing an author's account does to their published posts: given to the 'Former author' placeholder, or deleted. */
  erasedAuthorPosts: ErasedAuthorPosts;
}

export const SITE_SETTING_DEFAULTS: Readonly<SiteSettings> = Object.freeze({
  requireAdminTwoFactor: false,
  erasedAuthorPosts: 'reassign',
});

export type SiteSettingKey = keyof SiteSettings;
export const SITE_SETTING_KEYS = Object.keys(SITE_SETTING_DEFAULTS) as SiteSettingKey[];
