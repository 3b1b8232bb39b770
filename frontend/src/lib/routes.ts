/**
 * Paths the spec answers with the 'Page Under Development' notice (spec 000 §2):
 * exact pages, and whole sections ending in `/*`.
 */
const UNDER_CONSTRUCTION_PAGES = new Set(['/privacy', '/terms', '/contact', '/demo', '/admin/analytics']);
const UNDER_CONSTRUCTION_SECTIONS = ['/reading-list', '/liked', '/bookmarks', '/settings'];

export function isUnderConstruction(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return UNDER_CONSTRUCTION_PAGES.has(path) || UNDER_CONSTRUCTION_SECTIONS.some((section) => path === section || path.startsWith(`${section}/`));
}
