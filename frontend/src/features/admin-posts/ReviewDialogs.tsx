/**
 * The review dialogs of /admin/posts (docs/requirements.md#screen-admin-posts, docs/requirements.md#validation-review): Quick Reject (a reason, pre-filled with a
 * suggestion to revise and resubmit; 'A rejection reason is required.') and Detailed Review (a
 * decision, 'Please select a review decision.'; a reason when rejecting, 'Please provide a
 * rejection reason.'; internal admin notes; the post's review history).
 */
import { useId, useState, type FormEvent } from 'react';
import { adminDateTime, statusLabel, statusTone, type PostListItem } from './admin-posts';
import { adminErrors, AdminPostsTexts } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { allows } from '../../lib/api/schema';
import { Dialog } from '../../components/islands/Dialog';
import { DialogActions, TextAreaField } from '../../components/islands/form-controls';
import { reviewHistory, type ReviewDecision } from './post-api';
import { PublishAtField } from './ScheduleDialogs';
import { publishTimeFrom, publishTimeValue } from '../../components/islands/PublishTimeField';
import ReviewDiffSection from './ReviewDiffSection';
import { ReviewLoadStatus } from './ReviewLoadStatus';
import { useLoad } from '../../components/islands/use-load';

function FieldError({ id, text }: { id: string; text?: string }) {
  if (!text) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-600 dark:text-red-400">
      {text}
    </p>
  );
}

export function QuickRejectDialog({
  post,
  busy,
  onSubmit,
  onClose,
}: {
  post: PostListItem;
  busy: boolean;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [reason, setReason] = useState<string>(AdminPostsTexts.REJECT_SUGGESTION);
  const [error, setError] = useState<string>();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setError(AdminPostsTexts.QUICK_REASON_REQUIRED);
      document.getElementById(id)?.focus();
      return;
    }
    onSubmit(reason.trim());
  }

  return (
    <Dialog
      title="Reject Post"
      description={<>The author sees the reason for “{post.title}” and can revise and resubmit it.</>}
      onClose={onClose}
      busy={busy}
    >
      <form onSubmit={submit} noValidate>
        <TextAreaField
          id={id}
          label="Rejection reason"
          autoFocus
          rows={4}
          maxLength={2000}
          value={reason}
          onChange={(value) => {
            setReason(value);
            setError(undefined);
          }}
          error={error}
        />
        <DialogActions onCancel={onClose} busy={busy} danger className="mt-4">
          Reject Post
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The review history list (newest first): decision, reviewer, time, reason and notes. */
function ReviewHistory({ postId }: { postId: number }) {
  const { load: history, retry } = useLoad(
    () => reviewHistory(postId),
    (error) => errorText(error, adminErrors(AdminPostsTexts.HISTORY_FAILED)),
    postId,
  );

  return (
    <section
      aria-labelledby={`history-${postId}`}
      className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-800"
      aria-busy={history.state === 'loading'}
    >
      <h3 id={`history-${postId}`} className="text-sm font-semibold">
        Review History
      </h3>
      <ReviewLoadStatus load={history} loading="Loading review history..." onRetry={retry} spacing="mt-2" />
      {history.state === 'loaded' &&
        (history.data.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{AdminPostsTexts.HISTORY_EMPTY}</p>
        ) : (
          <ol className="mt-2 space-y-3" data-testid="review-history">
            {history.data.map((review) => (
              <li key={review.id} className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
                <p className="flex flex-wrap items-center gap-2">
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-semibold ${statusTone(review.status === 'APPROVED' ? 'PUBLISHED' : 'REJECTED')}`}
                  >
                    {statusLabel(review.status)}
                  </span>
                  <span>by {review.reviewerName ?? 'Unknown reviewer'}</span>
                  <time dateTime={review.createdAt} className="text-slate-600 dark:text-slate-400">
                    {adminDateTime(review.createdAt)}
                  </time>
                </p>
                {review.rejectionReason && (
                  <p className="mt-1">
                    <span className="font-medium">Reason:</span> {review.rejectionReason}
                  </p>
                )}
                {review.reviewNote && (
                  <p className="mt-1">
                    <span className="font-medium">Note to author:</span> {review.reviewNote}
                  </p>
                )}
                {review.adminNotes && (
                  <p className="mt-1 text-slate-700 dark:text-slate-300">
                    <span className="font-medium">Admin notes:</span> {review.adminNotes}
                  </p>
                )}
              </li>
            ))}
          </ol>
        ))}
    </section>
  );
}

/**
 * Detailed Review: a pending post can be approved or rejected; a rejected post can only be
 * approved (the server rejects only posts waiting for review).
 */
export function DetailedReviewDialog({
  post,
  busy,
  publishAtError,
  onSubmit,
  onClose,
}: {
  post: PostListItem;
  busy: boolean;
  /** The API's field error for the publish time of the last attempt. */
  publishAtError?: string;
  onSubmit: (decision: ReviewDecision) => void;
  onClose: () => void;
}) {
  const id = useId();
  const canReject = allows(post, 'reject');
  const [decision, setDecision] = useState<'APPROVED' | 'REJECTED' | ''>('');
  const [reason, setReason] = useState('');
  const [notes, setNotes] = useState('');
  const [publishAt, setPublishAt] = useState(() => publishTimeValue(post.requestedPublishAt));
  const [errors, setErrors] = useState<{ decision?: string; reason?: string; publishAt?: string }>({});
  const [publishAtEdited, setPublishAtEdited] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    const time = decision === 'APPROVED' ? publishTimeFrom(publishAt) : {};
    if (!decision) found.decision = AdminPostsTexts.DECISION_REQUIRED;
    else if (decision === 'REJECTED' && !reason.trim()) found.reason = AdminPostsTexts.REASON_REQUIRED;
    else if (time.error) found.publishAt = time.error;
    setErrors(found);
    setPublishAtEdited(false);
    if (found.decision) {
      document.getElementById(`${id}-approve`)?.focus();
      return;
    }
    if (found.reason || found.publishAt) {
      document.getElementById(found.reason ? `${id}-reason` : `${id}-publish-at`)?.focus();
      return;
    }
    onSubmit({
      status: decision as 'APPROVED' | 'REJECTED',
      rejectionReason: decision === 'REJECTED' ? reason.trim() : null,
      adminNotes: notes.trim() || null,
      ...(time.iso ? { publishAt: time.iso } : {}),
    });
  }

  const radio = (value: 'APPROVED' | 'REJECTED', label: string, hint: string) => (
    <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 text-sm has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50 dark:border-slate-700 dark:has-[:checked]:bg-slate-800">
      <input
        id={`${id}-${value === 'APPROVED' ? 'approve' : 'reject'}`}
        type="radio"
        name="decision"
        value={value}
        checked={decision === value}
        onChange={() => {
          setDecision(value);
          setErrors({});
        }}
        className="mt-0.5"
        aria-describedby={errors.decision ? `${id}-decision-error` : undefined}
      />
      <span>
        <span className="block font-medium">{label}</span>
        <span className="block text-slate-600 dark:text-slate-400">{hint}</span>
      </span>
    </label>
  );

  return (
    <Dialog
      title="Detailed Review"
      size="lg"
      busy={busy}
      onClose={onClose}
      description={
        <>
          <span className="font-medium text-slate-900 dark:text-slate-100">{post.title}</span> by {post.authorName} ·{' '}
          <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${statusTone(post.status)}`}>{statusLabel(post.status)}</span>
        </>
      }
    >
      <ReviewDiffSection postId={post.id} />
      <form onSubmit={submit} noValidate>
        <fieldset>
          <legend className="mb-2 text-sm font-medium">Review decision</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {radio('APPROVED', 'Approve', 'Publish the post now, or at the time you set.')}
            {canReject && radio('REJECTED', 'Reject', 'Send it back to the author with a reason.')}
          </div>
          <FieldError id={`${id}-decision-error`} text={errors.decision} />
        </fieldset>
        {decision === 'APPROVED' && (
          <div className="mt-4">
            <PublishAtField
              id={`${id}-publish-at`}
              value={publishAt}
              onChange={(value) => {
                setPublishAt(value);
                setErrors({});
                setPublishAtEdited(true);
              }}
              error={errors.publishAt ?? (publishAtEdited ? undefined : publishAtError)}
              requestedPublishAt={post.requestedPublishAt}
            />
          </div>
        )}
        {decision === 'REJECTED' && (
          <TextAreaField
            id={`${id}-reason`}
            className="mt-4"
            label="Rejection reason"
            maxLength={2000}
            value={reason}
            onChange={(value) => {
              setReason(value);
              setErrors({});
            }}
            placeholder={AdminPostsTexts.REJECT_SUGGESTION}
            error={errors.reason}
          />
        )}
        <TextAreaField
          className="mt-4"
          label={
            <>
              Admin notes <span className="font-normal text-slate-600 dark:text-slate-400">(internal, optional)</span>
            </>
          }
          maxLength={2000}
          value={notes}
          onChange={setNotes}
        />
        <DialogActions onCancel={onClose} busy={busy} className="mt-4">
          Submit Review
        </DialogActions>
      </form>
      <ReviewHistory postId={post.id} />
    </Dialog>
  );
}
