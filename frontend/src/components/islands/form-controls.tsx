/**
 * Small React pieces the account islands share (not hydrated on their own): labelled fields
 * with their error, the password field with show/hide, alerts, toasts, the strength meter and
 * the avatar.
 */
import { useEffect, useId, useState, useSyncExternalStore, type InputHTMLAttributes, type ReactNode } from 'react';
import { passwordStrength, type StrengthLevel } from '../../lib/password-rules';
import { AVATAR_SIZES, avatarGradient, initials, type AvatarSize } from '../../lib/session';
import { serverViewerState, subscribeViewer, viewerState, type ViewerState } from '../../lib/viewer';

/**
 * False in the server's HTML and until React runs: submit buttons stay disabled until then, so an
 * early click cannot send the form natively (a GET that would put the fields in the URL).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * The reader of a public page (lib/viewer.ts), for an island: unknown on the server and while
 * hydrating (so the hydrated HTML is the server's), then the page's state, re-rendering when the
 * personal fragment has said who it is. Here, beside useHydrated, rather than in a module of its
 * own: the islands that read it load this file anyway, and the post page's script budget is tight.
 */
export function useViewer(): ViewerState {
  return useSyncExternalStore(subscribeViewer, viewerState, serverViewerState);
}

const INPUT =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950 dark:placeholder:text-slate-400';
const INPUT_ERROR = 'border-red-500 focus:border-red-500 focus:ring-red-500/30 dark:border-red-500';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** A field's label above its control, then the hint and the error the control points to. */
export function FieldFrame({
  id,
  label,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {children}
      {hint}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

export function TextField({ label, error, hint, className, ...input }: FieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <input
        id={id}
        className={`${INPUT} ${error ? INPUT_ERROR : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
      />
    </FieldFrame>
  );
}

interface TextAreaFieldProps {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** A line under the field, read with it. */
  hint?: string;
  /** The textarea's id (another control may focus it); a generated one otherwise. */
  id?: string;
  name?: string;
  rows?: number;
  maxLength?: number;
  placeholder?: string;
  required?: boolean;
  /** Focus starts here when its dialog opens. */
  autoFocus?: boolean;
  className?: string;
}

/** A labelled textarea (reasons, notes) with its hint and error, as TextField is for inputs. */
export function TextAreaField({
  label,
  value,
  onChange,
  error,
  hint,
  id: givenId,
  name,
  rows = 3,
  maxLength,
  placeholder,
  required,
  autoFocus,
  className,
}: TextAreaFieldProps) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  const hintLine = hint ? (
    <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
      {hint}
    </p>
  ) : undefined;
  return (
    <FieldFrame id={id} label={label} error={error} hint={hintLine} className={className}>
      <textarea
        id={id}
        name={name}
        rows={rows}
        maxLength={maxLength}
        value={value}
        placeholder={placeholder}
        required={required}
        onChange={(event) => onChange(event.target.value)}
        className={`${INPUT} ${error ? INPUT_ERROR : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        {...(autoFocus ? { 'data-autofocus': true } : {})}
      />
    </FieldFrame>
  );
}

export function PasswordField({ label, error, hint, className, ...input }: FieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <div className="relative">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          className={`${INPUT} pr-16 ${error ? INPUT_ERROR : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...input}
        />
        <button
          type="button"
          className="absolute inset-y-0 right-0 rounded-r-lg px-3 text-xs font-medium text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          aria-controls={id}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </FieldFrame>
  );
}

export function Alert({ kind = 'error', children }: { kind?: 'error' | 'success' | 'info'; children: ReactNode }) {
  const styles = {
    error: 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200',
    success: 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
    info: 'border-sky-200 bg-sky-50 text-sky-800 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-200',
  }[kind];
  return (
    <div role={kind === 'error' ? 'alert' : 'status'} className={`rounded-lg border px-3 py-2 text-sm ${styles}`}>
      {children}
    </div>
  );
}

export interface ToastMessage {
  kind: 'success' | 'error';
  text: string;
  /** How long it stays (ms). */
  duration: number;
}

/** A toast in the corner that goes away by itself after its duration. */
export function Toast({ toast, onDone }: { toast: ToastMessage | undefined; onDone: () => void }) {
  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(onDone, toast.duration);
    return () => window.clearTimeout(timer);
  }, [toast, onDone]);
  if (!toast) return null;
  return (
    <div className="fixed bottom-4 right-4 z-50 max-w-sm">
      <Alert kind={toast.kind}>{toast.text}</Alert>
    </div>
  );
}

const STRENGTH_COLOURS: Record<StrengthLevel, string> = {
  weak: 'bg-red-500',
  medium: 'bg-amber-500',
  strong: 'bg-emerald-500',
  'very-strong': 'bg-emerald-700',
};

/** Strength meter: five segments, the Vietnamese label (docs/requirements.md#password-strength). */
export function StrengthMeter({ password }: { password: string }) {
  if (!password) return null;
  const { score, level, label } = passwordStrength(password);
  return (
    <div className="mt-2" aria-live="polite">
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4, 5].map((step) => (
          <span
            key={step}
            className={`h-1.5 flex-1 rounded-full ${step <= score ? STRENGTH_COLOURS[level] : 'bg-slate-200 dark:bg-slate-700'}`}
          />
        ))}
      </div>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Độ mạnh: <span data-testid="password-strength">{label}</span>
      </p>
    </div>
  );
}

/** The React twin of components/Avatar.astro, for islands whose avatar changes. */
export function AvatarImage({ name, src, size = 'md' }: { name: string | null | undefined; src?: string | null; size?: AvatarSize }) {
  const label = name?.trim() || 'User';
  if (src) return <img src={src} alt={label} className={`avatar-image ${AVATAR_SIZES[size]}`} />;
  return (
    <span role="img" aria-label={label} className={`avatar-initials ${AVATAR_SIZES[size]} ${avatarGradient(name)}`}>
      {initials(name)}
    </span>
  );
}

export function Spinner() {
  return (
    <span className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-r-transparent" aria-hidden="true" />
  );
}

/**
 * A button whose action may take a while: disabled with the spinner while `busy`; `disabled` adds
 * the caller's other reasons (not hydrated yet, nothing changed).
 */
export function BusyButton({
  busy,
  disabled = false,
  type = 'button',
  className,
  onClick,
  children,
}: {
  busy: boolean;
  disabled?: boolean;
  type?: 'button' | 'submit';
  className: string;
  onClick?: () => void;
  children: ReactNode;
}) {
  return (
    <button type={type} className={className} onClick={onClick} disabled={busy || disabled}>
      {busy && <Spinner />}
      {children}
    </button>
  );
}

/**
 * A dialog form's Cancel and confirm buttons, both disabled while `busy` (the confirm one with a
 * spinner). The confirm button submits the form, or calls `onConfirm` when given.
 */
export function DialogActions({
  onCancel,
  busy,
  danger = false,
  className = '',
  onConfirm,
  focusCancel = false,
  children,
}: {
  onCancel: () => void;
  busy: boolean;
  danger?: boolean;
  className?: string;
  onConfirm?: () => void;
  focusCancel?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`flex justify-end gap-2 ${className}`.trim()}>
      <button type="button" className="btn-secondary" onClick={onCancel} disabled={busy} data-autofocus={focusCancel || undefined}>
        Cancel
      </button>
      <BusyButton
        type={onConfirm ? 'button' : 'submit'}
        className={danger ? 'btn bg-red-600 text-white hover:bg-red-700' : 'btn-primary'}
        onClick={onConfirm}
        busy={busy}
      >
        {children}
      </BusyButton>
    </div>
  );
}
