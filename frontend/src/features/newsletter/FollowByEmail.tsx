import { useEffect, useId, useState, type FormEvent } from 'react';
import { useHydrated, useViewer } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { errorText } from '../../lib/texts/error-text';
import { describeTarget, follow, myFollows, subscribe, unfollow, type FollowTarget } from './newsletter-api';
import { FOLLOW_ERRORS, NewsletterTexts } from './texts';

interface Props {
  /** What the box offers, the first chosen by default (the post page: its author, then the publication). */
  targets: FollowTarget[];
}

const key = (target: Pick<FollowTarget, 'kind' | 'targetId'>) => `${target.kind}:${target.targetId}`;
const shortName = (target: FollowTarget) => (target.kind === 'publication' ? NewsletterTexts.PUBLICATION_WHAT : target.name);

/**
 * 'Follow by e-mail' on the public pages (the home page, author, tag and post pages). The page is
 * the same HTML for everyone (the page cache): who reads it comes after hydration from the
 * personal fragment (lib/viewer.ts), as for the Like button. A signed-in reader then gets one
 * toggle per target, their state read from GET /newsletter/follows and changed with one call; a
 * visitor gets an e-mail field and 'Follow', which answers 'Check your inbox' (double opt-in)
 * whatever the address.
 */
export default function FollowByEmail({ targets }: Props) {
  const viewer = useViewer();
  const signedIn = viewer.known && viewer.viewer !== null;
  const hydrated = useHydrated();
  const id = useId();
  const [followed, setFollowed] = useState<Set<string>>();
  const [email, setEmail] = useState('');
  const [choice, setChoice] = useState(key(targets[0]));
  const [sent, setSent] = useState(false);
  const [message, setMessage] = useState<string>();
  const { busy, run } = useSubmit();

  useEffect(() => {
    if (!signedIn) return;
    let stale = false;
    myFollows()
      .then((mine) => {
        if (!stale) setFollowed(new Set(mine.follows.map(key)));
      })
      .catch(() => {
        if (!stale) setFollowed(new Set());
      });
    return () => {
      stale = true;
    };
  }, [signedIn]);

  async function toggle(target: FollowTarget) {
    const on = followed?.has(key(target)) ?? false;
    await run(
      async () => {
        setMessage(undefined);
        if (on) await unfollow(target.kind, target.targetId);
        else await follow(target.kind, target.targetId);
        setFollowed((current) => {
          const next = new Set(current);
          if (on) next.delete(key(target));
          else next.add(key(target));
          return next;
        });
      },
      { onError: (error) => setMessage(errorText(error, FOLLOW_ERRORS)) },
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const target = targets.find((item) => key(item) === choice) ?? targets[0];
    if (!email.trim()) {
      setMessage(NewsletterTexts.EMAIL_REQUIRED);
      return;
    }
    await run(
      async () => {
        setMessage(undefined);
        await subscribe(email.trim(), target.kind, target.targetId);
        setSent(true);
      },
      { onError: (error) => setMessage(errorText(error, FOLLOW_ERRORS)) },
    );
  }

  const first = targets[0];
  const pitch =
    first.kind === 'author'
      ? NewsletterTexts.authorPitch(first.name)
      : first.kind === 'tag'
        ? NewsletterTexts.tagPitch(first.name)
        : NewsletterTexts.publicationPitch;

  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900" data-follow-by-email>
      <h2 className="font-serif text-xl font-bold">{NewsletterTexts.BOX_HEADING}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{pitch}</p>
      {signedIn ? (
        <div className="mt-4 flex flex-wrap gap-2">
          {targets.map((target) => {
            const on = followed?.has(key(target)) ?? false;
            return (
              <button
                key={key(target)}
                type="button"
                className={on ? 'btn-secondary' : 'btn-primary'}
                aria-pressed={on}
                disabled={!hydrated || followed === undefined || busy}
                onClick={() => void toggle(target)}
                data-follow-target={key(target)}
              >
                {on ? NewsletterTexts.following(shortName(target)) : NewsletterTexts.follow(shortName(target))}
              </button>
            );
          })}
        </div>
      ) : sent ? (
        <div className="mt-4" role="status" data-follow-sent>
          <p className="font-semibold">{NewsletterTexts.CHECK_INBOX_TITLE}</p>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{NewsletterTexts.CHECK_INBOX}</p>
        </div>
      ) : (
        <form className="mt-4" onSubmit={(event) => void submit(event)} noValidate>
          {targets.length > 1 && (
            <fieldset className="mb-3">
              <legend className="mb-1 text-sm font-medium">{NewsletterTexts.CHOICE_LEGEND}</legend>
              <div className="flex flex-wrap gap-x-5 gap-y-1">
                {targets.map((target) => (
                  <label key={key(target)} className="inline-flex items-center gap-2 text-sm">
                    <input
                      type="radio"
                      name={`${id}-choice`}
                      value={key(target)}
                      checked={choice === key(target)}
                      onChange={() => setChoice(key(target))}
                    />
                    {describeTarget(target)}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          <label htmlFor={`${id}-email`} className="mb-1 block text-sm font-medium">
            {NewsletterTexts.EMAIL_LABEL}
          </label>
          <div className="flex flex-wrap gap-2">
            <input
              id={`${id}-email`}
              type="email"
              autoComplete="email"
              required
              value={email}
              placeholder={NewsletterTexts.EMAIL_PLACEHOLDER}
              onChange={(event) => setEmail(event.target.value)}
              aria-invalid={message ? true : undefined}
              aria-describedby={message ? `${id}-message` : `${id}-hint`}
              className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-950 dark:placeholder:text-slate-400"
            />
            <button type="submit" className="btn-primary" disabled={!hydrated || busy} aria-busy={busy || undefined}>
              {NewsletterTexts.FOLLOW_BUTTON}
            </button>
          </div>
          <p id={`${id}-hint`} className="mt-2 text-xs text-slate-600 dark:text-slate-400">
            {NewsletterTexts.NO_PASSWORD}
          </p>
        </form>
      )}
      {message && (
        <p id={`${id}-message`} className="mt-2 text-sm text-red-600 dark:text-red-400" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
