import { parse, stringify } from 'yaml';

/**
 * A post as a Markdown file with YAML front matter: the form of a post in a user's data export
 * and in the site export (one writer, one reader, so a round trip loses nothing). The body is the
 * post's own Markdown, unchanged.
 */
export interface PostFrontMatter {
  title: string;
  slug: string;
  status: string;
  summary?: string | null;
  author?: string | null;
  tags?: string[];
  featured?: boolean;
  thumbnail?: string | null;
  createdAt?: string | null;
  updatedAt?: string | null;
  publishedAt?: string | null;
  metaTitle?: string | null;
  metaDescription?: string | null;
  canonicalUrl?: string | null;
}

const FENCE = '---';

/** Front matter (absent and null fields left out) then the body. */
export function postToMarkdown(front: PostFrontMatter, body: string): string {
  const kept = Object.fromEntries(Object.entries(front).filter(([, value]) => value !== undefined && value !== null));
  return `${FENCE}\n${stringify(kept, { lineWidth: 0 })}${FENCE}\n\n${body}${body.endsWith('\n') ? '' : '\n'}`;
}

/** Reads what `postToMarkdown` wrote (or any file with YAML front matter); throws on a file without it. */
export function markdownToPost(text: string): { front: PostFrontMatter; body: string } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalized.startsWith(`${FENCE}\n`)) throw new Error('no front matter');
  const end = normalized.indexOf(`\n${FENCE}\n`, FENCE.length);
  if (end < 0) throw new Error('unterminated front matter');
  const front = parse(normalized.slice(FENCE.length + 1, end + 1)) as PostFrontMatter | null;
  if (!front || typeof front.title !== 'string' || typeof front.slug !== 'string') throw new Error('front matter without title and slug');
  const body = normalized.slice(end + FENCE.length + 2).replace(/^\n/, '');
  return { front, body: body.endsWith('\n') ? body.slice(0, -1) : body };
}
