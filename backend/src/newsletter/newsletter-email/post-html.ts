import sanitizeHtml from 'sanitize-html';

/**
 * Colours of the newsletter e-mail, each checked against its background for WCAG AA (4.5:1 for
 * text): text #1f2937 on white 14.7:1, muted #4b5563 on white 7.6:1, links #1d4ed8 on white 6.7:1,
 * code #111827 on #f3f4f6 16:1, the button's white on #1d4ed8 6.7:1.
 */
export const EMAIL_COLOURS = {
  text: '#1f2937',
  muted: '#4b5563',
  link: '#1d4ed8',
  background: '#ffffff',
  page: '#f3f4f6',
  border: '#d1d5db',
  codeText: '#111827',
  codeBackground: '#f3f4f6',
} as const;

/** The e-mail's content column: images wider than this are scaled down to it (their height with them). */
export const EMAIL_WIDTH = 600;

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const MONO = "SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace";

/** Inline styles per element: mail clients ignore `<style>` sheets often enough that every element carries its own. */
const STYLES: Record<string, string> = {
  h1: `margin:28px 0 12px;font-size:26px;line-height:1.3;font-weight:700;color:${EMAIL_COLOURS.text};font-family:${FONT}`,
  h2: `margin:28px 0 12px;font-size:22px;line-height:1.3;font-weight:700;color:${EMAIL_COLOURS.text};font-family:${FONT}`,
  h3: `margin:24px 0 10px;font-size:19px;line-height:1.35;font-weight:700;color:${EMAIL_COLOURS.text};font-family:${FONT}`,
  h4: `margin:20px 0 8px;font-size:17px;line-height:1.4;font-weight:700;color:${EMAIL_COLOURS.text};font-family:${FONT}`,
  h5: `margin:18px 0 8px;font-size:16px;line-height:1.4;font-weight:700;color:${EMAIL_COLOURS.text};font-family:${FONT}`,
  h6: `margin:18px 0 8px;font-size:15px;line-height:1.4;font-weight:700;color:${EMAIL_COLOURS.text};font-family:${FONT}`,
  p: `margin:0 0 16px;font-size:16px;line-height:1.6;color:${EMAIL_COLOURS.text};font-family:${FONT}`,
  li: `margin:0 0 6px;font-size:16px;line-height:1.6;color:${EMAIL_COLOURS.text};font-family:${FONT}`,
  ul: 'margin:0 0 16px;padding-left:24px',
  ol: 'margin:0 0 16px;padding-left:24px',
  a: `color:${EMAIL_COLOURS.link};text-decoration:underline`,
  blockquote: `margin:0 0 16px;padding:4px 0 4px 16px;border-left:4px solid ${EMAIL_COLOURS.border};color:${EMAIL_COLOURS.muted};font-style:italic`,
  pre: `margin:0 0 16px;padding:12px 14px;background:${EMAIL_COLOURS.codeBackground};color:${EMAIL_COLOURS.codeText};border-radius:6px;overflow-x:auto;font-size:14px;line-height:1.5;font-family:${MONO};white-space:pre`,
  code: `font-family:${MONO};font-size:14px;background:${EMAIL_COLOURS.codeBackground};color:${EMAIL_COLOURS.codeText};padding:1px 4px;border-radius:4px`,
  table: `margin:0 0 16px;border-collapse:collapse;width:100%;font-size:15px;color:${EMAIL_COLOURS.text};font-family:${FONT}`,
  th: `border:1px solid ${EMAIL_COLOURS.border};padding:6px 10px;text-align:left;background:${EMAIL_COLOURS.codeBackground}`,
  td: `border:1px solid ${EMAIL_COLOURS.border};padding:6px 10px`,
  hr: `border:none;border-top:1px solid ${EMAIL_COLOURS.border};margin:24px 0`,
  figure: 'margin:0 0 16px',
  figcaption: `font-size:14px;color:${EMAIL_COLOURS.muted};font-family:${FONT};margin-top:6px`,
  img: 'display:block;max-width:100%;height:auto;border:0',
};

/** What a stored post may hold (common/markdown.ts's allow-list). */
const POST_TAGS = [
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'kbd', 'samp', 'var', 'em', 'strong', 'b'],
  ...['i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'abbr', 'cite', 'q', 'span', 'ul', 'ol', 'li', 'dl', 'dt', 'dd'],
  ...['a', 'img', 'figure', 'figcaption', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'details', 'summary'],
];

/** Stored image names say their size (`<key>-<W>x<H>.webp`, images/image-rules.ts); other images keep what the post says. */
const SIZE_IN_NAME = /-(\d{1,5})x(\d{1,5})(?:-\d+w)?\.[a-z0-9]+$/i;

export interface EmailHtmlOptions {
  /** PUBLIC_URL: relative links and images become absolute against it. */
  publicUrl: string;
  /** Added to every link into the site (`ref=newsletter`: the analytics' source). */
  ref: string;
}

/** An absolute URL (relative ones against the site); undefined for what is not http(s) or mailto. */
function absolute(url: string, base: string): URL | undefined {
  try {
    const resolved = new URL(url, `${base}/`);
    return ['http:', 'https:', 'mailto:'].includes(resolved.protocol) ? resolved : undefined;
  } catch {
    return undefined;
  }
}

/** A link into the site carries `ref=…` (kept when already there); a link elsewhere stays as it is. */
export function withRef(url: string, base: string, ref: string): string {
  const resolved = absolute(url, base);
  if (!resolved) return url;
  if (resolved.origin === new URL(base).origin && !resolved.searchParams.has('ref')) resolved.searchParams.set('ref', ref);
  return resolved.toString();
}

function merge(style: string, extra: string | undefined): string {
  return extra ? `${style};${extra}` : style;
}

/**
 * A post's stored HTML (already sanitized on save, common/markdown.ts) made fit for e-mail: every
 * element carries its inline style; links and images are absolute; links into the site carry
 * `ref=newsletter`; every image has alt text (empty when the post gave none: decorative) and a
 * width and height (from the stored file's name, else the post's attributes, else the column's
 * width), scaled to the 600 px column. Headings, code blocks, quotes and tables keep their
 * elements. Ids (heading anchors) and classes are dropped: mail clients rewrite them anyway.
 */
export function emailHtml(contentHtml: string, options: EmailHtmlOptions): string {
  const styled = (tag: string) => (tagName: string, attribs: sanitizeHtml.Attributes) => {
    const { id: _id, class: _class, ...rest } = attribs;
    return { tagName, attribs: { ...rest, style: merge(STYLES[tag] ?? '', attribs.style) } };
  };
  return sanitizeHtml(contentHtml, {
    // The stored HTML passed the save's allow-list already (common/markdown.ts); this one repeats it as a second guard.
    allowedTags: POST_TAGS,
    allowedAttributes: { '*': ['href', 'title', 'src', 'alt', 'width', 'height', 'start', 'colspan', 'rowspan', 'style', 'class'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: {
      ...Object.fromEntries(Object.keys(STYLES).map((tag) => [tag, styled(tag)])),
      // The plain-text part lays the post's tables out as tables (html-to-text's selector `table.post-table`).
      table: (tagName) => ({ tagName, attribs: { class: 'post-table', style: STYLES.table } }),
      a: (tagName, attribs) => {
        const href = attribs.href ? withRef(attribs.href, options.publicUrl, options.ref) : undefined;
        return { tagName, attribs: { ...(href ? { href } : {}), ...(attribs.title ? { title: attribs.title } : {}), style: STYLES.a } };
      },
      img: (tagName, attribs) => {
        const src = absolute(attribs.src ?? '', options.publicUrl)?.toString() ?? '';
        const named = SIZE_IN_NAME.exec(new URL(src || options.publicUrl).pathname);
        let width = Number(named?.[1] ?? attribs.width) || 0;
        let height = Number(named?.[2] ?? attribs.height) || 0;
        if (!width) width = EMAIL_WIDTH;
        if (width > EMAIL_WIDTH) {
          height = height ? Math.round((height * EMAIL_WIDTH) / width) : 0;
          width = EMAIL_WIDTH;
        }
        return {
          tagName,
          attribs: {
            src,
            alt: attribs.alt ?? '',
            width: String(width),
            ...(height ? { height: String(height) } : {}),
            ...(attribs.title ? { title: attribs.title } : {}),
            style: STYLES.img,
          },
        };
      },
    },
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  }).replace(
    /<pre style="([^"]*)"><code style="[^"]*"/g,
    '<pre style="$1"><code style="font-family:inherit;font-size:inherit;background:none;padding:0"',
  );
}
