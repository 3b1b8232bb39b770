import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, BusyButton, TextField, useHydrated } from '../../components/islands/form-controls';
import { TableFrame } from '../../components/islands/TableFrame';
import { useSubmit } from '../../components/islands/use-submit';
import { ApiError, firstFieldError } from '../../lib/api/errors';
import { formatDateTime } from '../../lib/dates';
import { errorText } from '../../lib/texts/error-text';
import { INTEGRATIONS_ERRORS, IntegrationsTexts as T, WEBHOOK_EVENT_LABELS } from './texts';
import { webhooksApi, type Webhook, type WebhookAttempt, type WebhookEventName, type WebhookSummary } from './webhooks-api';

const EVENTS = Object.keys(WEBHOOK_EVENT_LABELS) as WebhookEventName[];

type Notice = { kind: 'success' | 'error'; text: string } | undefined;
/** What the panel under the list shows: nothing, the form (new or one webhook), or one webhook's log. */
type Panel = { kind: 'none' } | { kind: 'form'; webhook?: Webhook } | { kind: 'log'; webhook: WebhookSummary };

/**
 * /admin/integrations: the webhooks, a form to add or change one (URL, events, the
 * e-mail opt-in; its secret shown with a copy button), and per webhook 'Send test event' and its
 * delivery log with 'Redeliver'. Every control is a labelled button, link or field.
 */
export default function WebhooksManager({ initial }: { initial: WebhookSummary[] }) {
  const [webhooks, setWebhooks] = useState(initial);
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [notice, setNotice] = useState<Notice>();
  const { busy, run } = useSubmit();
  const hydrated = useHydrated();

  const reload = async () => setWebhooks(await webhooksApi.list());
  const fail = (error: unknown) => setNotice({ kind: 'error', text: errorText(error, INTEGRATIONS_ERRORS) });

  async function edit(webhookId: number) {
    setNotice(undefined);
    await run(async () => setPanel({ kind: 'form', webhook: await webhooksApi.get(webhookId) }), { onError: fail });
  }

  async function remove(webhook: WebhookSummary) {
    if (!window.confirm(T.CONFIRM_DELETE(webhook.url))) return;
    setNotice(undefined);
    await run(
      async () => {
        await webhooksApi.remove(webhook.id);
        setPanel({ kind: 'none' });
        await reload();
        setNotice({ kind: 'success', text: T.DELETED });
      },
      { onError: fail },
    );
  }

  return (
    <div className="space-y-6">
      <section className="card p-4 sm:p-6" aria-labelledby="webhooks-heading">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="webhooks-heading" className="text-lg font-semibold">
            {T.WEBHOOKS}
          </h2>
          <button
            type="button"
            className="btn-primary"
            disabled={!hydrated}
            onClick={() => (setNotice(undefined), setPanel({ kind: 'form' }))}
          >
            {T.ADD}
          </button>
        </div>
        <div aria-live="polite" className="mt-3 empty:hidden">
          {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
        </div>
        {webhooks.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">{T.NONE}</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
            {webhooks.map((webhook) => (
              <li key={webhook.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="break-all font-medium">{webhook.url}</p>
                  <p className="text-sm text-slate-600 dark:text-slate-400">
                    <span className={webhook.active ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}>
                      {webhook.active ? T.ACTIVE : T.OFF}
                    </span>
                    {' · '}
                    {T.eventsCount(webhook.events.length)}
                    {' · '}
                    {webhook.lastAttemptAt
                      ? `${webhook.lastAttemptOk ? T.LAST_OK : T.LAST_FAILED} (${formatDateTime(webhook.lastAttemptAt)})`
                      : T.NEVER}
                  </p>
                  {webhook.disabledReason && <p className="text-sm text-red-700 dark:text-red-400">{webhook.disabledReason}</p>}
                </div>
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    className="btn-secondary"
                    disabled={!hydrated || busy}
                    aria-label={`${T.EDIT} ${webhook.url}`}
                    onClick={() => edit(webhook.id)}
                  >
                    {T.EDIT}
                  </button>
                  <button
                    type="button"
                    className="btn-secondary"
                    disabled={!hydrated}
                    aria-label={`${T.LOG} of ${webhook.url}`}
                    onClick={() => (setNotice(undefined), setPanel({ kind: 'log', webhook }))}
                  >
                    {T.LOG}
                  </button>
                  <button
                    type="button"
                    className="btn-ghost text-red-700 dark:text-red-400"
                    disabled={!hydrated || busy}
                    aria-label={`${T.DELETE} ${webhook.url}`}
                    onClick={() => remove(webhook)}
                  >
                    {T.DELETE}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      {panel.kind === 'form' && (
        <WebhookForm
          key={panel.webhook?.id ?? 'new'}
          webhook={panel.webhook}
          onCancel={() => setPanel({ kind: 'none' })}
          onSaved={async (saved, message) => {
            await reload();
            setPanel({ kind: 'form', webhook: saved });
            setNotice({ kind: 'success', text: message });
          }}
          onShowLog={(saved) => setPanel({ kind: 'log', webhook: saved })}
          onTested={reload}
        />
      )}
      {panel.kind === 'log' && <DeliveryLog key={panel.webhook.id} webhook={panel.webhook} onChanged={reload} />}
    </div>
  );
}

/** Add or change a webhook; after a save it shows the secret to copy. */
function WebhookForm({
  webhook,
  onCancel,
  onSaved,
  onShowLog,
  onTested,
}: {
  webhook?: Webhook;
  onCancel: () => void;
  onSaved: (saved: Webhook, message: string) => Promise<void>;
  onShowLog: (saved: Webhook) => void;
  onTested: () => Promise<void>;
}) {
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<WebhookEventName[]>(webhook?.events ?? []);
  const [includeEmails, setIncludeEmails] = useState(webhook?.includeEmails ?? false);
  const [active, setActive] = useState(webhook?.active ?? true);
  const [rotate, setRotate] = useState(false);
  const [errors, setErrors] = useState<{ url?: string; events?: string; form?: string }>({});
  const { busy, run } = useSubmit();
  const hydrated = useHydrated();
  const headingId = useId();
  const eventsHint = useId();

  const toggle = (name: WebhookEventName) =>
    setEvents((current) => (current.includes(name) ? current.filter((e) => e !== name) : [...current, name]));

  async function save(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    await run(
      async () => {
        const ordered = EVENTS.filter((name) => events.includes(name));
        const { data, message } = webhook
          ? await webhooksApi.update(webhook.id, { url, events: ordered, includeEmails, active, ...(rotate ? { rotateSecret: true } : {}) })
          : await webhooksApi.create({ url, events: ordered, includeEmails, active: true });
        setRotate(false);
        await onSaved(data, message ?? '');
      },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.errors)
            setErrors({ url: error.errors.url?.[0], events: error.errors.events?.[0], form: firstFieldError(error) });
          else setErrors({ form: errorText(error, INTEGRATIONS_ERRORS) });
        },
      },
    );
  }

  return (
    <section className="card p-4 sm:p-6" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {webhook ? T.EDIT_TITLE : T.NEW_TITLE}
      </h2>
      <form className="mt-4 space-y-4" onSubmit={save} noValidate>
        {errors.form && <Alert>{errors.form}</Alert>}
        <TextField
          label={T.URL}
          type="url"
          inputMode="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={errors.url}
          hint={<p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{T.URL_HINT}</p>}
          required
        />
        <fieldset aria-describedby={errors.events ? eventsHint : undefined}>
          <legend className="mb-2 text-sm font-medium">{T.EVENTS}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {EVENTS.map((name) => (
              <label key={name} className="flex items-start gap-2 text-sm">
                <input type="checkbox" className="mt-0.5" checked={events.includes(name)} onChange={() => toggle(name)} />
                <span>
                  {WEBHOOK_EVENT_LABELS[name]} <code className="text-xs text-slate-500 dark:text-slate-400">{name}</code>
                </span>
              </label>
            ))}
          </div>
          {errors.events && (
            <p id={eventsHint} className="mt-1 text-sm text-red-600 dark:text-red-400">
              {errors.events}
            </p>
          )}
        </fieldset>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-0.5" checked={includeEmails} onChange={(e) => setIncludeEmails(e.target.checked)} />
          <span>
            {T.INCLUDE_EMAILS}
            <span className="block text-xs text-slate-500 dark:text-slate-400">{T.INCLUDE_EMAILS_HINT}</span>
          </span>
        </label>
        {webhook && (
          <>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
              {T.ACTIVE_LABEL}
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={rotate} onChange={(e) => setRotate(e.target.checked)} />
              {T.ROTATE}
            </label>
          </>
        )}
        <div className="flex flex-wrap gap-2">
          <BusyButton type="submit" busy={busy} disabled={!hydrated} className="btn-primary">
            {webhook ? T.SAVE : T.CREATE}
          </BusyButton>
          <button type="button" className="btn-secondary" onClick={onCancel}>
            {T.CANCEL}
          </button>
          {webhook && (
            <button type="button" className="btn-secondary" onClick={() => onShowLog(webhook)}>
              {T.LOG}
            </button>
          )}
        </div>
      </form>
      {webhook?.secret && (
        <SecretField secret={webhook.secret} test={webhook.active ? <TestEvent webhookId={webhook.id} onTested={onTested} /> : undefined} />
      )}
    </section>
  );
}

/** 'Send test event' beside a new secret: the receiver can be checked at once, before any real event. */
function TestEvent({ webhookId, onTested }: { webhookId: number; onTested: () => Promise<void> }) {
  const [notice, setNotice] = useState<Notice>();
  const { busy, run } = useSubmit();
  const hydrated = useHydrated();
  async function send() {
    setNotice(undefined);
    await run(
      async () => {
        const { data, message } = await webhooksApi.test(webhookId);
        await onTested();
        setNotice({ kind: data.ok ? 'success' : 'error', text: `${message ?? ''} ${describe(data)}`.trim() });
      },
      { onError: (error) => setNotice({ kind: 'error', text: errorText(error, INTEGRATIONS_ERRORS) }) },
    );
  }
  return (
    <div className="mt-3">
      <BusyButton busy={busy} disabled={!hydrated} className="btn-secondary" onClick={send}>
        {T.TEST}
      </BusyButton>
      <div aria-live="polite" className="mt-2 empty:hidden">
        {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      </div>
    </div>
  );
}

/** The signing secret, read-only, with a copy button (and, right after it is drawn, 'Send test event'). */
function SecretField({ secret, test }: { secret: string; test?: ReactNode }) {
  const id = useId();
  const [copied, setCopied] = useState<string>();
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(T.COPIED);
    } catch {
      setCopied(T.COPY_FAILED);
    }
  }
  return (
    <div className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-800">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {T.SECRET}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          readOnly
          value={secret}
          className="block w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-950"
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="btn-secondary shrink-0" onClick={copy}>
          {T.COPY}
        </button>
      </div>
      <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{T.SECRET_HINT}</p>
      <p aria-live="polite" className="mt-1 text-sm empty:hidden">
        {copied}
      </p>
      {test}
    </div>
  );
}

/** 'Send test event' and the delivery log with 'Redeliver'. */
function DeliveryLog({ webhook, onChanged }: { webhook: WebhookSummary; onChanged: () => Promise<void> }) {
  const [attempts, setAttempts] = useState<WebhookAttempt[]>();
  const [notice, setNotice] = useState<Notice>();
  const { busy, run } = useSubmit();
  const headingId = useId();
  const hydrated = useHydrated();

  const refresh = async () => setAttempts(await webhooksApi.attempts(webhook.id));
  useEffect(() => {
    void run(refresh, { onError: (error) => setNotice({ kind: 'error', text: errorText(error, INTEGRATIONS_ERRORS) }) });
    // Once per webhook shown (the panel is keyed by it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function act(action: () => Promise<Notice>) {
    setNotice(undefined);
    await run(
      async () => {
        const result = await action();
        await Promise.all([refresh(), onChanged()]);
        setNotice(result);
      },
      { onError: (error) => setNotice({ kind: 'error', text: errorText(error, INTEGRATIONS_ERRORS) }) },
    );
  }

  const sendTest = () =>
    act(async () => {
      const { data, message } = await webhooksApi.test(webhook.id);
      return { kind: data.ok ? 'success' : 'error', text: `${message ?? ''} ${describe(data)}`.trim() };
    });
  const redeliver = (attempt: WebhookAttempt) =>
    act(async () => {
      const { message } = await webhooksApi.redeliver(webhook.id, attempt.deliveryId);
      return { kind: 'success', text: message ?? '' };
    });

  return (
    <section className="card p-4 sm:p-6" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="min-w-0 break-all text-lg font-semibold">
          {T.LOG_TITLE(webhook.url)}
        </h2>
        <div className="flex flex-wrap gap-2">
          <BusyButton busy={busy} disabled={!hydrated || !webhook.active} className="btn-primary" onClick={sendTest}>
            {T.TEST}
          </BusyButton>
          <button type="button" className="btn-secondary" disabled={!hydrated || busy} onClick={() => act(async () => undefined)}>
            {T.REFRESH}
          </button>
        </div>
      </div>
      <div aria-live="polite" className="mt-3 empty:hidden">
        {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      </div>
      {attempts && attempts.length === 0 && <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">{T.LOG_EMPTY}</p>}
      {attempts && attempts.length > 0 && (
        <div className="mt-4">
          <TableFrame label={T.LOG_REGION}>
            <table className="w-full min-w-[46rem] text-left text-sm [overflow-wrap:break-word]">
              <caption className="sr-only">{T.LOG_CAPTION}</caption>
              <thead className="bg-slate-50 dark:bg-slate-950">
                <tr className="border-b border-slate-200 dark:border-slate-800">
                  <th scope="col" className="whitespace-nowrap px-3 py-2 font-medium">
                    {T.WHEN}
                  </th>
                  <th scope="col" className="whitespace-nowrap px-3 py-2 font-medium">
                    {T.EVENT}
                  </th>
                  <th scope="col" className="whitespace-nowrap px-3 py-2 font-medium">
                    {T.RESULT}
                  </th>
                  <th scope="col" className="whitespace-nowrap px-3 py-2 font-medium">
                    {T.DURATION}
                  </th>
                  <th scope="col" className="whitespace-nowrap px-3 py-2 font-medium">
                    {T.RESPONSE}
                  </th>
                  <th scope="col" className="whitespace-nowrap px-3 py-2 font-medium">
                    {T.DELIVERY}
                  </th>
                </tr>
              </thead>
              <tbody>
                {attempts.map((attempt) => {
                  const when = formatDateTime(attempt.attemptedAt);
                  return (
                    <tr key={attempt.id} className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/60">
                      <td className="whitespace-nowrap px-3 py-2">{when}</td>
                      <td className="whitespace-nowrap px-3 py-2">
                        <code className="text-xs">{attempt.event}</code>
                      </td>
                      <td
                        className={`whitespace-nowrap px-3 py-2 ${attempt.ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}`}
                      >
                        {describe(attempt)}
                      </td>
                      <td className="whitespace-nowrap px-3 py-2">{T.ms(attempt.durationMs)}</td>
                      <td className="min-w-40 max-w-64 px-3 py-2 text-xs text-slate-600 dark:text-slate-400">{attempt.responseExcerpt}</td>
                      <td className="whitespace-nowrap px-3 py-2">
                        {/* This attempt's own outcome, not the delivery's state now (a failed attempt stays 'Failed' after a redelivery succeeds). */}
                        <span
                          className={`block text-xs ${attempt.ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}`}
                        >
                          {attempt.ok ? T.ATTEMPT_OK : T.ATTEMPT_FAILED}
                        </span>
                        <button
                          type="button"
                          className="btn-ghost px-2 py-1"
                          disabled={!hydrated || busy || !webhook.active}
                          aria-label={T.redeliverLabel(attempt.event, when)}
                          onClick={() => redeliver(attempt)}
                        >
                          {T.REDELIVER}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableFrame>
        </div>
      )}
    </section>
  );
}

/** An attempt's result in a few words: the HTTP status, or what went wrong. */
function describe(attempt: Pick<WebhookAttempt, 'statusCode' | 'error'>): string {
  return attempt.statusCode !== null ? T.httpStatus(attempt.statusCode) : (attempt.error ?? '');
}
