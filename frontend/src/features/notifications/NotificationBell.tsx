import { useEffect, useState } from 'react';
import { NOTIFICATIONS_READ_EVENT, notificationActions, type NotificationsReadDetail } from './notification-actions';
import { NotificationTexts } from './texts';

/** How often the count is read again while the tab is visible (every 60 s). */
const REFRESH_MS = 60_000;
/** Above this the badge says '99+' (the accessible name keeps the exact count). */
const BADGE_MAX = 99;

/**
 * The header's bell: a link to /notifications whose name carries the unread count. The server
 * renders it with the count it read on this navigation, so it is right without JavaScript; once
 * hydrated it reads the count again every 60 s while the tab is visible and as soon as the tab
 * becomes visible again (polling, not server-sent events: docs/decisions.md), and follows the
 * mark-read actions of /notifications at once.
 */
export default function NotificationBell({ initialCount }: { initialCount: number | null }) {
  const [count, setCount] = useState(initialCount);

  useEffect(() => {
    let timer: number | undefined;
    const refresh = async () => {
      try {
        setCount((await notificationActions.unreadCount()).count);
      } catch {
        // Keep the last count: a failed poll (offline, signed out elsewhere) is not news.
      }
    };
    const schedule = () => {
      window.clearInterval(timer);
      timer = document.visibilityState === 'visible' ? window.setInterval(refresh, REFRESH_MS) : undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void refresh();
      schedule();
    };
    const onRead = (event: Event) => {
      const detail = (event as CustomEvent<NotificationsReadDetail>).detail;
      if ('all' in detail) setCount(0);
      else setCount((current) => (current === null ? current : Math.max(0, current - 1)));
    };
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener(NOTIFICATIONS_READ_EVENT, onRead);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener(NOTIFICATIONS_READ_EVENT, onRead);
    };
  }, []);

  const unread = count ?? 0;
  return (
    <a
      href="/notifications"
      className="btn-ghost relative px-1.5 sm:px-2"
      aria-label={count === null ? NotificationTexts.TITLE : NotificationTexts.bell(unread)}
      title={NotificationTexts.TITLE}
      data-testid="notification-bell"
    >
      <svg className="h-5 w-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread > 0 && (
        <span
          className="absolute -right-0.5 -top-0.5 inline-flex h-4 min-w-4 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] font-bold leading-none text-white"
          aria-hidden="true"
          data-testid="notification-badge"
        >
          {unread > BADGE_MAX ? `${BADGE_MAX}+` : unread}
        </span>
      )}
    </a>
  );
}
