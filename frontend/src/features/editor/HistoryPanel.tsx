/**
 * The editor's History panel: the post's revisions, newest first and paged, with who
 * saved each and when (site zone), a badge on the pinned ones (submitted, approved, rejected,
 * restored); open one read-only, compare it with the post as saved now (the server's word diff),
 * and restore it after a confirmation: the editor then loads the restored post and its new
 * version (the restore is itself a new revision). A modal dialog: keyboard operable, Escape closes,
 * Back returns from a revision to the list.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Modal } from '../../components/islands/Dialog';
import DiffView from './DiffView';
import { WordDiffLegend } from '../../components/WordDiff';
import {
  compareRevision,
  getRevision,
  listRevisions,
  restoreRevision,
  type Revision,
  type RevisionDiff,
  type RevisionSummary,
} from './revisions-api';
import { editorErrors, PublishingTexts as T } from './texts';
import type { PostResponse } from './editor-form';
import { errorText } from '../../lib/texts/error-text';
import { Alert, Spinner } from '../../components/islands/form-controls';
import { formatDateTime } from '../../lib/dates';
import { countNoun, Nouns } from '../../lib/texts/nouns';

interface Props {
  open: boolean;
  postId: number;
  /** The version the editor holds (the restore is based on it). */
  version: number;
  /** The editor has unsaved changes (the restore replaces them). */
  unsaved: boolean;
  onClose: () => void;
  onRestored: (post: PostResponse, message: string | undefined) => void;
}

type View =
  | { kind: 'list' }
  | { kind: 'revision'; revision: Revision }
  | { kind: 'compare'; summary: RevisionSummary; diff: RevisionDiff }
  | { kind: 'restore'; summary: RevisionSummary };

interface Page {
  items: RevisionSummary[];
  page: number;
  totalPages: number;
}

export default function HistoryPanel({ open, postId, version, unsaved, onClose, onRestored }: Props) {
  const id = useId();
  const [page, setPage] = useState<Page>();
  const [pageNumber, setPageNumber] = useState(0);
  const [view, setView] = useState<View>({ kind: 'list' });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  /** Only a restore holds the panel open: closing while a read loads just drops the answer. */
  const [restoring, setRestoring] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setLoading(true);
    setError(undefined);
    listRevisions(postId, pageNumber)
      .then((answer) => live && setPage({ items: answer.content, page: answer.number, totalPages: answer.totalPages }))
      .catch((failure: unknown) => live && setError(errorText(failure, editorErrors(T.HISTORY_FAILED))))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [open, postId, pageNumber, version]);

  useEffect(() => {
    if (!open) {
      setView({ kind: 'list' });
      setPageNumber(0);
    }
  }, [open]);

  /** Moves to another view, focusing its heading so keyboard and screen-reader users follow. */
  function show(next: View) {
    setView(next);
    setError(undefined);
    window.requestAnimationFrame(() => heading.current?.focus());
  }

  async function run<T>(action: () => Promise<T>, failed: string): Promise<T | undefined> {
    setLoading(true);
    setError(undefined);
    try {
      return await action();
    } catch (failure) {
      setError(errorText(failure, editorErrors(failed)));
      return undefined;
    } finally {
      setLoading(false);
    }
  }

  async function openRevision(summary: RevisionSummary) {
    const revision = await run(() => getRevision(postId, summary.id), T.REVISION_FAILED);
    if (revision) show({ kind: 'revision', revision });
  }

  async function compare(summary: RevisionSummary) {
    const diff = await run(() => compareRevision(postId, summary.id), T.COMPARE_FAILED);
    if (diff) show({ kind: 'compare', summary, diff });
  }

  async function restore(summary: RevisionSummary) {
    setRestoring(true);
    const restored = await run(() => restoreRevision(postId, summary.id, version), T.RESTORE_FAILED);
    setRestoring(false);
    if (restored) onRestored(restored.post, restored.message);
  }

  const when = (summary: RevisionSummary) => formatDateTime(summary.updatedAt);
  const who = (summary: RevisionSummary) => summary.editor?.fullName ?? 'Deleted account';
  const title =
    view.kind === 'list'
      ? T.HISTORY
      : view.kind === 'restore'
        ? T.RESTORE_TITLE
        : view.kind === 'revision'
          ? `Revision of ${when(view.revision)}`
          : `Changes since ${when(view.summary)}`;
  const back = (
    <button type="button" className="btn-ghost" onClick={() => show({ kind: 'list' })} disabled={loading}>
      <span aria-hidden="true">←</span> Back to history
    </button>
  );

  return (
    <Modal open={open} onClose={() => !restoring && onClose()} labelledBy={`${id}-title`} className="max-w-3xl">
      <div className="p-4 sm:p-6" data-testid="history-panel" aria-busy={loading}>
        <div className="flex items-start justify-between gap-2">
          <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
            {title}
          </h2>
          <button
            type="button"
            className="btn-ghost"
            onClick={onClose}
            disabled={restoring}
            data-autofocus={view.kind === 'list' || undefined}
          >
            Close
          </button>
        </div>
        <div aria-live="polite">{error && <Alert>{error}</Alert>}</div>

        {view.kind === 'list' && (
          <>
            {loading && !page && (
              <p className="mt-4 flex items-center gap-2 text-sm">
                <Spinner /> Loading history…
              </p>
            )}
            {page && page.items.length === 0 && <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">{T.HISTORY_EMPTY}</p>}
            {page && page.items.length > 0 && (
              <ol className="mt-4 divide-y divide-slate-200 dark:divide-slate-800" aria-label="Revisions, newest first">
                {page.items.map((item) => (
                  <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 py-3" data-testid="revision">
                    <div className="min-w-0">
                      <p className="text-sm font-medium">
                        {when(item)}
                        {item.pinned && (
                          <span
                            className="ml-2 rounded-full border border-slate-400 px-2 py-0.5 text-xs font-semibold dark:border-slate-500"
                            data-testid="revision-kind"
                          >
                            {T.KIND_LABELS[item.kind] ?? item.kind}
                          </span>
                        )}
                        {!item.pinned && item.kind === 'RESTORED' && <span className="ml-2 text-xs">(restored)</span>}
                      </p>
                      <p className="truncate text-xs text-slate-600 dark:text-slate-400">
                        {who(item)} · {countNoun(item.wordCount, Nouns.WORD)} · {item.title}
                      </p>
                    </div>
                    <div className="flex flex-wrap gap-1">
                      <button
                        type="button"
                        className="btn-ghost text-xs"
                        onClick={() => void openRevision(item)}
                        disabled={loading}
                        aria-label={`Open the revision of ${when(item)}`}
                      >
                        Open
                      </button>
                      <button
                        type="button"
                        className="btn-ghost text-xs"
                        onClick={() => void compare(item)}
                        disabled={loading}
                        aria-label={`Compare the revision of ${when(item)} with the current text`}
                      >
                        Compare
                      </button>
                      <button
                        type="button"
                        className="btn-ghost text-xs"
                        onClick={() => show({ kind: 'restore', summary: item })}
                        disabled={loading}
                        aria-label={`Restore the revision of ${when(item)}`}
                      >
                        Restore
                      </button>
                    </div>
                  </li>
                ))}
              </ol>
            )}
            {page && page.totalPages > 1 && (
              <nav className="mt-3 flex items-center justify-between gap-2 text-sm" aria-label="History pages">
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() => setPageNumber(page.page - 1)}
                  disabled={loading || page.page <= 0}
                >
                  Newer
                </button>
                <span>
                  Page {page.page + 1} of {page.totalPages}
                </span>
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() => setPageNumber(page.page + 1)}
                  disabled={loading || page.page >= page.totalPages - 1}
                >
                  Older
                </button>
              </nav>
            )}
          </>
        )}

        {view.kind === 'revision' && (
          <div className="mt-3" data-testid="revision-view">
            {back}
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
              {who(view.revision)} · {T.KIND_LABELS[view.revision.kind] ?? view.revision.kind} · read-only
            </p>
            <dl className="mt-3 space-y-3 text-sm">
              <div>
                <dt className="font-semibold">Title</dt>
                <dd>{view.revision.title}</dd>
              </div>
              {view.revision.summary && (
                <div>
                  <dt className="font-semibold">Excerpt</dt>
                  <dd>{view.revision.summary}</dd>
                </div>
              )}
              <div>
                <dt className="font-semibold">Tags</dt>
                <dd>{view.revision.tagSlugs.length ? view.revision.tagSlugs.join(', ') : 'None'}</dd>
              </div>
              <div>
                <dt className="font-semibold">Content</dt>
                <dd>
                  <pre
                    className="mt-1 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 p-3 font-mono text-sm dark:border-slate-700"
                    tabIndex={0}
                    aria-label="Content of the revision"
                  >
                    {view.revision.content}
                  </pre>
                </dd>
              </div>
            </dl>
            <button type="button" className="btn-secondary mt-3" onClick={() => show({ kind: 'restore', summary: view.revision })}>
              Restore this revision
            </button>
          </div>
        )}

        {view.kind === 'compare' && (
          <div className="mt-3" data-testid="revision-compare">
            {back}
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
              From the revision of {when(view.summary)} to the post as saved now: {countNoun(view.diff.stats.addedWords, Nouns.WORD)} added,{' '}
              {view.diff.stats.removedWords} removed.
            </p>
            <WordDiffLegend className="mt-1" />
            <DiffView label="Title" parts={view.diff.title} />
            <DiffView label="Excerpt" parts={view.diff.summary} />
            <DiffView label="Content" parts={view.diff.content} testId="compare-content" />
            {(view.diff.tags.added.length > 0 || view.diff.tags.removed.length > 0) && (
              <p className="mt-3 text-sm">
                Tags: {view.diff.tags.added.length > 0 && <>added {view.diff.tags.added.join(', ')}</>}
                {view.diff.tags.added.length > 0 && view.diff.tags.removed.length > 0 && '; '}
                {view.diff.tags.removed.length > 0 && <>removed {view.diff.tags.removed.join(', ')}</>}
              </p>
            )}
          </div>
        )}

        {view.kind === 'restore' && (
          <div className="mt-3">
            <p className="text-sm text-slate-700 dark:text-slate-300">{T.restoreText(when(view.summary), unsaved)}</p>
            <div className="mt-4 flex justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={() => show({ kind: 'list' })} disabled={loading}>
                Cancel
              </button>
              <button type="button" className="btn-primary" onClick={() => void restore(view.summary)} disabled={loading}>
                {loading && <Spinner />}
                Restore
              </button>
            </div>
          </div>
        )}
      </div>
    </Modal>
  );
}
