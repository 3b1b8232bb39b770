/**
 * Toasts for the back-office islands: a stack with a title and a message per notice; successes
 * leave after 4 s, failures after 8 s.
 */
import { useCallback, useRef, useState } from 'react';

export interface AdminNotice {
  id: number;
  kind: 'success' | 'error';
  /** 'Review Failed', 'Post approved' ... */
  title: string;
  message?: string;
}

const NOTICE_MS = { success: 4000, error: 8000 } as const;

/** A stack of toasts: successes leave after 4 s, failures after 8 s; each has a Dismiss button. */
export function useNotices() {
  const [notices, setNotices] = useState<AdminNotice[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setNotices((list) => list.filter((notice) => notice.id !== id)), []);
  const notify = useCallback(
    (kind: AdminNotice['kind'], title: string, message?: string) => {
      const id = next.current++;
      setNotices((list) => [...list.slice(-3), { id, kind, title, message }]);
      window.setTimeout(() => dismiss(id), NOTICE_MS[kind]);
    },
    [dismiss],
  );
  return { notices, notify, dismiss };
}

export function NoticeStack({ notices, onDismiss }: { notices: AdminNotice[]; onDismiss: (id: number) => void }) {
  return (
    <div className="pointer-events-none fixed bottom-4 right-4 z-[60] flex w-full max-w-sm flex-col gap-2" aria-live="polite">
      {notices.map((notice) => (
        <div
          key={notice.id}
          role={notice.kind === 'error' ? 'alert' : 'status'}
          data-notice={notice.kind}
          className={`pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${
            notice.kind === 'error'
              ? 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200'
              : 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'
          }`}
        >
          <div className="min-w-0 flex-1">
            <p className="font-semibold">{notice.title}</p>
            {notice.message && <p className="mt-0.5 break-words">{notice.message}</p>}
          </div>
          <button
            type="button"
            className="rounded px-1 text-xs font-medium underline"
            onClick={() => onDismiss(notice.id)}
            aria-label={`Dismiss: ${notice.title}`}
          >
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
