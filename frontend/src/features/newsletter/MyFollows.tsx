import { useEffect, useState } from 'react';
import { useSubmit } from '../../components/islands/use-submit';
import { errorText } from '../../lib/texts/error-text';
import { myFollows, unfollow, type Follow } from './newsletter-api';
import { FollowList } from './PreferencesEditor';
import { FOLLOW_ERRORS, NewsletterTexts } from './texts';

/** /account → Newsletter: the reader's e-mail follows, each with Remove. */
export default function MyFollows() {
  const [follows, setFollows] = useState<Follow[]>();
  const [message, setMessage] = useState<string>();
  const { busy, run } = useSubmit();

  useEffect(() => {
    myFollows()
      .then((mine) => setFollows(mine.follows))
      .catch((error: unknown) => {
        setFollows([]);
        setMessage(errorText(error, FOLLOW_ERRORS));
      });
  }, []);

  return (
    <div data-my-follows>
      <p className="text-sm text-slate-600 dark:text-slate-400">{NewsletterTexts.ACCOUNT_INTRO}</p>
      {follows === undefined ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400" aria-busy="true">
          …
        </p>
      ) : follows.length === 0 ? (
        <p className="mt-3 text-slate-600 dark:text-slate-400">{NewsletterTexts.ACCOUNT_EMPTY}</p>
      ) : (
        <FollowList
          follows={follows}
          busy={busy}
          onRemove={(follow) =>
            void run(
              async () => {
                setMessage(undefined);
                await unfollow(follow.kind, follow.targetId);
                setFollows((current) => current?.filter((item) => item.id !== follow.id));
              },
              { onError: (error) => setMessage(errorText(error, FOLLOW_ERRORS)) },
            )
          }
        />
      )}
      {message && (
        <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {message}
        </p>
      )}
    </div>
  );
}
