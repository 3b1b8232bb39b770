import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Dialog } from '../../components/islands/Dialog';
import { useSubmit } from '../../components/islands/use-submit';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import { AccountTexts } from './texts';
import { PasswordTexts } from '../auth';
import { passwordProblem } from '../auth';
import { Alert, DialogActions, PasswordField, StrengthMeter, useHydrated } from '../../components/islands/form-controls';

type Field = 'currentPassword' | 'newPassword' | 'confirmNewPassword';
type Values = Record<Field, string>;
const EMPTY: Values = { currentPassword: '', newPassword: '', confirmNewPassword: '' };
const PASSWORD_FIELDS: { name: Field; label: string; autoComplete: string }[] = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmNewPassword', label: 'Confirm new password', autoComplete: 'new-password' },
];

function validate(values: Values): Partial<Values> {
  const errors: Partial<Values> = {};
  if (!values.currentPassword) errors.currentPassword = PasswordTexts.CURRENT_REQUIRED;
  const problem = passwordProblem(values.newPassword);
  if (problem) errors.newPassword = problem;
  if (!values.confirmNewPassword) errors.confirmNewPassword = PasswordTexts.CONFIRM_REQUIRED;
  else if (values.confirmNewPassword !== values.newPassword) errors.confirmNewPassword = PasswordTexts.CONFIRM_MISMATCH;
  return errors;
}

/**
 * Account Security's Change Password (docs/requirements.md#screen-account, docs/requirements.md#data-screens, docs/requirements.md#validation-change-password): a modal with current, new and
 * confirmation; on success a panel shows for 3 s and the modal closes after 2 s.
 */
export default function ChangePasswordDialog() {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Values>>({});
  const [success, setSuccess] = useState(false);
  const { busy, failure, setFailure, run } = useSubmit();
  const hydrated = useHydrated();
  const opener = useRef<HTMLButtonElement>(null);

  function close() {
    setOpen(false);
    setValues(EMPTY);
    setErrors({});
    setFailure(undefined);
    opener.current?.focus();
  }

  useEffect(() => {
    if (!success) return;
    const closing = window.setTimeout(close, 2000);
    const clearing = window.setTimeout(() => setSuccess(false), 3000);
    return () => {
      window.clearTimeout(closing);
      window.clearTimeout(clearing);
    };
    // Only when a success starts the countdown: `close` is a new function on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [success]);

  const set = (field: Field) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    setFailure(undefined);
    if (Object.keys(found).length > 0) return;
    const sent = await run(() => unwrap(browserApi().POST('/api/v1/user/change-password', { body: values })), {
      failure: (error) => (error instanceof Error ? error.message : String(error)),
      onError: (error) => {
        if (error instanceof ApiError && error.errors) {
          setErrors({
            currentPassword: error.field('currentPassword'),
            newPassword: error.field('newPassword'),
            confirmNewPassword: error.field('confirmNewPassword'),
          });
        }
      },
    });
    if (sent.ok) setSuccess(true);
  }

  return (
    <>
      <button
        ref={opener}
        type="button"
        className="btn-secondary w-full justify-start"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        disabled={!hydrated}
      >
        Change Password
      </button>
      {success && !open && <Alert kind="success">{AccountTexts.PASSWORD_CHANGED}</Alert>}
      {open && (
        <Dialog title="Change Password" onClose={close} busy={busy}>
          {success ? (
            <Alert kind="success">{AccountTexts.PASSWORD_CHANGED}</Alert>
          ) : (
            <form className="space-y-4" onSubmit={submit} noValidate>
              {failure && <Alert>{failure}</Alert>}
              {PASSWORD_FIELDS.map(({ name, label, autoComplete }) => (
                <PasswordField
                  key={name}
                  label={label}
                  name={name}
                  autoComplete={autoComplete}
                  value={values[name]}
                  onChange={set(name)}
                  error={errors[name]}
                  hint={name === 'newPassword' ? <StrengthMeter password={values.newPassword} /> : undefined}
                />
              ))}
              <DialogActions onCancel={close} busy={busy}>
                Change Password
              </DialogActions>
            </form>
          )}
        </Dialog>
      )}
    </>
  );
}
