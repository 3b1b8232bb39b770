/**
 * The edit-conflict dialog: a save answered 409 because the post was saved elsewhere
 * after this editor loaded it. Nothing is overwritten silently: keep theirs (load the saved post),
 * keep mine (save again on top of the saved version), or compare the two first (a word diff made
 * here with jsdiff, the saved text → yours: the compare endpoint needs revision ids, and yours is
 * not one). Escape or the backdrop closes it and leaves the editor as it was (unsaved).
 */
import { useId, useState } from 'react';
import { Modal } from '../../components/islands/Dialog';
import DiffView, { wordDiff } from './DiffView';
import { WordDiffLegend } from '../../components/WordDiff';
import { formFromPost, type EditorForm, type PostResponse } from './editor-form';
import { PublishingTexts as T } from './texts';
import { Spinner } from '../../components/islands/form-controls';
import { formatDateTime } from '../../lib/dates';

interface Props {
  /** The post as saved now (theirs); undefined: no conflict. */
  current: PostResponse | undefined;
  mine: EditorForm;
  busy: boolean;
  onKeepTheirs: () => void;
  onKeepMine: () => void;
  onClose: () => void;
}

export default function ConflictDialog({ current, mine, busy, onKeepTheirs, onKeepMine, onClose }: Props) {
  const id = useId();
  const [comparing, setComparing] = useState(false);
  const theirs = formFromPost(current);
  return (
    <Modal
      open={current !== undefined}
      onClose={() => !busy && (setComparing(false), onClose())}
      labelledBy={`${id}-title`}
      describedBy={`${id}-text`}
      className="max-w-3xl"
    >
      <div className="p-6" data-testid="conflict-dialog">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {T.CONFLICT_TITLE}
        </h2>
        <p id={`${id}-text`} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          {T.CONFLICT_TEXT}
          {current && <span className="mt-1 block">Saved {formatDateTime(current.updatedAt)}.</span>}
        </p>
        {comparing && (
          <div className="mt-4" data-testid="conflict-diff">
            <p className="text-xs text-slate-600 dark:text-slate-400">From the saved version to yours.</p>
            <WordDiffLegend className="mt-1" />
            <DiffView label="Title" parts={wordDiff(theirs.title, mine.title)} />
            <DiffView label="Excerpt" parts={wordDiff(theirs.excerpt, mine.excerpt)} />
            <DiffView label="Content" parts={wordDiff(theirs.content, mine.content)} />
          </div>
        )}
        <div className="mt-6 flex flex-wrap justify-end gap-2">
          <button
            type="button"
            className="btn-secondary"
            onClick={() => setComparing((open) => !open)}
            aria-expanded={comparing}
            disabled={busy}
            data-autofocus
          >
            {T.COMPARE}
          </button>
          <button type="button" className="btn-secondary" onClick={() => (setComparing(false), onKeepTheirs())} disabled={busy}>
            {T.KEEP_THEIRS}
          </button>
          <button type="button" className="btn-primary" onClick={() => (setComparing(false), onKeepMine())} disabled={busy}>
            {busy && <Spinner />}
            {T.KEEP_MINE}
          </button>
        </div>
      </div>
    </Modal>
  );
}
