/**
 * The content field's Markdown toolbar (docs/requirements.md#post-editor): heading, bold, italic, link, list, quote,
 * code, image. Each button wraps or prefixes the selection (or inserts a placeholder, selected).
 * One tab stop; arrow keys, Home and End move between the buttons (WAI-ARIA toolbar pattern).
 */
import { useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { applyEdit, formatMarkdown, type FormatAction } from './markdown-format';

const icon = (path: string) => (
  <svg
    viewBox="0 0 24 24"
    className="h-4 w-4"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
  >
    <path d={path} />
  </svg>
);

const BUTTONS: { action: FormatAction; label: string; shortcut?: string; glyph: ReactNode }[] = [
  { action: 'heading', label: 'Heading', glyph: <span className="font-bold">H</span> },
  { action: 'bold', label: 'Bold', shortcut: 'B', glyph: <span className="font-bold">B</span> },
  { action: 'italic', label: 'Italic', shortcut: 'I', glyph: <span className="font-serif italic">I</span> },
  {
    action: 'link',
    label: 'Link',
    shortcut: 'K',
    glyph: icon('M10 14a5 5 0 0 0 7 0l3-3a5 5 0 0 0-7-7l-1 1M14 10a5 5 0 0 0-7 0l-3 3a5 5 0 0 0 7 7l1-1'),
  },
  { action: 'list', label: 'Bulleted list', glyph: icon('M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01') },
  { action: 'quote', label: 'Quote', glyph: icon('M7 7h4v4c0 3-2 5-4 6M15 7h4v4c0 3-2 5-4 6') },
  { action: 'code', label: 'Code', glyph: icon('M8 8l-4 4 4 4M16 8l4 4-4 4') },
  { action: 'image', label: 'Image', glyph: icon('M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15 9h.01') },
];

/** The toolbar action a keyboard shortcut in the content field stands for (Ctrl/Cmd + B, I, K). */
export function shortcutAction(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}): FormatAction | undefined {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return undefined;
  const key = event.key.toUpperCase();
  return BUTTONS.find((button) => button.shortcut === key)?.action;
}

/**
 * Applies a toolbar action to the textarea as typed text (so the browser's undo takes it back);
 * where the browser cannot, through `onChange`. The new selection is set either way.
 */
export function applyFormat(textarea: HTMLTextAreaElement, action: FormatAction, onChange: (value: string) => void): void {
  const before = textarea.value;
  const edit = formatMarkdown(before, textarea.selectionStart, textarea.selectionEnd, action);
  const after = applyEdit(before, edit);
  textarea.focus();
  textarea.setSelectionRange(edit.from, edit.to);
  let typed = false;
  try {
    typed = document.execCommand('insertText', false, edit.insert) && textarea.value === after;
  } catch {
    typed = false;
  }
  if (typed) {
    textarea.setSelectionRange(edit.selectStart, edit.selectEnd);
    return;
  }
  onChange(after);
  requestAnimationFrame(() => {
    textarea.focus();
    textarea.setSelectionRange(edit.selectStart, edit.selectEnd);
  });
}

interface Props {
  textarea: RefObject<HTMLTextAreaElement | null>;
  textareaId: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}

export default function MarkdownToolbar({ textarea, textareaId, onChange, disabled }: Props) {
  const [active, setActive] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  function move(event: KeyboardEvent<HTMLDivElement>) {
    const last = BUTTONS.length - 1;
    const next = { ArrowRight: active === last ? 0 : active + 1, ArrowLeft: active === 0 ? last : active - 1, Home: 0, End: last }[
      event.key
    ];
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
    buttons.current[next]?.focus();
  }

  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      aria-controls={textareaId}
      className="flex flex-wrap gap-1 rounded-t-lg border border-b-0 border-slate-300 bg-slate-50 p-1 dark:border-slate-700 dark:bg-slate-900"
      onKeyDown={move}
    >
      {BUTTONS.map((button, index) => {
        const hint = button.shortcut ? `${button.label} (Ctrl/⌘+${button.shortcut})` : button.label;
        return (
          <button
            key={button.action}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            tabIndex={index === active ? 0 : -1}
            aria-label={button.label}
            title={hint}
            disabled={disabled}
            className="inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm text-slate-700 hover:bg-slate-200 disabled:opacity-50 dark:text-slate-200 dark:hover:bg-slate-800"
            onFocus={() => setActive(index)}
            onMouseDown={(event) => event.preventDefault() /* keep the textarea's selection */}
            onClick={() => textarea.current && applyFormat(textarea.current, button.action, onChange)}
          >
            <span aria-hidden="true">{button.glyph}</span>
          </button>
        );
      })}
    </div>
  );
}
