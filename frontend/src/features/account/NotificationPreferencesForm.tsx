import { useState, type FormEvent } from 'react';
import { Alert, BusyButton, useHydrated } from '../../components/islands/form-controls';
import { useKeepTyped } from '../../components/islands/keep-typed';
import { TableFrame } from '../../components/islands/TableFrame';
import { notificationActions } from '../notifications';
import type { NotificationPreferences } from '../notifications';
import { EVENT_LABELS, notificationErrorMessage, PreferenceTexts } from '../notifications';
import { useSubmit } from '../../components/islands/use-submit';

type Channel = 'inApp' | 'email';
const CHANNELS: { key: Channel; label: string }[] = [
  { key: 'inApp', label: PreferenceTexts.IN_APP },
  { key: 'email', label: PreferenceTexts.EMAIL },
];

/**
 * The notification preferences card of /account: one row per event type the
 * user's roles can receive (the API lists only those), a checkbox per channel, and the hourly
 * digest. Saved as a whole with Save; the answer is what the card shows next.
 */
export default function NotificationPreferencesForm({ initial }: { initial: NotificationPreferences }) {
  const [saved, setSaved] = useState(initial);
  const [draft, setDraft] = useState(initial);
  const { busy, run } = useSubmit();
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string }>();
  const hydrated = useHydrated();
  const keepTyped = useKeepTyped();

  const toggle = (type: string, channel: Channel) => () => {
    setResult(undefined);
    setDraft((current) => ({
      ...current,
      events: current.events.map((event) => (event.type === type ? { ...event, [channel]: !event[channel] } : event)),
    }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    setResult(undefined);
    await run(
      async () => {
        const next = await notificationActions.savePreferences(draft);
        setSaved(next);
        setDraft(next);
        setResult({ kind: 'success', text: PreferenceTexts.SAVED });
      },
      { onError: (failure) => setResult({ kind: 'error', text: notificationErrorMessage(failure, PreferenceTexts.SAVE_FAILED) }) },
    );
  }

  const changed = JSON.stringify(saved) !== JSON.stringify(draft);
  return (
    <section className="card p-6" aria-labelledby="notification-preferences-heading">
      <h2 id="notification-preferences-heading" className="text-lg font-semibold">
        {PreferenceTexts.TITLE}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{PreferenceTexts.INTRO}</p>
      <form {...keepTyped} className="mt-4 space-y-4" onSubmit={save} noValidate>
        <TableFrame label={PreferenceTexts.TABLE_LABEL}>
          <table className="w-full text-left text-sm [overflow-wrap:break-word]">
            <caption className="sr-only">{PreferenceTexts.TITLE}</caption>
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-800">
                <th scope="col" className="py-2 pl-3 pr-2 font-medium">
                  {PreferenceTexts.EVENT}
                </th>
                {CHANNELS.map((channel) => (
                  <th key={channel.key} scope="col" className="w-16 px-1 py-2 text-center font-medium sm:w-20">
                    {channel.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {draft.events.map((event) => {
                const label = EVENT_LABELS[event.type] ?? event.type;
                return (
                  <tr key={event.type} className="border-b border-slate-100 last:border-0 dark:border-slate-800/60">
                    <th scope="row" className="py-2 pl-3 pr-2 font-normal">
                      {label}
                    </th>
                    {CHANNELS.map((channel) => (
                      <td key={channel.key} className="px-1 py-2 text-center">
                        <input
                          type="checkbox"
                          name={`${event.type}.${channel.key}`}
                          aria-label={PreferenceTexts.checkbox(label, channel.label)}
                          checked={event[channel.key]}
                          onChange={toggle(event.type, channel.key)}
                          className="h-4 w-4 rounded border-slate-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                        />
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableFrame>
        <div className="flex items-start gap-3">
          <input
            id="notification-digest"
            type="checkbox"
            name="digest"
            checked={draft.digest}
            onChange={() => {
              setResult(undefined);
              setDraft((current) => ({ ...current, digest: !current.digest }));
            }}
            aria-describedby="notification-digest-hint"
            className="mt-0.5 h-4 w-4 rounded border-slate-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          />
          <div>
            <label htmlFor="notification-digest" className="text-sm font-medium">
              {PreferenceTexts.DIGEST}
            </label>
            <p id="notification-digest-hint" className="text-xs text-slate-600 dark:text-slate-400">
              {PreferenceTexts.DIGEST_HINT}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <BusyButton type="submit" className="btn-primary" busy={busy} disabled={!hydrated || !changed}>
            {PreferenceTexts.SAVE}
          </BusyButton>
        </div>
        <div aria-live="polite">{result && <Alert kind={result.kind}>{result.text}</Alert>}</div>
      </form>
    </section>
  );
}
