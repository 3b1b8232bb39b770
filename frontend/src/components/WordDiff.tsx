/**
 * A word-level diff, rendered inline: the parts jsdiff gives (`diffWordsWithSpace`, as the
 * revisions API sends them) in order, added words in <ins>, removed ones in <del>. Colour is not
 * the only cue: added text is underlined and starts with '+', removed text is struck through and
 * starts with '−', and screen readers hear 'added:' / 'removed:' before each change. Plain React
 * with no state, so it renders on the server or inside any island (the reviewer's diff, the
 * editor's History compare).
 */
import type { ReactNode } from 'react';

/** One run of a diff: unchanged, added or removed text. */
export interface WordDiffPart {
  value: string;
  added: boolean;
  removed: boolean;
}

const INS =
  'rounded-sm bg-emerald-100 text-emerald-950 underline decoration-2 underline-offset-2 dark:bg-emerald-900/70 dark:text-emerald-50';
const DEL = 'rounded-sm bg-red-100 text-red-950 line-through decoration-2 dark:bg-red-900/70 dark:text-red-50';

/** Whether anything changed. */
export function hasChanges(parts: readonly WordDiffPart[]): boolean {
  return parts.some((part) => part.added || part.removed);
}

/** Added text; `announce` (default) prefixes 'added:' for screen readers (off in the legend, which says it already). */
export function DiffInsertion({ children, announce = true }: { children: ReactNode; announce?: boolean }) {
  return (
    <ins className={INS}>
      {announce && <span className="sr-only">added: </span>}
      <span aria-hidden="true" className="font-bold no-underline">
        +
      </span>
      {children}
    </ins>
  );
}

export function DiffDeletion({ children, announce = true }: { children: ReactNode; announce?: boolean }) {
  return (
    <del className={DEL}>
      {announce && <span className="sr-only">removed: </span>}
      <span aria-hidden="true" className="font-bold">
        −
      </span>
      {children}
    </del>
  );
}

/** The diff's text with its changes marked; whitespace and line breaks kept (Markdown reads as written). */
export default function WordDiff({ parts, className = '' }: { parts: readonly WordDiffPart[]; className?: string }) {
  return (
    <div className={`whitespace-pre-wrap break-words text-sm leading-relaxed ${className}`.trim()} data-word-diff>
      {parts.map((part, index) =>
        part.added ? (
          <DiffInsertion key={index}>{part.value}</DiffInsertion>
        ) : part.removed ? (
          <DiffDeletion key={index}>{part.value}</DiffDeletion>
        ) : (
          <span key={index}>{part.value}</span>
        ),
      )}
    </div>
  );
}

/** What the marks mean, shown once above one or more diffs. */
export function WordDiffLegend({ className = '' }: { className?: string }) {
  return (
    <p className={`flex flex-wrap items-center gap-3 text-xs text-slate-700 dark:text-slate-300 ${className}`.trim()} data-word-diff-legend>
      <span>Legend:</span>
      <span>
        <DiffInsertion announce={false}>added</DiffInsertion>
      </span>
      <span>
        <DiffDeletion announce={false}>removed</DiffDeletion>
      </span>
    </p>
  );
}
