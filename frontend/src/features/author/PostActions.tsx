import { useId, useState, type FormEvent } from 'react';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import { Dialog } from '../../components/islands/Dialog';
import { DialogActions } from '../../components/islands/form-controls';
import PublishTimeField, { publishTimeFrom } from '../../components/islands/PublishTimeField';
import { PostActionTexts as T } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { useHydrated } from '../../components/islands/form-controls';
import { setFlash } from './flash';
import { useSubmit } from '../../components/islands/use-submit';

interface Props {
  postId: number;
  title: string;
  /** Offer 'Submit for review' (the post is a DRAFT or REJECTED). */
  submit?: boolean;
  /** Offer 'Delete' (the author's own DRAFT or REJECTED post). */
  remove?: boolean;
  /** Where to go once done; by default this page again, which then shows the new state and the notice. */
  afterHref?: string;
}

/**
 * The author's actions on one post (docs/requirements.md#screen-author-posts, docs/requirements.md#api-accounts): 'Submit for review'
 * (POST /blog/posts/author/{id}/submit-for-review, after a confirmation that may name a requested
 * publish time: sent as `requestedPublishAt` only when set) and 'Delete' after a confirmation
 * (DELETE /blog/posts/{id}). On success the page is loaded again with a notice of what happened
 * (FlashNotice), so its counts, badges and pager are the server's; a failure shows the server's
 * reason beside the buttons. The buttons
 * stay disabled until React runs.
 */
export default function PostActions({ postId, title, submit = false, remove = false, afterHref }: Props) {
  const hydrated = useHydrated();
  const submitting = useSubmit();
  const deleting = useSubmit();
  const busy = submitting.busy ? 'submit' : deleting.busy ? 'delete' : undefined;
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [requested, setRequested] = useState('');
  const [requestedError, setRequestedError] = useState<string>();
  const fieldId = useId();

  function done(notice: string) {
    setFlash(notice);
    if (afterHref) window.location.assign(afterHref);
    else window.location.reload();
  }

  async function submitForReview(event: FormEvent) {
    event.preventDefault();
    const time = publishTimeFrom(requested);
    setRequestedError(time.error);
    if (time.error) {
      document.getElementById(fieldId)?.focus();
      return;
    }
    setError(undefined);
    // No time, no body: the spec's request as it always was.
    const path = { params: { path: { id: postId } } };
    const sent = await submitting.run(
      () =>
        unwrap(
          browserApi().POST(
            '/api/v1/blog/posts/author/{id}/submit-for-review',
            time.iso ? { ...path, body: { requestedPublishAt: time.iso } } : path,
          ),
        ),
      {
        keepBusy: true,
        onError: (failure) => {
          const field = failure instanceof ApiError ? failure.field('requestedPublishAt') : undefined;
          if (field) setRequestedError(field);
          else {
            setConfirming(false);
            setError(errorText(failure, { fallback: T.SUBMIT_FAILED }));
          }
        },
      },
    );
    if (sent.ok) done(T.SUBMITTED);
  }

  async function deletePost() {
    if (!window.confirm(T.confirmDelete(title))) return;
    setError(undefined);
    const deleted = await deleting.run(() => unwrap(browserApi().DELETE('/api/v1/blog/posts/{id}', { params: { path: { id: postId } } })), {
      keepBusy: true,
      onError: (failure) => setError(T.deleteFailed(errorText(failure, { fallback: T.DELETE_FAILED }))),
    });
    if (deleted.ok) done(T.DELETED);
  }

  return (
    <>
      {submit && (
        <button
          type="button"
          className="btn-primary px-3 py-1.5"
          onClick={() => {
            setError(undefined);
            setRequestedError(undefined);
            setConfirming(true);
          }}
          disabled={!hydrated || busy !== undefined}
          aria-label={`${T.SUBMIT}: ${title}`}
        >
          {busy === 'submit' ? T.SUBMITTING : T.SUBMIT}
        </button>
      )}
      {remove && (
        <button
          type="button"
          className="btn-secondary px-3 py-1.5 text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950/50"
          onClick={deletePost}
          disabled={!hydrated || busy !== undefined}
          aria-label={`${T.DELETE}: ${title}`}
        >
          {busy === 'delete' ? T.DELETING : T.DELETE}
        </button>
      )}
      {confirming && (
        <Dialog
          title={T.CONFIRM_SUBMIT_TITLE}
          description={T.confirmSubmit(title)}
          onClose={() => setConfirming(false)}
          busy={busy === 'submit'}
        >
          <form onSubmit={submitForReview} noValidate>
            <PublishTimeField
              id={fieldId}
              label={T.REQUESTED_TIME}
              value={requested}
              onChange={(value) => {
                setRequested(value);
                setRequestedError(undefined);
              }}
              error={requestedError}
              hint={T.REQUESTED_TIME_HINT}
            />
            <DialogActions onCancel={() => setConfirming(false)} busy={busy === 'submit'} className="mt-4">
              {T.SUBMIT}
            </DialogActions>
          </form>
        </Dialog>
      )}
      {error && (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </>
  );
}
