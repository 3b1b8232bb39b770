import { useEffect, useState, type MouseEvent } from 'react';
import { BusyButton } from '../../components/islands/form-controls';
import { announceRead, NOTIFICATIONS_READ_EVENT, notificationActions, type NotificationsReadDetail } from './notification-actions';
import type { Segment } from './notifications';
import { NotificationTexts, notificationErrorMessage } from './texts';
import { useSubmit } from '../../components/islands/use-submit';

export interface NotificationEntryProps {
  id: number;
  read: boolean;
  segments: Segment[];
  reason: string | null;
  link: string;
  /** The time, written by the server with the site's date rule, and its ISO form. */
  time: string;
  isoTime: string;
}

/** A plain left click: the ones the island may hold back to mark the entry read first. */
const plainClick = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * One entry of /notifications: who did what on which post, the reason where there is one, the
 * time and the link. Rendered on the server for every entry (reading needs no JavaScript);
 * hydrated only while unread: opening the link marks it read before the browser goes there, and
 * 'Mark as read' does it in place.
 */
export default function NotificationEntry({ id, read: initiallyRead, segments, reason, link, time, isoTime }: NotificationEntryProps) {
  const [read, setRead] = useState(initiallyRead);
  const { busy, failure: error, run } = useSubmit();

  useEffect(() => {
    const onRead = (event: Event) => {
      const detail = (event as CustomEvent<NotificationsReadDetail>).detail;
      if ('all' in detail) setRead(true);
    };
    window.addEventListener(NOTIFICATIONS_READ_EVENT, onRead);
    return () => window.removeEventListener(NOTIFICATIONS_READ_EVENT, onRead);
  }, []);

  async function markRead(): Promise<boolean> {
    const marked = await run(
      async () => {
        await notificationActions.markRead(id);
        setRead(true);
        announceRead({ id });
      },
      { failure: (failure) => notificationErrorMessage(failure, NotificationTexts.MARK_FAILED) },
    );
    return marked.ok;
  }

  async function open(event: MouseEvent<HTMLAnchorElement>) {
    if (read) return;
    if (!plainClick(event)) {
      // A new tab or window: the link opens as usual, and the entry is marked read meanwhile.
      void markRead();
      return;
    }
    event.preventDefault();
    // Marked or not, the reader goes where they clicked (the entry simply stays unread on failure).
    await markRead();
    window.location.assign(link);
  }

  return (
    <article
      aria-labelledby={`notification-${id}`}
      className={`flex gap-3 rounded-lg p-3 ${read ? '' : 'bg-brand-50 dark:bg-slate-800'}`}
      data-notification={id}
      data-read={read ? 'true' : 'false'}
    >
      <span className={`mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full ${read ? 'bg-transparent' : 'bg-brand-600'}`} aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p id={`notification-${id}`} className="break-words text-sm">
          {!read && <span className="sr-only">{NotificationTexts.UNREAD}: </span>}
          <a href={link} onClick={open} className="text-slate-900 hover:underline dark:text-slate-100">
            {segments.map((segment, index) =>
              segment.strong ? <strong key={index}>{segment.text}</strong> : <span key={index}>{segment.text}</span>,
            )}
          </a>
        </p>
        {reason && (
          <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium">{NotificationTexts.REASON}</span> {reason}
          </p>
        )}
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
          <time className="text-xs text-slate-600 dark:text-slate-400" dateTime={isoTime}>
            {time}
          </time>
          {!read && (
            <BusyButton className="btn-ghost px-2 py-1 text-xs" onClick={() => void markRead()} busy={busy}>
              {NotificationTexts.MARK_READ}
              <span className="sr-only">: {segments.map((segment) => segment.text).join('')}</span>
            </BusyButton>
          )}
        </div>
        {error && (
          <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
      </div>
    </article>
  );
}
