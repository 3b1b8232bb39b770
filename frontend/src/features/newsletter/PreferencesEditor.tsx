import { useId, useState } from 'react';
import { useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { errorText } from '../../lib/texts/error-text';
import {
  removeFollowByToken,
  unsubscribeAllByToken,
  updatePreferences,
  type Cadence,
  type Follow,
  type Preferences,
} from './newsletter-api';
import { FOLLOW_ERRORS, NewsletterTexts } from './texts';

/** A list of follows, each with its Remove button (the preferences page and /account). */
export function FollowList({ follows, onRemove, busy }: { follows: Follow[]; onRemove: (follow: Follow) => void; busy: boolean }) {
  if (!follows.length) return <p className="mt-3 text-slate-600 dark:text-slate-400">{NewsletterTexts.NO_FOLLOWS}</p>;
  return (
    <ul
      className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
      data-follow-list
    >
      {follows.map((follow) => (
        <li key={follow.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
          <span className="min-w-0 break-words">
            {follow.kind === 'author' && follow.slug ? (
              <a href={`/authors/${follow.slug}`} className="font-medium underline-offset-2 hover:underline">
                {follow.name}
              </a>
            ) : follow.kind === 'tag' && follow.slug ? (
              <a href={`/blog/tag/${follow.slug}`} className="font-medium underline-offset-2 hover:underline">
                #{follow.name}
              </a>
            ) : (
              <span className="font-medium">{follow.name}</span>
            )}
          </span>
          <button
            type="button"
            className="btn-secondary"
            disabled={busy}
            aria-label={NewsletterTexts.removeLabel(follow.name)}
            onClick={() => onRemove(follow)}
          >
            {NewsletterTexts.REMOVE}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The preferences page's editor (/newsletter/preferences, the signed link: no sign-in): remove a
 * follow, switch between one e-mail per post and a weekly digest on a weekday, unsubscribe from all.
 */
export default function PreferencesEditor({ token, initial }: { token: string; initial: Preferences }) {
  const hydrated = useHydrated();
  const id = useId();
  const [prefs, setPrefs] = useState(initial);
  const [cadence, setCadence] = useState<Cadence>(initial.cadence);
  const [weekday, setWeekday] = useState(initial.digestWeekday ?? 1);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const { busy, run } = useSubmit();

  const act = (action: () => Promise<Preferences>, done?: string) =>
    run(
      async () => {
        setNotice(undefined);
        const next = await action();
        setPrefs(next);
        if (done) setNotice({ kind: 'ok', text: done });
      },
      { onError: (error) => setNotice({ kind: 'error', text: errorText(error, FOLLOW_ERRORS) }) },
    );

  return (
    <div className="mt-8 flex flex-col gap-10">
      <section aria-labelledby={`${id}-follows`}>
        <h2 id={`${id}-follows`} className="font-serif text-xl font-bold">
          {NewsletterTexts.FOLLOWS_HEADING}
        </h2>
        {prefs.status === 'unsubscribed' ? (
          <p className="mt-3 text-slate-600 dark:text-slate-400">{NewsletterTexts.UNSUBSCRIBED_ALL}</p>
        ) : (
          <FollowList
            follows={prefs.follows}
            busy={busy || !hydrated}
            onRemove={(follow) => void act(() => removeFollowByToken(token, follow.id))}
          />
        )}
      </section>
      <section aria-labelledby={`${id}-cadence`}>
        <h2 id={`${id}-cadence`} className="font-serif text-xl font-bold">
          {NewsletterTexts.CADENCE_HEADING}
        </h2>
        <form
          className="mt-3 flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void act(() => updatePreferences(token, cadence, cadence === 'weekly' ? weekday : null), NewsletterTexts.SAVED);
          }}
        >
          <fieldset className="flex flex-col gap-2">
            <legend className="sr-only">{NewsletterTexts.CADENCE_HEADING}</legend>
            <label className="inline-flex items-center gap-2">
              <input type="radio" name={`${id}-cadence-choice`} checked={cadence === 'instant'} onChange={() => setCadence('instant')} />
              {NewsletterTexts.CADENCE_INSTANT}
            </label>
            <label className="inline-flex items-center gap-2">
              <input type="radio" name={`${id}-cadence-choice`} checked={cadence === 'weekly'} onChange={() => setCadence('weekly')} />
              {NewsletterTexts.CADENCE_WEEKLY}
            </label>
          </fieldset>
          {cadence === 'weekly' && (
            <div>
              <label htmlFor={`${id}-weekday`} className="mb-1 block text-sm font-medium">
                {NewsletterTexts.WEEKDAY_LABEL}
              </label>
              <select
                id={`${id}-weekday`}
                value={weekday}
                onChange={(event) => setWeekday(Number(event.target.value))}
                className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-950"
              >
                {NewsletterTexts.WEEKDAYS.map((day, index) => (
                  <option key={day} value={index}>
                    {day}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div>
            <button type="submit" className="btn-primary" disabled={busy || !hydrated}>
              {NewsletterTexts.SAVE}
            </button>
          </div>
        </form>
      </section>
      {prefs.status !== 'unsubscribed' && (
        <section>
          <button
            type="button"
            className="btn-secondary"
            disabled={busy || !hydrated}
            onClick={() => void act(() => unsubscribeAllByToken(token), NewsletterTexts.UNSUBSCRIBED_ALL)}
          >
            {NewsletterTexts.UNSUBSCRIBE_ALL}
          </button>
        </section>
      )}
      {notice && (
        <p
          role={notice.kind === 'error' ? 'alert' : 'status'}
          className={notice.kind === 'error' ? 'text-red-600 dark:text-red-400' : 'text-emerald-700 dark:text-emerald-400'}
        >
          {notice.text}
        </p>
      )}
    </div>
  );
}
