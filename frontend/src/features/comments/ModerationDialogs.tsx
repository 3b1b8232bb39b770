/**
 * The comment moderation dialogs of the post page: Report (a reason, and a
 * description required for Other) for signed-in readers on others' comments, and Hide (a reason)
 * for the post's author and admins. Both are modal (focus inside, Escape cancels, focus back on
 * the button that opened them: components/islands/Dialog) and show the API's refusal
 * (409 already reported, 403, 429 over the limit) in the dialog, which stays open. The Hide
 * dialog also serves the moderation queue (/admin/comments), one comment or a selection.
 */
import { useId, useState, type FormEvent } from 'react';
import { Dialog } from '../../components/islands/Dialog';
import { Alert, DialogActions } from '../../components/islands/form-controls';
import { errorText } from '../../lib/texts/error-text';
import { charCount, trimInvisible } from '../../../../isomorphic/text';
import { reportComment, type CommentNode } from './comment-api';
import {
  commentErrors,
  CommentsTexts,
  HIDE_REASON_MAX,
  REPORT_DETAILS_MAX,
  REPORT_REASONS,
  reportProblem,
  type ReportReason,
} from './texts';
import { useSubmit } from '../../components/islands/use-submit';

const TEXTAREA = 'block w-full rounded-lg border bg-white px-3 py-2 text-sm shadow-sm focus:outline-none focus:ring-2 dark:bg-slate-950';
const textareaClass = (invalid: boolean) =>
  `${TEXTAREA} ${invalid ? 'border-red-500 focus:ring-red-500/30' : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30 dark:border-slate-700'}`;

/**
 * Both dialogs check their fields before sending: a problem shows under the field, which takes
 * focus; otherwise the dialog sends and closes, or keeps the API's refusal on show and stays open.
 */
function useCheckedSubmit(failedText: string, onDone: () => void) {
  const [problem, setProblem] = useState<string>();
  const { busy, failure, setFailure, run } = useSubmit();

  async function check(event: FormEvent, found: string | undefined, focusId: string, send: () => Promise<void>) {
    event.preventDefault();
    if (busy) return;
    setFailure(undefined);
    setProblem(found);
    if (found) {
      document.getElementById(focusId)?.focus();
      return;
    }
    await run(
      async () => {
        await send();
        onDone();
      },
      { keepBusy: true, failure: (caught) => errorText(caught, commentErrors(failedText)) },
    );
  }

  return { problem, setProblem, busy, failure, check };
}

interface ReportProps {
  comment: CommentNode;
  /** Whose comment it is, as the list shows it. */
  authorName: string;
  onCancel: () => void;
  onDone: () => void;
}

export function ReportDialog({ comment, authorName, onCancel, onDone }: ReportProps) {
  const id = useId();
  const [reason, setReason] = useState<ReportReason>();
  const [details, setDetails] = useState('');
  const { problem, setProblem, busy, failure, check } = useCheckedSubmit(CommentsTexts.REPORT_FAILED, onDone);

  async function submit(event: FormEvent) {
    const found = reportProblem(reason, details);
    await check(event, found, reason ? `${id}-details` : `${id}-${REPORT_REASONS[0].value}`, async () => {
      if (reason) await reportComment(comment, reason, trimInvisible(details));
    });
  }

  const detailsRequired = reason === 'OTHER';
  const reasonMissing = problem !== undefined && !reason;
  return (
    <Dialog
      title="Report Comment"
      description={`Tell the moderators what is wrong with ${authorName}'s comment.`}
      onClose={onCancel}
      busy={busy}
    >
      <form className="space-y-4" onSubmit={submit} noValidate data-testid="report-dialog">
        {failure && <Alert>{failure}</Alert>}
        <fieldset aria-describedby={reasonMissing ? `${id}-problem` : undefined}>
          <legend className="mb-2 text-sm font-medium">Reason</legend>
          <div className="space-y-2">
            {REPORT_REASONS.map((option, index) => (
              <label
                key={option.value}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 text-sm has-[:checked]:border-brand-500 dark:border-slate-700"
              >
                <input
                  id={`${id}-${option.value}`}
                  type="radio"
                  name={`${id}-reason`}
                  value={option.value}
                  checked={reason === option.value}
                  onChange={() => {
                    setReason(option.value);
                    setProblem(undefined);
                  }}
                  className="mt-0.5 h-4 w-4 accent-brand-600"
                  {...(index === 0 ? { 'data-autofocus': true } : {})}
                />
                <span>
                  <span className="block font-medium">{option.label}</span>
                  <span className="block text-slate-600 dark:text-slate-400">{option.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor={`${id}-details`} className="mb-1 block text-sm font-medium">
            {detailsRequired ? 'Description' : 'Description (optional)'}
          </label>
          <textarea
            id={`${id}-details`}
            rows={3}
            value={details}
            required={detailsRequired}
            onChange={(event) => {
              setDetails(event.target.value);
              setProblem(undefined);
            }}
            aria-invalid={problem && reason ? true : undefined}
            aria-describedby={`${id}-count${problem && reason ? ` ${id}-problem` : ''}`}
            className={textareaClass(Boolean(problem && reason))}
          />
          <p id={`${id}-count`} className="mt-1 text-right text-xs tabular-nums text-slate-600 dark:text-slate-400">
            {charCount(details)}/{REPORT_DETAILS_MAX}
            <span className="sr-only"> characters</span>
          </p>
        </div>
        {problem && (
          <p id={`${id}-problem`} role="alert" className="text-sm text-red-700 dark:text-red-300">
            {problem}
          </p>
        )}
        <DialogActions onCancel={onCancel} busy={busy}>
          Send Report
        </DialogActions>
      </form>
    </Dialog>
  );
}

interface HideProps {
  /** What the dialog says it does, under its title. */
  description: string;
  /** Hides with the reason given (throws the API's failure). */
  hide: (reason: string) => Promise<void>;
  onCancel: () => void;
  onDone: () => void;
  title?: string;
}

export { hideDescription } from './texts';

export function HideDialog({ description, hide, onCancel, onDone, title = 'Hide Comment' }: HideProps) {
  const id = useId();
  const [reason, setReason] = useState('');
  const { problem, setProblem, busy, failure, check } = useCheckedSubmit(CommentsTexts.HIDE_FAILED, onDone);

  async function submit(event: FormEvent) {
    const text = trimInvisible(reason);
    const found = !text
      ? CommentsTexts.HIDE_REASON_REQUIRED
      : charCount(text) > HIDE_REASON_MAX
        ? `The reason cannot exceed ${HIDE_REASON_MAX} characters`
        : undefined;
    await check(event, found, `${id}-reason`, () => hide(text));
  }

  return (
    <Dialog title={title} description={description} onClose={onCancel} busy={busy}>
      <form className="space-y-4" onSubmit={submit} noValidate data-testid="hide-dialog">
        {failure && <Alert>{failure}</Alert>}
        <div>
          <label htmlFor={`${id}-reason`} className="mb-1 block text-sm font-medium">
            Reason for hiding
          </label>
          <textarea
            id={`${id}-reason`}
            rows={3}
            value={reason}
            required
            onChange={(event) => {
              setReason(event.target.value);
              setProblem(undefined);
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            className={textareaClass(Boolean(problem))}
            data-autofocus
          />
          {problem && (
            <p id={`${id}-problem`} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
              {problem}
            </p>
          )}
        </div>
        <DialogActions onCancel={onCancel} busy={busy} danger>
          {title}
        </DialogActions>
      </form>
    </Dialog>
  );
}
