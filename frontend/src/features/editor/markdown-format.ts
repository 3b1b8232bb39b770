/**
 * The Markdown toolbar's edits (docs/requirements.md#post-editor: heading, bold, italic, link, list, quote, code,
 * image), as pure functions of the text and the selection. Each answers the range to replace, the
 * text to put there and the selection afterwards, so the island can apply it as one typed edit
 * (the browser's undo keeps working).
 */
export type FormatAction = 'heading' | 'bold' | 'italic' | 'link' | 'list' | 'quote' | 'code' | 'image';

export interface TextEdit {
  from: number;
  to: number;
  insert: string;
  selectStart: number;
  selectEnd: number;
}

const WRAPS: Record<'bold' | 'italic' | 'code', [marker: string, placeholder: string]> = {
  bold: ['**', 'bold text'],
  italic: ['_', 'italic text'],
  code: ['`', 'code'],
};
const PREFIXES: Record<'heading' | 'list' | 'quote', [prefix: string, placeholder: string]> = {
  heading: ['## ', 'Heading'],
  list: ['- ', 'List item'],
  quote: ['> ', 'Quote'],
};
const URL_PLACEHOLDER = 'https://';

/** Surrounds the selection with `marker` (a placeholder when empty); a selection already surrounded loses the markers. */
function wrap(value: string, start: number, end: number, marker: string, placeholder: string): TextEdit {
  const size = marker.length;
  if (start >= size && value.slice(start - size, start) === marker && value.slice(end, end + size) === marker) {
    const inner = value.slice(start, end);
    return { from: start - size, to: end + size, insert: inner, selectStart: start - size, selectEnd: start - size + inner.length };
  }
  const inner = value.slice(start, end) || placeholder;
  return { from: start, to: end, insert: `${marker}${inner}${marker}`, selectStart: start + size, selectEnd: start + size + inner.length };
}

/** Puts `prefix` before every line the selection touches; when all of them have it already, takes it away. */
function prefixLines(value: string, start: number, end: number, prefix: string, placeholder: string): TextEdit {
  const from = value.lastIndexOf('\n', start - 1) + 1;
  // A selection ending right after a line break does not take in the next line.
  const last = end > start && value[end - 1] === '\n' ? end - 1 : end;
  const lineEnd = value.indexOf('\n', last);
  const to = lineEnd === -1 ? value.length : lineEnd;
  const lines = value.slice(from, to).split('\n');
  if (lines.length === 1 && lines[0].trim() === '') {
    const insert = `${prefix}${placeholder}`;
    return { from, to, insert, selectStart: from + prefix.length, selectEnd: from + insert.length };
  }
  const allPrefixed = lines.every((line) => line.startsWith(prefix) || line.trim() === '');
  const insert = lines.map((line) => (line.trim() === '' ? line : allPrefixed ? line.slice(prefix.length) : `${prefix}${line}`)).join('\n');
  return { from, to, insert, selectStart: from, selectEnd: from + insert.length };
}

/** `[text](https://)` or `![alt](https://)`: the URL is selected when there was a selection, else the text. */
function linkLike(value: string, start: number, end: number, bang: '' | '!', placeholder: string): TextEdit {
  const selected = value.slice(start, end);
  const text = selected.replace(/\s*\n\s*/g, ' ') || placeholder;
  const insert = `${bang}[${text}](${URL_PLACEHOLDER})`;
  const textStart = start + bang.length + 1;
  if (!selected) return { from: start, to: end, insert, selectStart: textStart, selectEnd: textStart + text.length };
  const urlStart = textStart + text.length + 2;
  return { from: start, to: end, insert, selectStart: urlStart, selectEnd: urlStart + URL_PLACEHOLDER.length };
}

/** A selection over several lines becomes a fenced block; otherwise inline code. */
function code(value: string, start: number, end: number): TextEdit {
  const selected = value.slice(start, end);
  if (!selected.includes('\n')) return wrap(value, start, end, ...WRAPS.code);
  const before = start > 0 && value[start - 1] !== '\n' ? '\n' : '';
  const body = selected.replace(/\n$/, '');
  const insert = `${before}\`\`\`\n${body}\n\`\`\`\n`;
  const bodyStart = start + before.length + 4;
  return { from: start, to: end, insert, selectStart: bodyStart, selectEnd: bodyStart + body.length };
}

export function formatMarkdown(value: string, start: number, end: number, action: FormatAction): TextEdit {
  const from = Math.max(0, Math.min(start, end, value.length));
  const to = Math.min(value.length, Math.max(start, end));
  switch (action) {
    case 'bold':
    case 'italic':
      return wrap(value, from, to, ...WRAPS[action]);
    case 'code':
      return code(value, from, to);
    case 'heading':
    case 'list':
    case 'quote':
      return prefixLines(value, from, to, ...PREFIXES[action]);
    case 'link':
      return linkLike(value, from, to, '', 'link text');
    case 'image':
      return linkLike(value, from, to, '!', 'alt text');
  }
}

/** Applies an edit to the text (what the browser does when the edit is typed in). */
export function applyEdit(value: string, edit: TextEdit): string {
  return value.slice(0, edit.from) + edit.insert + value.slice(edit.to);
}
