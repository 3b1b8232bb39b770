/**
 * The per-user fragment of a public page view (shared/public-pages.ts): its address
 * and the signed-in hint cookie that makes a page ask for it. No imports, and no other browser
 * code imports it: the page's small script (frontend/src/components/PersonalParts.astro) bundles it
 * alone, so Astro inlines that script (no extra request).
 */

/**
 * The fragment (frontend/src/pages/fragments/session.astro): `GET /fragments/session?path=<the
 * page's path>&parts=<names>`, `private, no-store`, 204 without a session. Not an API path and not
 * a public page.
 */
export const PERSONAL_FRAGMENT_PATH = '/fragments/session';

/**
 * Readable by the page's scripts (not httpOnly), set and cleared with the session cookies
 * (backend/src/auth/auth.cookies.ts): '1' says "a session exists, fetch the fragment". It carries
 * nothing personal, and it is only a hint: the fragment checks the session itself. The no-flash
 * script (frontend/src/lib/theme-script.mjs) turns it into <html data-signed-in> before first paint,
 * which is what the page's scripts read.
 */
export const SIGNED_IN_HINT_COOKIE = 'inkwell_signed_in';
