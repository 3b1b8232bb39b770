/**
 * Paths the spec answers with the 'Page Under Development' notice (docs/requirements.md#routes-under-construction):
 * exact pages, and whole sections ending in `/*`.
 */
const UNDER_CONSTRUCTION_PAGES = new Set(['/privacy', '/terms', '/contact', '/demo', '/admin/analytics']);
const UNDER_CONSTRUCTION_SECTIONS = ['/reading-list', '/liked', '/bookmarks', '/settings'];

export function isUnderConstruction(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (
    UNDER_CONSTRUCTION_PAGES.has(path) || UNDER_CONSTRUCTION_SECTIONS.some((section) => path === section || path.startsWith(`${section}/`))
  );
}

/**
 * Which of a navigation's links is the current page: the most specific one whose
 * address is the path or an ancestor of it ('/author/posts/new' → 'New Post', not 'My Posts'
 * too); `exactOnly` links (a dashboard's home) count only on their own page. Undefined: none.
 */
export function currentLink(
  pathname: string,
  hrefs: readonly string[],
  { exactOnly = [] }: { exactOnly?: readonly string[] } = {},
): string | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  let best: string | undefined;
  for (const href of hrefs) {
    const matches = path === href || (!exactOnly.includes(href) && path.startsWith(href === '/' ? '/' : `${href}/`));
    if (matches && (best === undefined || href.length > best.length)) best = href;
  }
  return best;
}

/**
 * Where an administrator whom the site requires to use two-factor sign-in sets it up:
 * the account page, with the set-up opened. The sign-in form and the /admin pages send them there.
 */
export const TWO_FACTOR_SETUP_PATH = '/account?twoFactor=setup';
