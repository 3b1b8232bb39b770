/** Texts of /admin/settings (the site-wide settings of backend/src/settings/site-settings.ts). */
export const SiteSettingsTexts = {
  TITLE: 'Site Settings',
  SUBTITLE: 'Rules that apply to the whole site.',
  LOAD_FAILED: 'Failed to load site settings',
  SECURITY: 'Sign-in security',
  REQUIRE_2FA: 'Require 2FA for administrators',
  REQUIRE_2FA_HINT:
    'Administrators without two-factor sign-in must set it up before they can open the admin area (you too, if you have not). Their sign-in sends them to the set-up.',
  ERASED: "Erased authors' posts",
  ERASED_HINT: 'What happens to the published posts of an author whose account is erased.',
  REASSIGN: 'Give their posts to "Former author"',
  DELETE: 'Delete their posts',
  SAVE: 'Save Settings',
  SAVING: 'Saving...',
  SAVE_FAILED: 'Failed to save settings. Please try again.',
} as const;
