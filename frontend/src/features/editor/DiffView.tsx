/**
 * A word-level diff rendered inline (issue 20): removed words in <del> (struck through), added
 * ones in <ins> (underlined, bold), so the change shows without colour too; each carries a
 * hidden 'removed:' / 'added:' for screen readers, which do not announce <ins>/<del> themselves.
 * The parts come from jsdiff's diffWordsWithSpace (the server's compare answer, or the editor's
 * own for a conflict).
 */
import { diffWordsWithSpace } from 'diff';

export interface DiffChunk {
  value: string;
  added?: boolean;
  removed?: boolean;
}

/** The editor's own word diff of two texts (the conflict dialog's compare: no revision ids there). */
export function wordDiff(before: string, after: string): DiffChunk[] {
  return diffWordsWithSpace(before, after).map((part) => ({ value: part.value, added: part.added, removed: part.removed }));
}

export const changed = (parts: DiffChunk[]) => parts.some((part) => part.added || part.removed);

export default function DiffView({ label, parts, testId }: { label: string; parts: DiffChunk[]; testId?: string }) {
  return (
    <section className="mt-3" data-testid={testId}>
      <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</h4>
      {changed(parts) ? (
        <p className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 p-3 font-mono text-sm leading-relaxed dark:border-slate-700">
          {parts.map((part, index) =>
            part.removed ? (
              <del key={index} className="bg-red-100 text-red-900 line-through decoration-2 dark:bg-red-950 dark:text-red-100">
                <span className="sr-only">removed: </span>
                {part.value}
              </del>
            ) : part.added ? (
              <ins key={index} className="bg-green-100 font-semibold text-green-900 underline decoration-2 dark:bg-green-950 dark:text-green-100">
                <span className="sr-only">added: </span>
                {part.value}
              </ins>
            ) : (
              <span key={index}>{part.value}</span>
            ),
          )}
        </p>
      ) : (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">No changes.</p>
      )}
    </section>
  );
}
