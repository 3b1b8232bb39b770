/**
 * The public pages (issue 26 §2): one HTML for every visitor, so the page cache serves them to
 * signed-in readers too. Their render reads no session (frontend/src/lib/session-middleware.ts),
 * the page cache keeps them whatever cookies come (backend/src/frontend/page-cache-policy.ts), and
 * what is personal on them comes afterwards from the one per-user fragment, PERSONAL_FRAGMENT_PATH,
 * which the browser fetches only when the SIGNED_IN_HINT_COOKIE says a session exists.
 * Imports only what the frontend bundles too.
 */
import { isSitemapPath } from './sitemap';

/** `/`, `/home`, `/about`, `/authors`, `/search`, `/rss.xml`, `/blog`, `/blog/{slug}`, `/blog/tag/{slug}`, `/tag/{slug}`. */
const PUBLIC_PAGE = /^\/(?:home|about|authors|search|rss\.xml|blog(?:\/[^/]+|\/tag\/[^/]+)?|tag\/[^/]+)?\/?$/;
/** Author pages and feeds (`/authors/{slug}`, `/authors/{slug}/rss.xml`). */
export const AUTHOR_PAGE = /^\/authors\/[^/]+(?:\/rss\.xml)?\/?$/;
/** Tag feeds (`/blog/tag/{slug}/rss.xml`). */
export const TAG_FEED = /^\/blog\/tag\/[^/]+\/rss\.xml$/;

/** Whether a path (no query) is a public page: the same for everyone, kept by the page cache. */
export function isPublicPagePath(path: string): boolean {
  return PUBLIC_PAGE.test(path) || AUTHOR_PAGE.test(path) || TAG_FEED.test(path) || isSitemapPath(path);
}

/**
 * The per-user fragment of a public page view (frontend/src/pages/fragments/session.astro):
 * `GET /fragments/session?path=<the page's path>&parts=<names>`, `private, no-store`, 204 without
 * a session. Not an API path and not a public page.
 */
export const PERSONAL_FRAGMENT_PATH = '/fragments/session';

/**
 * Readable by the page's scripts (not httpOnly), set and cleared with the session cookies
 * (backend/src/auth/auth.cookies.ts): '1' says "a session exists, fetch the fragment". It carries
 * nothing personal, and it is only a hint: the fragment checks the session itself.
 */
export const SIGNED_IN_HINT_COOKIE = 'inkwell_signed_in';
