/**
 * The newsletter panel of a post's edit page (admins): before the post is e-mailed, 'Publish
 * without e-mail' (the choice is kept for the approval or publish that follows) and 'Send a test to
 * me' with the e-mail's preview in a sandboxed frame; once it is sent, the counts by state, the
 * failed and bounced rows and 'Retry failed'. Buttons wait for hydration (useHydrated).
 */
import { useEffect, useState } from 'react';
import { Alert, useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { ApiError } from '../../lib/api/errors';
import { CommonTexts } from '../../lib/texts/common';
import {
  previewUrl,
  problemDeliveries,
  retryFailed,
  sendStatus,
  sendTest,
  setSendEmail,
  type NewsletterDelivery,
  type NewsletterSend,
} from './newsletter-send-api';
import { NewsletterSendTexts as T } from './texts';

interface Props {
  postId: number;
}

type Notice = { kind: 'success' | 'error'; text: string } | undefined;

const messageOf = (error: unknown): string => (error instanceof ApiError ? error.message : CommonTexts.UNEXPECTED_ERROR);
const COUNT_KEYS = ['queued', 'sent', 'failed', 'bounced', 'suppressed', 'skipped'] as const;

export default function NewsletterSendPanel({ postId }: Props) {
  const hydrated = useHydrated();
  const [send, setSend] = useState<NewsletterSend | undefined>();
  const [problems, setProblems] = useState<NewsletterDelivery[]>([]);
  const [notice, setNotice] = useState<Notice>();
  const [preview, setPreview] = useState(false);
  const submit = useSubmit();
  const { busy } = submit;

  async function refresh() {
    try {
      const status = await sendStatus(postId);
      setSend(status);
      setProblems(status.counts.failed || status.counts.bounced ? await problemDeliveries(postId) : []);
    } catch {
      setNotice({ kind: 'error', text: T.LOAD_FAILED });
    }
  }
  useEffect(() => {
    void refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [postId]);

  const run = (action: () => Promise<string>) =>
    submit.run(async () => setNotice({ kind: 'success', text: await action() }), {
      onError: (error) => setNotice({ kind: 'error', text: messageOf(error) }),
    });

  const choosable = send && (send.state === 'none' || send.state === 'pending');
  const started = send && !choosable;

  return (
    <section className="card mt-8 p-5" aria-labelledby="newsletter-send-heading" data-newsletter-send>
      <h2 id="newsletter-send-heading" className="text-lg font-semibold">
        {T.HEADING}
      </h2>
      {send && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{choosable ? T.HELP_BEFORE : T.STATE[send.state]}</p>}
      {choosable && (
        <label className="mt-4 flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-1"
            checked={send.sendEmail}
            disabled={!hydrated || busy}
            onChange={(event) => {
              const on = event.currentTarget.checked;
              const before = send;
              // Shown at once; put back when the server refuses.
              setSend({ ...send, sendEmail: on });
              void run(async () => {
                try {
                  setSend(await setSendEmail(postId, on));
                } catch (error) {
                  setSend(before);
                  throw error;
                }
                return on ? T.SAVED_ON : T.SAVED_OFF;
              });
            }}
          />
          <span>
            {T.SEND_EMAIL}
            {!send.sendEmail && <span className="block text-slate-600 dark:text-slate-400">{T.PUBLISH_WITHOUT}</span>}
          </span>
        </label>
      )}
      {started && (
        <>
          <p className="mt-2 text-sm">{T.recipients(send.recipients)}</p>
          <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" data-newsletter-counts>
            {COUNT_KEYS.map((key) => (
              <div key={key} className="rounded-lg border border-slate-200 p-2 text-center dark:border-slate-700">
                <dt className="text-xs text-slate-600 dark:text-slate-400">{T.COUNTS[key]}</dt>
                <dd className="text-lg font-semibold" data-count={key}>
                  {send.counts[key]}
                </dd>
              </div>
            ))}
          </dl>
          {problems.length > 0 && (
            <>
              <h3 className="mt-4 text-sm font-semibold">{T.PROBLEMS}</h3>
              <ul className="mt-2 space-y-1 text-sm">
                {problems.map((row) => (
                  <li key={row.id}>
                    {row.email}: {T.COUNTS[row.state] ?? row.state}
                    {row.lastError ? ` (${row.lastError})` : ''}
                  </li>
                ))}
              </ul>
            </>
          )}
          {send.counts.failed > 0 && (
            <button
              type="button"
              className="btn-secondary mt-4"
              disabled={!hydrated || busy}
              onClick={() =>
                void run(async () => {
                  const n = await retryFailed(postId);
                  await refresh();
                  return T.retried(n);
                })
              }
            >
              {T.RETRY}
            </button>
          )}
        </>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-secondary"
          disabled={!hydrated || busy}
          onClick={() => void run(async () => T.tested(await sendTest(postId)))}
        >
          {busy ? T.TESTING : T.TEST}
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={!hydrated}
          aria-expanded={preview}
          onClick={() => setPreview((shown) => !shown)}
        >
          {preview ? T.HIDE_PREVIEW : T.SHOW_PREVIEW}
        </button>
      </div>
      <div className="mt-3" aria-live="polite">
        {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      </div>
      {preview && (
        // No allow-* tokens: the e-mail runs no script and cannot reach the page (its own policy says `sandbox` too).
        <iframe
          title={T.PREVIEW_TITLE}
          src={previewUrl(postId)}
          sandbox=""
          className="mt-4 h-[36rem] w-full rounded-lg border border-slate-200 bg-white dark:border-slate-700"
          data-newsletter-preview
        />
      )}
    </section>
  );
}
