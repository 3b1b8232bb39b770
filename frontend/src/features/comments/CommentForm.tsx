import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useHydrated } from '../../components/islands/form-controls';
import { useKeepTyped } from '../../components/islands/keep-typed';
import { COMMENT_MAX_LENGTH, COMMENT_WARN_LENGTH, commentContentError } from './texts';
import { charCount, limitChars, trimInvisible } from '../../../../isomorphic/text';

interface Props {
  label: string;
  submitLabel: string;
  initial?: string;
  /** Sends the text; answers the error to show, or undefined when it went through. */
  onSubmit: (content: string) => Promise<string | undefined>;
  onCancel?: () => void;
  autoFocus?: boolean;
}

/**
 * A comment's textarea (at most 200 characters, the counter red above 180), its label, the
 * error it points to, and Send / Cancel. Ctrl/Cmd+Enter sends, Esc cancels.
 */
export default function CommentForm({ label, submitLabel, initial = '', onSubmit, onCancel, autoFocus }: Props) {
  const id = useId();
  const [content, setContent] = useState(initial);
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const hydrated = useHydrated();
  const keepTyped = useKeepTyped();

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (sending) return;
    const problem = commentContentError(content);
    if (problem) {
      setError(problem);
      return;
    }
    setSending(true);
    setError(undefined);
    const failure = await onSubmit(trimInvisible(content));
    setSending(false);
    if (failure) setError(failure);
    else if (!onCancel) setContent('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit();
    else if (event.key === 'Escape' && onCancel) {
      event.preventDefault();
      onCancel();
    }
  }

  // Characters as the server counts them (an emoji is one); capped in onChange, as maxLength would count UTF-16 units.
  const length = charCount(content);
  const describedBy = [`${id}-count`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <form {...keepTyped} onSubmit={submit} className="mt-3" noValidate>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        value={content}
        onChange={(event) => {
          setContent(limitChars(event.target.value, COMMENT_MAX_LENGTH));
          if (error) setError(undefined);
        }}
        onKeyDown={onKeyDown}
        rows={3}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`block w-full rounded-lg border bg-white px-3 py-2 text-sm shadow-sm focus:outline-none focus:ring-2 dark:bg-slate-950 ${
          error
            ? 'border-red-500 focus:ring-red-500/30'
            : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30 dark:border-slate-700'
        }`}
      />
      <div className="mt-1 flex flex-wrap items-start justify-between gap-2">
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-300" role={error ? 'alert' : undefined}>
          {error}
        </p>
        <p
          id={`${id}-count`}
          data-testid="comment-counter"
          className={`ml-auto text-xs tabular-nums ${length > COMMENT_WARN_LENGTH ? 'font-semibold text-red-700 dark:text-red-300' : 'text-slate-600 dark:text-slate-400'}`}
        >
          {length}/{COMMENT_MAX_LENGTH}
          <span className="sr-only"> characters</span>
        </p>
      </div>
      <div className="mt-2 flex gap-2">
        <button type="submit" className="btn-primary" disabled={sending || !hydrated} aria-busy={sending || undefined}>
          {sending ? 'Sending...' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
