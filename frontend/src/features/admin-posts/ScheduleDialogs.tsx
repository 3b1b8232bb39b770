/**
 * Publishing at a time on /admin/posts: the 'Publish at' field (the shared
 * PublishTimeField, prefilled with the author's requested time, which is named under it), and the
 * dialog that approves a post for a time or moves a scheduled post's time. The API checks the
 * time (≥ 1 minute ahead, ≤ 1 year); its field error shows on the field.
 */
import { useId, useState, type FormEvent } from 'react';
import PublishTimeField, { publishTimeFrom, publishTimeValue } from '../../components/islands/PublishTimeField';
import { Dialog } from '../../components/islands/Dialog';
import { DialogActions } from '../../components/islands/form-controls';
import { AdminPostsTexts as T } from './texts';
import type { PostListItem } from './admin-posts';
import { formatViDateTime } from '../../lib/dates';

/** The reviewer's 'Publish at', with the author's requested time under it when there is one. */
export function PublishAtField({
  id,
  value,
  onChange,
  error,
  requestedPublishAt,
  required = false,
  autoFocus = false,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  requestedPublishAt?: string | null;
  required?: boolean;
  autoFocus?: boolean;
}) {
  return (
    <PublishTimeField
      id={id}
      label={T.PUBLISH_AT}
      value={value}
      onChange={onChange}
      error={error}
      note={
        requestedPublishAt ? <span data-testid="requested-publish-at">{T.requested(formatViDateTime(requestedPublishAt))}</span> : undefined
      }
      hint={required ? undefined : T.PUBLISH_AT_EMPTY}
      required={required}
      autoFocus={autoFocus}
    />
  );
}

/**
 * Approve for a time ('Approve Post': the time is optional, empty approves now) or move a
 * scheduled post's time ('Reschedule Post': a time is required). `serverError` is the API's
 * field error for publishAt, shown on the field until the time changes.
 */
export function PublishTimeDialog({
  mode,
  post,
  busy,
  serverError,
  onSubmit,
  onClose,
}: {
  mode: 'approve' | 'reschedule';
  post: PostListItem;
  busy: boolean;
  serverError?: string;
  onSubmit: (publishAt: string | undefined) => void;
  onClose: () => void;
}) {
  const id = useId();
  const required = mode === 'reschedule';
  const [value, setValue] = useState(() => publishTimeValue(mode === 'reschedule' ? post.scheduledAt : post.requestedPublishAt));
  const [error, setError] = useState<string>();
  const [edited, setEdited] = useState(false);
  const shown = error ?? (edited ? undefined : serverError);

  function submit(event: FormEvent) {
    event.preventDefault();
    const read = publishTimeFrom(value);
    const problem = read.error ?? (required && !read.iso ? T.PUBLISH_AT_REQUIRED : undefined);
    setError(problem);
    setEdited(false);
    if (problem) {
      document.getElementById(`${id}-publish-at`)?.focus();
      return;
    }
    onSubmit(read.iso);
  }

  return (
    <Dialog
      title={required ? T.RESCHEDULE_TITLE : T.APPROVE_TITLE}
      description={
        <>
          <span className="font-medium text-slate-900 dark:text-slate-100">{post.title}</span> by {post.authorName}
        </>
      }
      onClose={onClose}
      busy={busy}
    >
      <form onSubmit={submit} noValidate>
        <PublishAtField
          id={`${id}-publish-at`}
          value={value}
          onChange={(next) => {
            setValue(next);
            setError(undefined);
            setEdited(true);
          }}
          error={shown}
          requestedPublishAt={post.requestedPublishAt}
          required={required}
          autoFocus
        />
        <DialogActions onCancel={onClose} busy={busy} className="mt-4">
          {required ? 'Reschedule' : value.trim() ? 'Approve and schedule' : 'Approve now'}
        </DialogActions>
      </form>
    </Dialog>
  );
}
