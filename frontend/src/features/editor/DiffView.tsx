/**
 * A labelled word-level diff in the editor's dialogs: the shared WordDiff renderer
 * (components/WordDiff.tsx: <ins>/<del>, underline/strike-through and +/− marks, hidden
 * 'added:'/'removed:') in a scrolling frame, or 'No changes.'. The parts come from jsdiff's
 * diffWordsWithSpace: the server's compare answer, or the editor's own for a conflict.
 */
import { diffWordsWithSpace } from 'diff';
import WordDiff, { hasChanges, type WordDiffPart } from '../../components/WordDiff';

/** The editor's own word diff of two texts (the conflict dialog's compare: no revision ids there). */
export function wordDiff(before: string, after: string): WordDiffPart[] {
  return diffWordsWithSpace(before, after).map((part) => ({ value: part.value, added: part.added, removed: part.removed }));
}

export default function DiffView({ label, parts, testId }: { label: string; parts: readonly WordDiffPart[]; testId?: string }) {
  return (
    <section className="mt-3" data-testid={testId}>
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</h3>
      {hasChanges(parts) ? (
        // A scrolling frame is a tab stop, so keyboard users can scroll it too.
        <div
          tabIndex={0}
          role="region"
          aria-label={`${label}: changes`}
          className="mt-1 max-h-80 overflow-auto rounded-lg border border-slate-200 p-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:border-slate-700"
        >
          <WordDiff parts={parts} className="font-mono" />
        </div>
      ) : (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">No changes.</p>
      )}
    </section>
  );
}
