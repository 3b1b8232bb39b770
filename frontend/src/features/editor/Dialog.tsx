/**
 * The editor's dialogs on the native modal <dialog>: the rest of the page is inert while one is
 * open (focus stays inside), Escape and a click on the backdrop close it, and focus goes back to
 * the control that opened it.
 */
import { useEffect, useRef, type ReactNode } from 'react';

interface ModalProps {
  open: boolean;
  onClose: () => void;
  /** The id of the dialog's heading. */
  labelledBy: string;
  describedBy?: string;
  className?: string;
  children: ReactNode;
}

export function Modal({ open, onClose, labelledBy, describedBy, className = 'max-w-md', children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const isOpen = useRef(open);
  isOpen.current = open;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      // Focus starts on the control marked data-autofocus (else the first button), never on the dialog box itself.
      (dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>('button'))?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  // Focus goes back to the opener once the dialog is gone (also when it unmounts while open).
  useEffect(() => {
    if (open) return;
    const element = opener.current;
    opener.current = null;
    if (element instanceof HTMLElement && element.isConnected) element.focus();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className={`card m-auto w-[calc(100%-2rem)] p-0 text-slate-900 backdrop:bg-slate-950/60 dark:text-slate-100 ${className}`}
      onCancel={(event) => {
        // Escape: the owner decides (it may be busy); the dialog closes when `open` turns false.
        event.preventDefault();
        close.current();
      }}
      onClose={() => {
        // Closed by the browser itself (Chromium may close on Escape without a cancel event): tell the owner.
        if (isOpen.current) close.current();
      }}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) close.current();
      }}
    >
      {open && children}
    </dialog>
  );
}

interface ConfirmProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** A destructive action (red button). Focus starts on Cancel either way. */
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no question (instead of window.confirm): 'Continue anyway?', 'Remove featured image?'. */
export function ConfirmDialog({ open, title, message, confirmLabel, cancelLabel = 'Cancel', danger = false, onConfirm, onCancel }: ConfirmProps) {
  const id = `confirm-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Modal open={open} onClose={onCancel} labelledBy={`${id}-title`} describedBy={`${id}-message`}>
      <div className="p-6">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        <div id={`${id}-message`} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          {message}
        </div>
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={onCancel} data-autofocus>
            {cancelLabel}
          </button>
          <button type="button" className={danger ? 'btn bg-red-600 text-white hover:bg-red-700' : 'btn-primary'} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </Modal>
  );
}
