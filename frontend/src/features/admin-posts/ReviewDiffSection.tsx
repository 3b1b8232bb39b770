/**
 * The reviewer's diff in Detailed Review: when the post was rejected before, the
 * earlier reason ('Rejected before: <reason> — <reviewer>, <time>') above what changed since that
 * rejection, word by word: title, summary, tags and content (GET /blog/posts/{id}/review-diff).
 * Nothing shows for a post never rejected. The content's diff scrolls inside its own box so a
 * long post keeps the dialog's form in reach.
 */
import WordDiff, { DiffDeletion, DiffInsertion, WordDiffLegend, hasChanges, type WordDiffPart } from '../../components/WordDiff';
import { useLoad } from '../../components/islands/use-load';
import { errorText } from '../../lib/texts/error-text';
import { adminErrors, AdminPostsTexts as T } from './texts';
import { reviewDiff } from './post-api';
import type { ReviewDiff } from './admin-posts';
import { formatViDateTime } from '../../lib/dates';
import { countNoun, Nouns } from '../../lib/texts/nouns';
import { ReviewLoadStatus } from './ReviewLoadStatus';

function DiffField({ label, parts, scroll = false }: { label: string; parts: readonly WordDiffPart[]; scroll?: boolean }) {
  const body = hasChanges(parts) ? (
    <WordDiff parts={parts} />
  ) : (
    <p className="text-sm text-slate-600 dark:text-slate-400">{T.NO_CHANGES}</p>
  );
  return (
    <div data-diff-field={label}>
      <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</h4>
      {scroll ? (
        <div
          role="region"
          aria-label={`${label} changes`}
          tabIndex={0}
          className="mt-1 max-h-64 overflow-y-auto rounded-lg border border-slate-200 p-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:border-slate-800"
        >
          {body}
        </div>
      ) : (
        <div className="mt-1">{body}</div>
      )}
    </div>
  );
}

export default function ReviewDiffSection({ postId }: { postId: number }) {
  const { load: diff, retry } = useLoad<ReviewDiff>(
    () => reviewDiff(postId),
    (error) => errorText(error, adminErrors(T.DIFF_FAILED)),
    postId,
  );

  if (diff.state !== 'loaded') return <ReviewLoadStatus load={diff} loading={T.DIFF_LOADING} onRetry={retry} spacing="mb-4" />;
  const { rejection, diff: changes } = diff.data;
  if (!rejection) return null;
  return (
    <section
      aria-labelledby={`review-diff-${postId}`}
      className="mb-4 space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-800"
      data-testid="review-diff"
    >
      <h3 id={`review-diff-${postId}`} className="text-sm font-semibold">
        {T.DIFF_TITLE}
      </h3>
      <p
        className="rounded-md border-l-4 border-red-400 bg-red-50 px-3 py-2 text-sm text-red-950 dark:border-red-500 dark:bg-red-950/50 dark:text-red-100"
        data-testid="rejected-before"
      >
        <span className="font-semibold">{T.REJECTED_BEFORE}</span> {rejection.reason} — {rejection.reviewer?.fullName ?? T.UNKNOWN_REVIEWER}
        , <time dateTime={rejection.reviewedAt}>{formatViDateTime(rejection.reviewedAt)}</time>
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
