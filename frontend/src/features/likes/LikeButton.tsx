import { useEffect, useRef, useState } from 'react';
import { useHydrated, useViewer } from '../../components/islands/form-controls';
import { formatCount } from '../../lib/format';
import { countNoun, nounFor, Nouns } from '../../lib/texts/nouns';
import { errorText } from '../../lib/texts/error-text';
import { ApiError } from '../../lib/api/errors';
import { useSubmit } from '../../components/islands/use-submit';
import { LIKE_ERRORS, LikesTexts, UNLIKE_ERRORS } from './texts';
import { fetchLikeCount, fetchLikeStatus, toggleLike, type LikeState } from './like-api';
import { whenViewerKnown } from '../../lib/viewer';

interface Props {
  postId: number;
  /** The count the server rendered (the anonymous page may come from the page cache: refreshed after hydration). */
  initialCount: number;
  /** The login page, coming back to this post. */
  loginHref: string;
}

/** Elements elsewhere on the page that show the same count ('3 likes' in the post's meta line). */
function showCountElsewhere(count: number): void {
  for (const element of document.querySelectorAll('[data-live-like-count]')) element.textContent = countNoun(count, Nouns.LIKE);
}

/**
 * The post page's Like button (docs/requirements.md#screen-post, docs/requirements.md#like-toggle, docs/requirements.md#validation-like): red when liked, with the count. After
 * hydration it reads the live count (public) and, for a signed-in reader, whether they like the
 * post. A press toggles at once (optimistic) and takes the server's answer; a failure puts the
 * previous state back and says why. A visitor's press shows the login message with a link.
 * The page is the same for everyone: who reads it comes from the personal fragment (lib/viewer.ts);
 * a press before that is known waits for it rather than answering as to a visitor.
 */
export default function LikeButton({ postId, initialCount, loginHref }: Props) {
  const viewer = useViewer();
  const known = viewer.known;
  const signedIn = viewer.known && viewer.viewer !== null;
  const [state, setState] = useState<LikeState>({ liked: false, count: initialCount });
  // What a press that waited for the reader reads after its await (the state may have moved on).
  const current = useRef(state);
  current.current = state;
  const [waiting, setWaiting] = useState(false);
  const [message, setMessage] = useState<{ kind: 'login' | 'error'; text: string }>();
  const { busy: pending, run } = useSubmit();
  const pressed = useRef(false);
  // Disabled until live: a press before hydration would otherwise do nothing and say nothing.
  const hydrated = useHydrated();

  useEffect(() => {
    if (!known) return;
    let stale = false;
    const load = async () => {
      // A signed-in reader's status carries the count; a visitor (or a failed status) reads the public count.
      const status = signedIn ? await fetchLikeStatus(postId).catch(() => undefined) : undefined;
      const count = status ? status.count : await fetchLikeCount(postId).catch(() => undefined);
      if (stale || pressed.current || count === undefined) return;
      setState((current) => ({ liked: status ? status.liked : current.liked, count }));
    };
    void load();
    return () => {
      stale = true;
    };
  }, [postId, known, signedIn]);

  useEffect(() => {
    if (state.count !== initialCount || pressed.current) showCountElsewhere(state.count);
  }, [state.count, initialCount]);

  async function press() {
    if (waiting) return;
    setWaiting(true);
    const reader = await whenViewerKnown();
    setWaiting(false);
    if (!reader) {
      setMessage({ kind: 'login', text: LikesTexts.LOGIN_REQUIRED });
      return;
    }
    const before = current.current;
    const liking = !before.liked;
    await run(
      async () => {
        pressed.current = true;
        setMessage(undefined);
        // Shown at once; the server's answer (or the state before, on a failure) follows.
        setState({ liked: liking, count: Math.max(0, before.count + (liking ? 1 : -1)) });
        setState(await toggleLike(postId));
      },
      {
        onError: (error) => {
          setState(before);
          // A signed-out session (401) is offered the sign-in link, anything else says what failed.
          const kind = error instanceof ApiError && error.status === 401 ? 'login' : 'error';
          setMessage({ kind, text: errorText(error, liking ? LIKE_ERRORS : UNLIKE_ERRORS) });
        },
      },
    );
  }

  const { liked, count } = state;
  return (
    <div className="inline-flex flex-wrap items-center gap-x-3 gap-y-1">
      <button
        type="button"
        onClick={press}
        disabled={!hydrated}
        aria-pressed={liked}
        aria-busy={pending || waiting || undefined}
        data-liked={liked}
        className={`btn border ${
          liked
            ? 'border-rose-300 bg-rose-50 text-rose-700 hover:bg-rose-100 dark:border-rose-800 dark:bg-rose-950 dark:text-rose-200 dark:hover:bg-rose-900'
            : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800'
        }`}
      >
        <svg
          className={`h-4 w-4 ${liked ? 'text-rose-600 dark:text-rose-400' : 'text-rose-500'}`}
          viewBox="0 0 24 24"
          fill={liked ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
        >
          <path d="M12 21s-7.5-4.6-9.6-9.3C.9 8.2 3.1 4.5 6.8 4.5c2.1 0 3.6 1.1 5.2 3 1.6-1.9 3.1-3 5.2-3 3.7 0 5.9 3.7 4.4 7.2C19.5 16.4 12 21 12 21z" />
        </svg>
        <span className="sr-only">Like</span>
        <span data-testid="like-count">{formatCount(count)}</span>
        <span className="sr-only">{nounFor(count, Nouns.LIKE)}</span>
      </button>
      <p aria-live="polite" className="text-sm">
        {message?.kind === 'login' && (
          <span className="text-slate-700 dark:text-slate-300">
            {message.text}{' '}
            <a href={loginHref} className="font-medium text-brand-700 underline dark:text-brand-100">
              Log in
            </a>
          </span>
        )}
        {message?.kind === 'error' && (
          <span role="alert" className="text-red-700 dark:text-red-300">
            {message.text}
          </span>
        )}
      </p>
    </div>
  );
}
