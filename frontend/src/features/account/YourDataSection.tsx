import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Dialog } from '../../components/islands/Dialog';
import { Alert, BusyButton, DialogActions, PasswordField, TextField, useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import { formatDateTime } from '../../lib/dates';
import type { DataOf } from '../../lib/api/schema';
import { DELETION_SCHEDULED_ADDRESS } from './deletion-notice';
import { YourDataTexts as T } from './texts';

/** An export as GET /account/export answers it. */
export type DataExport = DataOf<'/api/v1/account/export'>;

interface Props {
  /** The latest export (none yet: null), read by the page. */
  initialExport: DataExport | null;
  /** Days before the erasure (GET /account/deletion). */
  graceDays: number;
  /** The account has two-factor sign-in on: the deletion asks for a code too. */
  twoFactorEnabled?: boolean;
}

/** How often the page asks for the export's progress while it is prepared. */
const POLL_MS = 1000;
const running = (status: DataExport['status'] | undefined) => status === 'QUEUED' || status === 'RUNNING';

/**
 * 'Your data' on /account: 'Download my data' starts the export job and follows its
 * progress until the download link shows (also e-mailed); 'Delete my account' asks for the
 * password, the two-factor code when it is on, and the typed word, then signs the user out.
 */
export default function YourDataSection({ initialExport, graceDays, twoFactorEnabled = false }: Props) {
  const [current, setCurrent] = useState<DataExport | null>(initialExport);
  const exporting = useSubmit();
  const hydrated = useHydrated();

  useEffect(() => {
    if (!running(current?.status)) return;
    const timer = window.setTimeout(async () => {
      try {
        setCurrent(await unwrap(browserApi().GET('/api/v1/account/export', {})));
      } catch {
        // A missed poll is retried by the next render's timer.
        setCurrent((value) => (value ? { ...value } : value));
      }
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [current]);

  const startExport = () =>
    exporting.run(async () => setCurrent(await unwrap(browserApi().POST('/api/v1/account/export', {}))), {
      failure: (error) => (error instanceof Error ? error.message : String(error)),
    });

  return (
    <section className="card p-6" aria-labelledby="your-data-heading" data-your-data>
      <h2 id="your-data-heading" className="text-lg font-semibold">
        {T.HEADING}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{T.INTRO}</p>

      <div className="mt-4 space-y-3">
        <p className="text-sm text-slate-600 dark:text-slate-400">{T.EXPORT_CONTENTS}</p>
        {exporting.failure && <Alert>{exporting.failure}</Alert>}
        <ExportState value={current} />
        {!running(current?.status) && (
          <BusyButton className="btn-secondary" busy={exporting.busy} disabled={!hydrated} onClick={startExport}>
            {exporting.busy ? T.EXPORT_STARTING : current?.status === 'READY' ? T.EXPORT_AGAIN : T.EXPORT_BUTTON}
          </BusyButton>
        )}
      </div>

      <div className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-700">
        <p className="text-sm text-slate-600 dark:text-slate-400">{T.deleteWarning(graceDays)}</p>
        <DeleteAccountDialog graceDays={graceDays} twoFactorEnabled={twoFactorEnabled} />
      </div>
    </section>
  );
}

function ExportState({ value }: { value: DataExport | null }) {
  if (!value) return null;
  switch (value.status) {
    case 'QUEUED':
    case 'RUNNING':
      return (
        <div role="status" className="space-y-2">
          <p className="text-sm font-medium">{value.status === 'QUEUED' ? T.EXPORT_QUEUED : T.exportRunning(value.progress)}</p>
          <div
            className="h-2 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-700"
            role="progressbar"
            aria-label={T.EXPORT_BUTTON}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={value.progress}
          >
            <div className="h-full bg-brand-600" style={{ width: `${value.progress}%` }} />
          </div>
        </div>
      );
    case 'READY':
      return (
        <div role="status" className="space-y-2">
          <p className="text-sm font-medium text-emerald-700 dark:text-emerald-400">{T.EXPORT_READY}</p>
          {value.downloadUrl && (
            <a className="btn-primary inline-flex" href={value.downloadUrl} download data-export-download>
              {T.EXPORT_DOWNLOAD}
            </a>
          )}
          {value.expiresAt && (
            <p className="text-sm text-slate-600 dark:text-slate-400">{T.exportExpires(formatDateTime(value.expiresAt))}</p>
          )}
        </div>
      );
    case 'EXPIRED':
      return <p className="text-sm text-slate-600 dark:text-slate-400">{T.EXPORT_EXPIRED}</p>;
    case 'FAILED':
      return <Alert>{T.EXPORT_FAILED}</Alert>;
  }
}

type Field = 'password' | 'confirmation' | 'twoFactorCode';

function DeleteAccountDialog({ twoFactorEnabled }: { graceDays: number; twoFactorEnabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const { busy, failure, setFailure, run } = useSubmit();
  const hydrated = useHydrated();
  const opener = useRef<HTMLButtonElement>(null);

  function close() {
    setOpen(false);
    setErrors({});
    setFailure(undefined);
    opener.current?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const password = String(data.get('password') ?? '');
    const confirmation = String(data.get('confirmation') ?? '');
    const twoFactorCode = String(data.get('twoFactorCode') ?? '').trim();
    const found: Partial<Record<Field, string>> = {};
    if (!password) found.password = T.PASSWORD_REQUIRED;
    if (confirmation !== 'DELETE') found.confirmation = T.CONFIRM_WRONG;
    setErrors(found);
    if (Object.keys(found).length) return;
    const sent = await run(
      () =>
        unwrap(
          browserApi().POST('/api/v1/account/deletion', { body: { password, confirmation, ...(twoFactorCode ? { twoFactorCode } : {}) } }),
        ),
      {
        keepBusy: true,
        failure: (error) =>
          error instanceof ApiError && error.errors ? undefined : error instanceof Error ? error.message : String(error),
        onError: (error) => {
          if (error instanceof ApiError && error.errors) {
            setErrors({
              password: error.field('password'),
              confirmation: error.field('confirmation'),
              twoFactorCode: error.field('twoFactorCode'),
            });
          }
        },
      },
    );
    // Signed out by the server: the home page, where the header shows the signed-out state.
    if (sent.ok) window.location.assign(DELETION_SCHEDULED_ADDRESS);
  }

  return (
    <>
      <button
        ref={opener}
        type="button"
        className="btn mt-3 bg-red-600 text-white hover:bg-red-700"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        disabled={!hydrated}
      >
        {T.DELETE_BUTTON}
      </button>
      {open && (
        <Dialog title={T.DELETE_TITLE} description={T.DELETE_WHAT} onClose={close} busy={busy}>
          <form className="space-y-4" onSubmit={submit} noValidate>
            {failure && <Alert>{failure}</Alert>}
            <PasswordField label={T.PASSWORD_LABEL} name="password" autoComplete="current-password" error={errors.password} />
            {/* Also when the server asks for one: two-factor sign-in may have been turned on since the page loaded. */}
            {(twoFactorEnabled || errors.twoFactorCode) && (
              <TextField
                label={T.TWO_FACTOR_LABEL}
                name="twoFactorCode"
                autoComplete="one-time-code"
                inputMode="numeric"
                error={errors.twoFactorCode}
              />
            )}
            <TextField label={T.CONFIRM_LABEL} name="confirmation" autoComplete="off" spellCheck={false} error={errors.confirmation} />
            <DialogActions onCancel={close} busy={busy} danger focusCancel>
              {T.DELETE_SUBMIT}
            </DialogActions>
          </form>
        </Dialog>
      )}
    </>
  );
}
