import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { slugify } from '../common/validation/slug';

/**
 * Markdown → sanitized HTML, run once when a post is saved (DESIGN.md §4). Raw HTML in the source
 * is parsed and then filtered by an allow-list: no script/style/iframe/object/embed/form, no event
 * handler or style attributes (except table cell alignment), links and images only with safe
 * schemes (http, https, mailto for links; http, https for images; relative paths). Links get
 * rel="noopener noreferrer"; headings get ids unique within the post and go one level down
 * (h1 → h2 … h5 → h6, h6 stays), Markdown and raw HTML alike: the page's title is its only h1.
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
  const text = inline?.children?.map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('') ?? '';
  const ids = (env.headingIds ??= new Map<string, number>());
  const base = slugify(text, 80) || 'section';
  const seen = ids.get(base) ?? 0;
  ids.set(base, seen + 1);
  tokens[idx].attrSet('id', seen ? `${base}-${seen + 1}` : base);
  return self.renderToken(tokens, idx, options);
};

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
/** h1 → h2 … h5 → h6; h6 stays h6 (HTML has no h7). */
const DEMOTED_HEADINGS: Record<string, string> = Object.fromEntries(HEADINGS.slice(0, -1).map((tag, i) => [tag, HEADINGS[i + 1]]));

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...HEADINGS,
    'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'kbd', 'samp', 'var',
    'em', 'strong', 'b', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'abbr', 'cite', 'q', 'span',
    'ul', 'ol', 'li', 'dl', 'dt', 'dd',
    'a', 'img', 'figure', 'figcaption',
    'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
    'details', 'summary',
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
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template', 'svg', 'math', 'xmp', 'noembed', 'noframes', 'select'],
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }),
    ...DEMOTED_HEADINGS,
  },
};

export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_OPTIONS);
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
