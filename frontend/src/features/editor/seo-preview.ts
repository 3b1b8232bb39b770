/** The SEO section's previews, pure: text cut the way a search result cuts it. */

/** Cut like a search engine: whitespace folded, at a word within `limit` characters, with an ellipsis. */
export function truncateForSearch(text: string, limit: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const chars = [...clean];
  if (chars.length <= limit) return clean;
  const cut = chars.slice(0, limit).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > limit * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Markdown's text without its marks, for a description when the post has no excerpt. */
export const markdownText = (markdown: string): string =>
  markdown
    .replace(/[#>*_`~[\]()!|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
