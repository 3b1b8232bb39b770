/**
 * The public pages: one HTML for every visitor, so the page cache serves them to
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

export { PERSONAL_FRAGMENT_PATH, SIGNED_IN_HINT_COOKIE } from './personal-fragment';
