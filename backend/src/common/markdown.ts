import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { slugify } from '../../../isomorphic/slug';

/**
 * Markdown → sanitized HTML, run once when a post is saved (docs/requirements.md#decision-markdown). Raw HTML in the source
 * is parsed and then filtered by an allow-list: no script/style/iframe/object/embed/form, no event
 * handler or style attributes (except table cell alignment), links and images only with safe
 * schemes (http, https, mailto for links; http, https for images; relative paths). Links get
 * rel="noopener noreferrer"; headings get ids unique within the post and go one level down
 * (h1 → h2 … h5 → h6, h6 stays), Markdown and raw HTML alike: the page's title is its only h1.
 * An element dropped with its content (svg, math, noscript, style…) that is never closed is
 * escaped instead, so the words after it stay, as text (escapeUnclosedOpenings).
 */
const SAFE_LINK = /^(?:https?:|mailto:)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

const md = new MarkdownIt({ html: true, linkify: true, typographer: false });

// markdown-it's default lets data:image URLs through; ours only lets http(s), mailto and relative ones.
md.validateLink = (url: string): boolean => {
  // eslint-disable-next-line no-control-regex
  const compact = url.trim().replace(/[\u0000-\u0020]/g, '');
  return !HAS_SCHEME.test(compact) || SAFE_LINK.test(compact);
};

md.renderer.rules.heading_open = (tokens, idx, options, renderEnv, self) => {
  const env = (renderEnv ?? {}) as { headingIds?: Map<string, number> };
  const inline = tokens[idx + 1];
  const text =
    inline?.children?.map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('') ?? '';
  const ids = (env.headingIds ??= new Map<string, number>());
  const base = slugify(text, 80) || 'section';
  const seen = ids.get(base) ?? 0;
  ids.set(base, seen + 1);
  tokens[idx].attrSet('id', seen ? `${base}-${seen + 1}` : base);
  return self.renderToken(tokens, idx, options);
};

/**
 * The only style attributes rendered posts carry, as the sanitizer writes them (table cell
 * alignment); the Content-Security-Policy allows exactly these by hash (common/security-headers.ts).
 */
export const CELL_ALIGNMENT_STYLES = ['text-align:left', 'text-align:right', 'text-align:center'] as const;

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
/** h1 → h2 … h5 → h6; h6 stays h6 (HTML has no h7). */
const DEMOTED_HEADINGS: Record<string, string> = Object.fromEntries(HEADINGS.slice(0, -1).map((tag, i) => [tag, HEADINGS[i + 1]]));

/** Elements the sanitizer drops with everything inside them (sanitize-html's nonTextTags). */
const DROPPED_WITH_CONTENT: ReadonlySet<string> = new Set([
  'script',
  'style',
  'textarea',
  'option',
  'noscript',
  'iframe',
  'object',
  'embed',
  'template',
  'svg',
  'math',
  'xmp',
  'noembed',
  'noframes',
  'select',
]);
/**
 * Elements whose content the parser (htmlparser2, under sanitize-html) reads as raw text up to
 * their own end tag: markup inside them is not markup. `plaintext` has no end tag at all.
 */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
/** Void elements among them: they have no content to swallow. */
const VOID = new Set(['embed']);
/** Foreign elements, which the parser lets close themselves with `/>`. */
const SELF_CLOSING = new Set(['svg', 'math']);
/** A comment's start, or a start or end tag up to its `>` (quoted attribute values may hold `>` and `<`). */
const MARKUP = /<!--|<(\/?)([a-z][a-z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)(>?)/gi;

/**
 * The positions of the `<` that open an element the sanitizer would drop with its content, or a
 * comment, but that is never closed: the parser would take all the text after it as that
 * element's content (an unclosed `<svg onload=…>`, `<noscript>` or `<style>`), and the author's
 * words would vanish. Mirrors the parser: raw-text elements end only at their own end tag, an
 * end tag closes the elements opened after its element, a quoted attribute value is not markup.
 * Where it cannot tell, it errs on the side of escaping (text shown, never markup let through).
 */
function unclosedOpenings(html: string): number[] {
  const unclosed: number[] = [];
  const open: { name: string; at: number }[] = [];
  MARKUP.lastIndex = 0;
  for (let match = MARKUP.exec(html); match; match = MARKUP.exec(html)) {
    const at = match.index;
    if (match[0] === '<!--') {
      const end = html.indexOf('-->', at + 4);
      if (end < 0) unclosed.push(at);
      else MARKUP.lastIndex = end + 3;
      continue;
    }
    const [, slash, rawName, attributes, closed] = match;
    // No `>` before the end of the input: the parser keeps it as text.
    if (!closed) continue;
    const name = rawName.toLowerCase();
    if (slash) {
      const index = open.map((element) => element.name).lastIndexOf(name);
      if (index >= 0) open.length = index;
      continue;
    }
    if (RAW_TEXT.has(name)) {
      const end = new RegExp(`</${name}[\\s/>]`, 'i').exec(html.slice(MARKUP.lastIndex));
      if (!end) unclosed.push(at);
      // Closed: what is inside is its text, not markup; the end tag is read next.
      else MARKUP.lastIndex += end.index;
      continue;
    }
    // `<embed>` has no content; `<svg/>` and `<math/>` close themselves (foreign elements), `<noscript/>` does not.
    const selfClosed = VOID.has(name) || (SELF_CLOSING.has(name) && attributes.trimEnd().endsWith('/'));
    if (DROPPED_WITH_CONTENT.has(name) && !selfClosed) open.push({ name, at });
  }
  return [...unclosed, ...open.map((element) => element.at)].sort((a, b) => a - b);
}

/** Turns the `<` of every element that would swallow the rest of the text unclosed (unclosedOpenings) into `&lt;`: the tag shows as text, the words after it stay. */
function escapeUnclosedOpenings(html: string): string {
  const positions = unclosedOpenings(html);
  if (!positions.length) return html;
  let result = '';
  let from = 0;
  for (const at of positions) {
    result += `${html.slice(from, at)}&lt;`;
    from = at + 1;
  }
  return result + html.slice(from);
}

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...HEADINGS,
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'kbd',
    'samp',
    'var',
    'em',
    'strong',
    'b',
    'i',
    'u',
    's',
    'del',
    'ins',
    'mark',
    'small',
    'sub',
    'sup',
    'abbr',
    'cite',
    'q',
    'span',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'details',
    'summary',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    code: ['class'],
    ol: ['start'],
    th: ['style', 'colspan', 'rowspan'],
    td: ['style', 'colspan', 'rowspan'],
    abbr: ['title'],
    ...Object.fromEntries(HEADINGS.map((tag) => [tag, ['id']])),
  },
  allowedClasses: { code: ['language-*'] },
  allowedStyles: { th: { 'text-align': [/^(left|right|center)$/] }, td: { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [...DROPPED_WITH_CONTENT],
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }),
    ...DEMOTED_HEADINGS,
  },
};

export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(escapeUnclosedOpenings(html), SANITIZE_OPTIONS);
}

export function renderMarkdown(source: string): string {
  return sanitizePostHtml(md.render(source, {}));
}

/**
 * Words: runs of non-space characters (JavaScript's `\s`). Stored as posts.word_count on save;
 * migrations/1795458037891-AddPostWordCount.ts counts stored rows the same way in SQL.
 */
export function wordCountOf(source: string): number {
  return source.trim().split(/\s+/).filter(Boolean).length;
}

/** Minutes to read `words` words: words / 200 rounded up, at least 1. */
export function readingTimeOfWords(words: number): number {
  return Math.max(1, Math.ceil(words / 200));
}

/** Minutes to read: words / 200 rounded up, at least 1. */
export function readingTimeOf(source: string): number {
  return readingTimeOfWords(wordCountOf(source));
}

export interface MarkdownPreview {
  html: string;
  readingTime: number;
  wordCount: number;
}

/** The editor's preview: the HTML a save would store for this content, its reading time and words. */
export function previewMarkdown(source: string): MarkdownPreview {
  const wordCount = wordCountOf(source);
  return { html: renderMarkdown(source), readingTime: readingTimeOfWords(wordCount), wordCount };
}
