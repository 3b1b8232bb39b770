import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Dialog } from '../../components/islands/Dialog';
import { Alert, BusyButton, PasswordField, TextField, useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import { formatDateTime } from '../../lib/dates';
import { TwoFactorTexts as T } from './texts';

const api = () => browserApi();
const readStatus = () => unwrap(api().GET('/api/v1/account/two-factor', {}));
type Status = Awaited<ReturnType<typeof readStatus>>;
type Setup = Awaited<ReturnType<typeof startSetup>>;
const startSetup = () => unwrap(api().POST('/api/v1/account/two-factor/setup', {}));

type View =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'status'; status: Status; notice?: string }
  | { kind: 'setup'; setup: Setup }
  | { kind: 'codes'; codes: string[] };

/** The query that opens the set-up at once (an administrator the site sends here: lib/routes.ts TWO_FACTOR_SETUP_PATH). */
const OPEN_PARAM = 'twoFactor';

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A form field's text from the submitted form. */
function fieldOf(event: FormEvent, name: string): string {
  return String(new FormData(event.currentTarget as HTMLFormElement).get(name) ?? '').trim();
}

function downloadCodes(codes: string[]): void {
  const text = `${T.FILE_HEADER}\n\n${codes.join('\n')}\n`;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  link.download = 'inkwell-recovery-codes.txt';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/**
 * Account Security's 'Two-Factor Authentication Setup' (the button of docs/requirements.md#screen-account): a
 * dialog that shows whether two-factor sign-in is on, sets it up (QR code, key, otpauth link,
 * a 6-digit code), shows the 10 recovery codes once with a .txt download, and turns it off
 * (password and a code) or makes new recovery codes.
 */
export default function TwoFactorSettings() {
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [required, setRequired] = useState(false);
  const hydrated = useHydrated();
  const opener = useRef<HTMLButtonElement>(null);

  async function load(notice?: string) {
    setView({ kind: 'loading' });
    try {
      const status = await readStatus();
      setView({ kind: 'status', status, notice });
    } catch (error) {
      setView({ kind: 'failed', message: error instanceof ApiError && error.status ? error.message : T.LOAD_FAILED });
    }
  }

  function show() {
    setOpen(true);
    void load();
  }

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (params.get(OPEN_PARAM) !== 'setup') return;
    setRequired(true);
    show();
    // Once, on load: the address the page was opened with asks for the setup.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function close() {
    setOpen(false);
    opener.current?.focus();
  }

  /** After the codes are saved: an administrator sent here goes on to the admin area. */
  function finished() {
    if (required) window.location.assign('/admin');
    else void load();
  }

  return (
    <>
      <button
        ref={opener}
        type="button"
        className="btn-secondary w-full justify-start"
        onClick={show}
        aria-haspopup="dialog"
        disabled={!hydrated}
      >
        {T.OPEN}
      </button>
      {open && (
        <Dialog title={T.TITLE} onClose={close} size="lg">
          {view.kind === 'loading' && (
            <p className="text-sm text-slate-600 dark:text-slate-400" role="status">
              {T.LOADING}
            </p>
          )}
          {view.kind === 'failed' && <Alert>{view.message}</Alert>}
          {view.kind === 'status' && !view.status.enabled && (
            <StartSetup
              required={view.status.setupRequired}
              notice={view.notice}
              onStarted={(setup) => setView({ kind: 'setup', setup })}
            />
          )}
          {view.kind === 'status' && view.status.enabled && (
            <Manage
              status={view.status}
              notice={view.notice}
              onOff={() => void load(T.TURNED_OFF)}
              onCodes={(codes) => setView({ kind: 'codes', codes })}
            />
          )}
          {view.kind === 'setup' && (
            <ConfirmSetup setup={view.setup} onEnabled={(codes) => setView({ kind: 'codes', codes })} onCancel={() => void load()} />
          )}
          {view.kind === 'codes' && <RecoveryCodes codes={view.codes} onDone={finished} />}
        </Dialog>
      )}
    </>
  );
}

function StartSetup({ required, notice, onStarted }: { required: boolean; notice?: string; onStarted: (setup: Setup) => void }) {
  const { busy, failure, run } = useSubmit();
  return (
    <div className="space-y-4">
      {notice && <Alert kind="success">{notice}</Alert>}
      {required && <Alert kind="info">{T.REQUIRED}</Alert>}
      {/* After 'Turn off' the notice already says it is off: only the why follows. */}
      <p className="text-sm text-slate-700 dark:text-slate-300">{notice === T.TURNED_OFF ? T.OFF_WHY : T.OFF}</p>
      {failure && <Alert>{failure}</Alert>}
      <BusyButton
        className="btn-primary"
        busy={busy}
        onClick={async () => {
          const started = await run(startSetup, { failure: message });
          if (started.ok) onStarted(started.value);
        }}
      >
        {T.START}
      </BusyButton>
    </div>
  );
}

/** The set-up key in groups of four for the eye (CSS gaps, no spaces in the text: selecting and copying it gives the plain key). */
function GroupedKey({ secret }: { secret: string }) {
  const [copied, setCopied] = useState<string>();
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(T.KEY_COPIED);
    } catch {
      setCopied(T.KEY_COPY_FAILED);
    }
  }
  return (
    <>
      <code className="flex flex-wrap gap-x-[1ch] font-mono">
        {secret.match(/.{1,4}/g)?.map((group, index) => (
          <span key={index}>{group}</span>
        ))}
      </code>
      <button type="button" className="btn-secondary mt-2 px-3 py-1 text-sm" onClick={copy}>
        {T.COPY_KEY}
      </button>
      <span aria-live="polite" className="ml-2 text-sm">
        {copied}
      </span>
    </>
  );
}

function ConfirmSetup({ setup, onEnabled, onCancel }: { setup: Setup; onEnabled: (codes: string[]) => void; onCancel: () => void }) {
  const [error, setError] = useState<string>();
  const { busy, failure, run } = useSubmit();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const code = fieldOf(event, 'code');
    if (!code) return setError(T.CODE_REQUIRED);
    setError(undefined);
    const signOutOtherSessions = new FormData(event.currentTarget as HTMLFormElement).has('signOutOtherSessions');
    const sent = await run(() => unwrap(api().POST('/api/v1/account/two-factor/confirm', { body: { code, signOutOtherSessions } })), {
      failure: (reason) => (reason instanceof ApiError && reason.field('code') ? undefined : message(reason)),
      onError: (reason) => reason instanceof ApiError && setError(reason.field('code')),
    });
    if (sent.ok) onEnabled(sent.value.recoveryCodes);
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <p className="text-sm text-slate-700 dark:text-slate-300">{T.SCAN}</p>
      <img src={setup.qrCode} alt={T.QR_ALT} width={224} height={224} className="mx-auto rounded bg-white" />
      <dl className="space-y-2 text-sm">
        <div>
          <dt className="font-medium">{T.KEY}</dt>
          <dd>
            <GroupedKey secret={setup.secret} />
          </dd>
        </div>
        <div>
          <dt className="font-medium">{T.LINK}</dt>
          <dd>
            <code className="break-all font-mono text-xs">{setup.otpauthUrl}</code>
          </dd>
        </div>
      </dl>
      {failure && <Alert>{failure}</Alert>}
      <TextField
        label={T.CODE_LABEL}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        error={error}
        data-autofocus
      />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300 text-brand-600" name="signOutOtherSessions" defaultChecked />
        {T.SIGN_OUT_OTHERS}
      </label>
      <div className="flex flex-wrap gap-3">
        <BusyButton type="submit" className="btn-primary" busy={busy}>
          {T.TURN_ON}
        </BusyButton>
        <button type="button" className="btn-secondary" onClick={onCancel} disabled={busy}>
          {T.CANCEL}
        </button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="space-y-4">
      <Alert kind="success">{T.CODES_INTRO}</Alert>
      <ol className="grid grid-cols-2 gap-2 font-mono text-sm" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-100 px-2 py-1 dark:bg-slate-800">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn-secondary" onClick={() => downloadCodes(codes)}>
          {T.DOWNLOAD}
        </button>
        <button type="button" className="btn-primary" onClick={onDone}>
          {T.DONE}
        </button>
      </div>
    </div>
  );
}

function Manage({
  status,
  notice,
  onOff,
  onCodes,
}: {
  status: Status;
  notice?: string;
  onOff: () => void;
  onCodes: (codes: string[]) => void;
}) {
  const [errors, setErrors] = useState<{ password?: string; code?: string; newCode?: string }>({});
  const off = useSubmit();
  const renew = useSubmit();

  async function turnOff(event: FormEvent) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget as HTMLFormElement).get('password') ?? '');
    const code = fieldOf(event, 'code');
    const found = { password: password ? undefined : T.PASSWORD_REQUIRED, code: code ? undefined : T.ANY_CODE_REQUIRED };
    setErrors(found);
    if (found.password || found.code) return;
    const sent = await off.run(() => unwrap(api().POST('/api/v1/account/two-factor/disable', { body: { password, code } })), {
      failure: (reason) => (reason instanceof ApiError && reason.errors ? undefined : message(reason)),
      onError: (reason) => reason instanceof ApiError && setErrors({ password: reason.field('password'), code: reason.field('code') }),
    });
    if (sent.ok) onOff();
  }

  async function newCodes(event: FormEvent) {
    event.preventDefault();
    const code = fieldOf(event, 'code');
    if (!code) return setErrors({ newCode: T.CODE_REQUIRED });
    setErrors({});
    const sent = await renew.run(() => unwrap(api().POST('/api/v1/account/two-factor/recovery-codes', { body: { code } })), {
      failure: (reason) => (reason instanceof ApiError && reason.field('code') ? undefined : message(reason)),
      onError: (reason) => reason instanceof ApiError && setErrors({ newCode: reason.field('code') }),
    });
    if (sent.ok) onCodes(sent.value.recoveryCodes);
  }

  return (
    <div className="space-y-6">
      {notice && <Alert kind="success">{notice}</Alert>}
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {T.ON(formatDateTime(status.enabledAt) || '—', status.recoveryCodesLeft)}
      </p>
      <form className="space-y-3" onSubmit={newCodes} noValidate aria-labelledby="two-factor-new-codes">
        <h3 id="two-factor-new-codes" className="font-semibold">
          {T.NEW_CODES_HEADING}
        </h3>
        {renew.failure && <Alert>{renew.failure}</Alert>}
        <TextField
          label={T.CODE_LABEL}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          error={errors.newCode}
          hint={T.NEW_CODES_HINT}
        />
        <BusyButton type="submit" className="btn-secondary" busy={renew.busy}>
          {T.NEW_CODES}
        </BusyButton>
      </form>
      <form
        className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-700"
        onSubmit={turnOff}
        noValidate
        aria-labelledby="two-factor-off"
      >
        <h3 id="two-factor-off" className="font-semibold">
          {T.TURN_OFF_HEADING}
        </h3>
        {off.failure && <Alert>{off.failure}</Alert>}
        <PasswordField label={T.PASSWORD_LABEL} name="password" autoComplete="current-password" error={errors.password} />
        <TextField
          label={T.ANY_CODE_LABEL}
          name="code"
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={32}
          error={errors.code}
        />
        <BusyButton type="submit" className="btn bg-red-600 text-white hover:bg-red-700" busy={off.busy}>
          {T.TURN_OFF}
        </BusyButton>
      </form>
    </div>
  );
}
