import { strikethrough, tables } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';

/** Block-level tags: a WordPress paragraph that starts with one is not wrapped in <p>. */
const BLOCK_START = /^<(p|div|h[1-6]|ul|ol|li|blockquote|pre|table|figure|iframe|hr|img|!--)[\s>/]/i;

/**
 * WordPress stores posts without their paragraphs (its `wpautop` adds them when it renders): blank
 * lines separate paragraphs, a single newline is a line break. Text already in blocks is kept.
 */
export function wordpressParagraphs(content: string): string {
  // A table or preformatted block is one block, blank lines inside it or not (as WordPress's own
  // wpautop leaves them): split, its rows became loose paragraphs joined by line breaks.
  const kept: string[] = [];
  const text = protectBlocks(content.replace(/\r\n?/g, '\n'), kept);
  // The placeholders are NUL-delimited: NUL cannot occur in XML text, so no post can forge one.
  /* eslint-disable no-control-regex */
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => (BLOCK_START.test(block) || /^\u0000\d+\u0000$/.test(block) ? block : `<p>${block.replace(/\n/g, '<br>\n')}</p>`))
    .join('\n\n')
    .replace(/\u0000(\d+)\u0000/g, (_, n: string) => kept[Number(n)]);
  /* eslint-enable no-control-regex */
}

/** Replaces each outermost <table>…</table> and <pre>…</pre> (nesting counted) by a placeholder on its own lines, keeping it in `kept`. */
function protectBlocks(text: string, kept: string[]): string {
  const TAG = /<(\/?)(table|pre)\b[^>]*>/gi;
  let result = '';
  let from = 0;
  let depth = 0;
  let start = 0;
  let outer = '';
  for (let match = TAG.exec(text); match; match = TAG.exec(text)) {
    const name = match[2].toLowerCase();
    if (!match[1]) {
      if (depth === 0) {
        start = match.index;
        outer = name;
      }
      if (name === outer) depth += 1;
    } else if (depth > 0 && name === outer) {
      depth -= 1;
      if (depth === 0) {
        const end = match.index + match[0].length;
        result += `${text.slice(from, start)}\n\n\u0000${kept.length}\u0000\n\n`;
        kept.push(text.slice(start, end));
        from = end;
      }
    }
  }
  // An unclosed table keeps its text as it was.
  return result + text.slice(from);
}

const attribute = (attributes: string, name: string): string | undefined =>
  new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s\\]]+))`, 'i')
    .exec(attributes)
    ?.slice(1)
    .find((value) => value !== undefined);
const escapeHtml = (text: string): string =>
  text
    .replace(/&(?!#?\w+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/**
 * The WordPress shortcodes with a meaning here, as HTML the converter understands:
 * [caption]<img> text[/caption] → a figure with its caption; [embed]url[/embed] and [video src]
 * / [audio src] / [youtube url] → a link; [code]/[sourcecode] → a code block. Any other shortcode
 * ([gallery], a plugin's) stays as its text.
 */
export function expandShortcodes(html: string): string {
  return html
    .replace(/\[caption([^\]]*)\]([\s\S]*?)\[\/caption\]/gi, (_, attributes: string, inner: string) => {
      const image = /<a[^>]*>\s*<img[^>]*>\s*<\/a>|<img[^>]*>/i.exec(inner)?.[0] ?? '';
      const caption = (attribute(attributes, 'caption') ?? inner.replace(image, '')).trim();
      return `<figure>${image}${caption ? `<figcaption>${caption}</figcaption>` : ''}</figure>`;
    })
    .replace(
      /\[embed[^\]]*\]([\s\S]*?)\[\/embed\]/gi,
      (_, url: string) => `<p><a href="${escapeHtml(url.trim())}">${escapeHtml(url.trim())}</a></p>`,
    )
    .replace(/\[(video|audio|youtube)([^\]]*)\](?:\[\/\1\])?/gi, (whole: string, _kind: string, attributes: string) => {
      const url =
        attribute(attributes, 'src') ?? attribute(attributes, 'mp4') ?? attribute(attributes, 'mp3') ?? attributes.trim().replace(/^=/, '');
      return /^https?:\/\//i.test(url ?? '') ? `<p><a href="${escapeHtml(url!)}">${escapeHtml(url!)}</a></p>` : whole;
    })
    .replace(/\[(code|sourcecode)([^\]]*)\]([\s\S]*?)\[\/\1\]/gi, (_, _kind: string, attributes: string, code: string) => {
      const language = attribute(attributes, 'lang') ?? attribute(attributes, 'language') ?? '';
      return `<pre><code class="language-${escapeHtml(language)}">${escapeHtml(code.replace(/^\n|\n$/g, ''))}</code></pre>`;
    });
}

let converter: TurndownService | undefined;

/** One converter for the process: its rules are fixed, and building one parses them again. */
/** A DOM node's name (turndown hands DOM nodes; typed loosely, see the rules below). */
const nodeName = (node: unknown): string | undefined => (node as { nodeName?: string } | null)?.nodeName;

function turndown(): TurndownService {
  if (converter) return converter;
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '---',
  });
  service.remove(['script', 'style', 'noscript']);
  service.addRule('figcaption', { filter: 'figcaption', replacement: (content) => (content.trim() ? `\n\n*${content.trim()}*\n\n` : '') });
  service.addRule('figure', { filter: 'figure', replacement: (content) => `\n\n${content.trim()}\n\n` });
  service.addRule('iframe', {
    filter: 'iframe',
    replacement: (_content, node) => {
      const src = (node as { getAttribute(name: string): string | null }).getAttribute('src');
      return src && /^https?:\/\//i.test(src) ? `\n\n[Embedded content](${src})\n\n` : '';
    },
  });
  // A fenced block keeps its language (WordPress and Ghost put it on the <code> element's class).
  service.addRule('fencedWithLanguage', {
    // (Typed by hand: with React's types in the program, HTMLElement is React's empty stand-in, not the DOM's.)
    filter: (node) => nodeName(node) === 'PRE' && nodeName((node as unknown as { firstChild: unknown }).firstChild) === 'CODE',
    replacement: (_content, node) => {
      const code = (node as unknown as { firstChild: unknown }).firstChild as {
        textContent: string | null;
        getAttribute(name: string): string | null;
      };
      const language = /language-(\S+)/.exec(code.getAttribute('class') ?? '')?.[1] ?? '';
      const text = (code.textContent ?? '').replace(/\n$/, '');
      const fence = text.includes('```') ? '~~~~' : '```';
      return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
    },
  });
  // Tables as GFM tables; one Markdown cannot hold (merged cells, lists or headings or another
  // table in a cell) stays HTML, which the renderer's sanitizer allows (table tags, colspan, rowspan).
  service.use([tables, strikethrough]);
  service.addRule('htmlTable', {
    filter: (node) => nodeName(node) === 'TABLE' && tableNeedsHtml(node as unknown as HtmlElementLike),
    replacement: (_content, node) => `\n\n${cleanTableHtml((node as unknown as { outerHTML: string }).outerHTML)}\n\n`,
  });
  converter = service;
  return service;
}

interface HtmlElementLike {
  querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null }>;
}

/** Whether a table cannot be a GFM table: a merged cell, or a block (list, heading, quote, rule, table, code block) inside a cell. */
function tableNeedsHtml(table: HtmlElementLike): boolean {
  const merged = Array.from(table.querySelectorAll('td, th')).some(
    (cell) => Number(cell.getAttribute('colspan') ?? 1) > 1 || Number(cell.getAttribute('rowspan') ?? 1) > 1,
  );
  return (
    merged ||
    table.querySelectorAll(
      'td table, th table, td ul, td ol, th ul, th ol, td h1, td h2, td h3, td h4, td h5, td h6, td blockquote, td hr, td pre',
    ).length > 0
  );
}

/** A kept table's HTML without the attributes the renderer would drop anyway (class, style, width…): only colspan, rowspan and scope stay. */
function cleanTableHtml(html: string): string {
  return html.replace(/<([a-z][a-z0-9]*)(\s[^>]*)?>/gi, (_whole, name: string, attributes: string | undefined) => {
    const keptAttributes = [...(attributes ?? '').matchAll(/\s(colspan|rowspan|scope)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi)]
      .map((m) => ` ${m[1].toLowerCase()}=${m[2]}`)
      .join('');
    return `<${name}${keptAttributes}>`;
  });
}

/** HTML (a WordPress post with its shortcodes, or Ghost's html) as Markdown for the editor. */
export function htmlToMarkdown(html: string, options: { wordpress?: boolean } = {}): string {
  const prepared = options.wordpress ? expandShortcodes(wordpressParagraphs(html)) : html;
  return turndown()
    .turndown(prepared)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A comment's HTML as the plain text comments are here (tags dropped, entities decoded, paragraphs as blank lines). */
export function htmlToText(html: string): string {
  const withBreaks = html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]+>/g, '');
  return decodeEntities(withBreaks)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  copy: '©',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[entity.toLowerCase()] ?? whole;
  });
}
