/**
 * How a former site's path is stored and looked up (post_path_redirects): percent-decoded, without
 * repeated slashes or a trailing slash, case kept (WordPress slugs are lower-case; an encoded Vietnamese slug decodes
 * to its letters). Null for what cannot be a path.
 */
export function oldPathKey(path: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  // One slash between segments (a former link written `https://site//page/` had two).
  const trimmed = decoded.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  if (!trimmed.startsWith('/') || trimmed.length > 300 || trimmed.length < 2) return null;
  return trimmed;
}

/**
 * The permalink paths a WordPress post had under the common structures: /YYYY/MM/DD/slug/ and
 * /YYYY/MM/slug/ (by its local post date), and the path of its own link when it is another one.
 */
export function wordpressPaths(slug: string, localDate: string | null, link: string | null): string[] {
  const paths: string[] = [];
  const match = localDate ? /^(\d{4})-(\d{2})-(\d{2})/.exec(localDate) : null;
  if (match && slug) {
    const [, year, month, day] = match;
    paths.push(`/${year}/${month}/${day}/${slug}`, `/${year}/${month}/${slug}`);
  }
  if (link) {
    try {
      const pathname = new URL(link).pathname;
      if (pathname.length > 1 && !pathname.startsWith('/?')) paths.push(pathname);
    } catch {
      // A link that is not a URL adds nothing.
    }
  }
  return paths;
}
