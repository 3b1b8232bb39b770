/**
 * A modal dialog for the back-office islands: labelled by its title, focus moves into it when it
 * opens (the element marked `data-autofocus`, else the first control), Tab and Shift+Tab stay
 * inside, Escape and a click on the backdrop close it (not while `busy`), and focus goes back to
 * the element that had it before. Also a toast stack with a title and a message per notice.
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface AdminDialogProps {
  title: string;
  /** A line under the title, read with it (aria-describedby). */
  description?: ReactNode;
  onClose: () => void;
  busy?: boolean;
  size?: 'md' | 'lg';
  children: ReactNode;
  /** The dialog's role: 'alertdialog' for confirmations. */
  role?: 'dialog' | 'alertdialog';
}

export function AdminDialog({ title, description, onClose, busy = false, size = 'md', children, role = 'dialog' }: AdminDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const blocked = useRef(busy);
  blocked.current = busy;

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const root = panel.current;
    const first = root?.querySelector<HTMLElement>('[data-autofocus]') ?? root?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? root)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        if (!blocked.current) close.current();
        return;
      }
      if (event.key !== 'Tab' || !root) return;
      const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((item) => item.offsetParent !== null || item === document.activeElement);
      if (items.length === 0) {
        event.preventDefault();
        return;
      }
      const [head, tail] = [items[0], items[items.length - 1]];
      if (event.shiftKey && (document.activeElement === head || !root.contains(document.activeElement))) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && (document.activeElement === tail || !root.contains(document.activeElement))) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center overflow-y-auto bg-slate-950/50 p-4" onMouseDown={(event) => event.target === event.currentTarget && !busy && onClose()}>
      <div
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={`card my-auto max-h-[calc(100vh-2rem)] w-full overflow-y-auto p-6 ${size === 'lg' ? 'max-w-2xl' : 'max-w-md'}`}
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {description && (
          <div id={descriptionId} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {description}
          </div>
        )}
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}

// ---- notices ------------------------------------------------------------------------------

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
          <button type="button" className="rounded px-1 text-xs font-medium underline" onClick={() => onDismiss(notice.id)} aria-label={`Dismiss: ${notice.title}`}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}

/**
 * A confirmation: the question, Cancel and the action's button (focus starts on Cancel, the safe
 * choice). `children` may add a field or a note.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  danger = false,
  busy = false,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  return (
    <AdminDialog title={title} description={message} onClose={onCancel} busy={busy} role="alertdialog">
      {children}
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onCancel} disabled={busy} data-autofocus>
          Cancel
        </button>
        <button type="button" className={danger ? 'btn bg-red-600 text-white hover:bg-red-700' : 'btn-primary'} onClick={onConfirm} disabled={busy}>
          {busy && <span className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-r-transparent" aria-hidden="true" />}
          {confirmLabel}
        </button>
      </div>
    </AdminDialog>
  );
}
