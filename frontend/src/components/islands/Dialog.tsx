/**
 * The one modal dialog of the islands (back office, editor, account, comments): labelled by its
 * heading, focus moves into it when it opens (the element marked `data-autofocus`, else the first
 * control), Tab and Shift+Tab stay inside, Escape and a click on the backdrop close it (not while
 * `busy`), and focus goes back to the element that had it before.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  /** Rendered only while open (default): an owner may also keep it mounted and pass `open`. */
  open?: boolean;
  onClose: () => void;
  /** The id of the dialog's heading. */
  labelledBy: string;
  describedBy?: string;
  /** While true, Escape and the backdrop do not close it. */
  busy?: boolean;
  /** The dialog's role: 'alertdialog' for confirmations. */
  role?: 'dialog' | 'alertdialog';
  /** The panel's width and padding. */
  className?: string;
  children: ReactNode;
}

/** The modal panel itself, for dialogs that lay out their own heading (preview, history, conflict). */
export function Modal({ open = true, ...props }: ModalProps) {
  return open ? <OpenModal {...props} /> : null;
}

function OpenModal({
  onClose,
  labelledBy,
  describedBy,
  busy = false,
  role = 'dialog',
  className = 'max-w-md p-6',
  children,
}: Omit<ModalProps, 'open'>) {
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
      const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (item) => item.offsetParent !== null || item === document.activeElement,
      );
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
    // A press on the backdrop closes, as Escape does for keyboard users (handled above).
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div
      className="fixed inset-0 z-50 flex items-center justify-center overflow-y-auto bg-slate-950/50 p-4"
      onMouseDown={(event) => event.target === event.currentTarget && !blocked.current && close.current()}
    >
      <div
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        className={`card my-auto max-h-[calc(100vh-2rem)] w-full overflow-y-auto text-slate-900 dark:text-slate-100 ${className}`}
      >
        {children}
      </div>
    </div>
  );
}

interface DialogProps {
  title: string;
  /** A line under the title, read with it (aria-describedby). */
  description?: ReactNode;
  onClose: () => void;
  busy?: boolean;
  size?: 'md' | 'lg';
  children: ReactNode;
  role?: 'dialog' | 'alertdialog';
}

/** A dialog with a title, an optional description and its content. */
export function Dialog({ title, description, onClose, busy = false, size = 'md', children, role = 'dialog' }: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Modal
      onClose={onClose}
      busy={busy}
      role={role}
      labelledBy={titleId}
      describedBy={description ? descriptionId : undefined}
      className={`p-6 ${size === 'lg' ? 'max-w-2xl' : 'max-w-md'}`}
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
    </Modal>
  );
}

/**
 * A confirmation (instead of window.confirm): the question, Cancel and the action's button (focus
 * starts on Cancel, the safe choice). `children` may add a field or a note.
 */
export function ConfirmDialog({
  open = true,
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger = false,
  busy = false,
  role = 'alertdialog',
  onConfirm,
  onCancel,
  children,
}: {
  open?: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  role?: 'dialog' | 'alertdialog';
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  if (!open) return null;
  return (
    <Dialog title={title} description={message} onClose={onCancel} busy={busy} role={role}>
      {children}
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onCancel} disabled={busy} data-autofocus>
          {cancelLabel}
        </button>
        <button
          type="button"
          className={danger ? 'btn bg-red-600 text-white hover:bg-red-700' : 'btn-primary'}
          onClick={onConfirm}
          disabled={busy}
        >
          {busy && (
            <span
              className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-r-transparent"
              aria-hidden="true"
            />
          )}
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
