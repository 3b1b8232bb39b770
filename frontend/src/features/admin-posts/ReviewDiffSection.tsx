/**
 * The reviewer's diff in Detailed Review (issue 20 §2): when the post was rejected before, the
 * earlier reason ('Rejected before: <reason> — <reviewer>, <time>') above what changed since that
 * rejection, word by word: title, summary, tags and content (GET /blog/posts/{id}/review-diff).
 * Nothing shows for a post never rejected. The content's diff scrolls inside its own box so a
 * long post keeps the dialog's form in reach.
 */
import { useEffect, useState } from 'react';
import WordDiff, { DiffDeletion, DiffInsertion, WordDiffLegend, hasChanges, type WordDiffPart } from '../../components/WordDiff';
import { Spinner } from '../../components/islands/form-controls';
import { errorText } from '../../lib/texts/error-text';
import { adminErrors, AdminPostsTexts as T } from './texts';
import { reviewDiff } from './post-api';
import type { ReviewDiff } from './admin-posts';
import { formatViDateTime } from '../../lib/dates';
import { countNoun, Nouns } from '../../lib/texts/nouns';

type DiffState = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'loaded'; answer: ReviewDiff };

function DiffField({ label, parts, scroll = false }: { label: string; parts: readonly WordDiffPart[]; scroll?: boolean }) {
  const body = hasChanges(parts) ? <WordDiff parts={parts} /> : <p className="text-sm text-slate-600 dark:text-slate-400">{T.NO_CHANGES}</p>;
  return (
    <div data-diff-field={label}>
      <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</h4>
      {scroll ? (
        <div role="region" aria-label={`${label} changes`} tabIndex={0} className="mt-1 max-h-64 overflow-y-auto rounded-lg border border-slate-200 p-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:border-slate-800">
          {body}
        </div>
      ) : (
        <div className="mt-1">{body}</div>
      )}
    </div>
  );
}

export default function ReviewDiffSection({ postId }: { postId: number }) {
  const [diff, setDiff] = useState<DiffState>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setDiff({ state: 'loading' });
    reviewDiff(postId)
      .then((answer) => live && setDiff({ state: 'loaded', answer }))
      .catch((error: unknown) => live && setDiff({ state: 'failed', message: errorText(error, adminErrors(T.DIFF_FAILED)) }));
    return () => {
      live = false;
    };
  }, [postId, attempt]);

  if (diff.state === 'loading') {
    return (
      <p className="mb-4 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400" role="status">
        <Spinner /> {T.DIFF_LOADING}
      </p>
    );
  }
  if (diff.state === 'failed') {
    return (
      <div role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
        <p className="font-semibold">{T.LOAD_FAILED}</p>
        <p>{diff.message}</p>
        <button type="button" className="btn-secondary mt-2" onClick={() => setAttempt((n) => n + 1)}>
          Try Again
        </button>
      </div>
    );
  }
  const { rejection, diff: changes } = diff.answer;
  if (!rejection) return null;
  return (
    <section aria-labelledby={`review-diff-${postId}`} className="mb-4 space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-800" data-testid="review-diff">
      <h3 id={`review-diff-${postId}`} className="text-sm font-semibold">
        {T.DIFF_TITLE}
      </h3>
      <p className="rounded-md border-l-4 border-red-400 bg-red-50 px-3 py-2 text-sm text-red-950 dark:border-red-500 dark:bg-red-950/50 dark:text-red-100" data-testid="rejected-before">
        <span className="font-semibold">{T.REJECTED_BEFORE}</span> {rejection.reason} — {rejection.reviewer?.fullName ?? T.UNKNOWN_REVIEWER},{' '}
        <time dateTime={rejection.reviewedAt}>{formatViDateTime(rejection.reviewedAt)}</time>
      </p>
      {changes && (
        <>
          <WordDiffLegend />
          <DiffField label="Title" parts={changes.title} />
          <DiffField label="Summary" parts={changes.summary} />
          <div data-diff-field="Tags">
            <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">Tags</h4>
            {changes.tags.added.length + changes.tags.removed.length === 0 ? (
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{T.NO_CHANGES}</p>
            ) : (
              <ul className="mt-1 flex flex-wrap gap-2 text-sm">
                {changes.tags.added.map((tag) => (
                  <li key={`+${tag}`}>
                    <DiffInsertion>{tag}</DiffInsertion>
                  </li>
                ))}
                {changes.tags.removed.map((tag) => (
                  <li key={`-${tag}`}>
                    <DiffDeletion>{tag}</DiffDeletion>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <DiffField label="Content" parts={changes.content} scroll />
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {countNoun(changes.stats.addedWords, Nouns.WORD)} added, {changes.stats.removedWords} removed.
          </p>
        </>
      )}
    </section>
  );
}
