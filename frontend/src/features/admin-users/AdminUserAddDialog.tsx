import { useEffect, useRef, useState, type FormEvent } from 'react';
import { browserApi } from '../../lib/api/client';
import {
  addUserErrors,
  addUserFailure,
  addUserPayload,
  ADD_USER_DEFAULTS,
  type AddUserErrors,
  type AddUserValues,
  type AdminUser,
} from './admin-users';
import { unwrap } from '../../lib/api/errors';
import { AddUserTexts, STATUS_LABELS } from './texts';
import { Dialog } from '../../components/islands/Dialog';
import { Alert, DialogActions, PasswordField, TextField } from '../../components/islands/form-controls';
import { AdminUserRolePicker, focusFirstInvalid, SelectField } from './AdminUserFields';
import { useSubmit } from '../../components/islands/use-submit';

/** docs/requirements.md#screen-admin-users, docs/requirements.md#validation-add-user: the modal closes 1.5 s after a success. */
export const ADD_USER_CLOSE_MS = 1500;
const CREATE_STATUSES = ['ACTIVE', 'PENDING', 'INACTIVE'] as const;

interface Props {
  /** ADMIN may be assigned only by an admin (docs/requirements.md#validation-add-user). */
  canAssignAdmin: boolean;
  onClose: () => void;
  /** The new user, as soon as the server has it (the list refreshes). */
  onCreated: (user: AdminUser) => void;
}

/**
 * The Add User modal (docs/requirements.md#screen-admin-users, docs/requirements.md#validation-register, docs/requirements.md#errors-add-user, docs/requirements.md#validation-add-user): full name, e-mail, password and its confirmation,
 * roles (default USER; the last one stays), status (default ACTIVE) and 'Mark email as verified'
 * (off). Checked in the spec's order before sending; the server's failures are mapped as docs/requirements.md#texts says.
 * After a success the notice shows and the modal closes 1.5 s later.
 */
export default function AdminUserAddDialog({ canAssignAdmin, onClose, onCreated }: Props) {
  const [values, setValues] = useState<AddUserValues>(ADD_USER_DEFAULTS);
  const [errors, setErrors] = useState<AddUserErrors>({});
  const { busy, failure, setFailure, run } = useSubmit();
  const [created, setCreated] = useState<AdminUser>();
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!created) return;
    const timer = window.setTimeout(onClose, ADD_USER_CLOSE_MS);
    return () => window.clearTimeout(timer);
  }, [created, onClose]);

  const set =
    <K extends keyof AddUserValues>(field: K) =>
    (value: AddUserValues[K]) => {
      setValues((current) => ({ ...current, [field]: value }));
      if (field in errors) setErrors((current) => ({ ...current, [field]: undefined }));
    };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || created) return;
    const found = addUserErrors(values);
    setErrors(found);
    setFailure(undefined);
    if (Object.values(found).some(Boolean)) {
      focusFirstInvalid(form.current);
      return;
    }
    await run(
      async () => {
        const user = await unwrap(browserApi().POST('/api/v1/admin/users', { body: addUserPayload(values) }));
        setCreated(user);
        onCreated(user);
      },
      {
        onError: (error) => {
          const { fields, message } = addUserFailure(error);
          setErrors(fields);
          setFailure(message);
          focusFirstInvalid(form.current);
        },
      },
    );
  }

  return (
    <Dialog
      title="Add User"
      description="Create an account; the user can sign in with this e-mail and password."
      onClose={onClose}
      busy={busy}
      size="lg"
    >
      {created ? (
        <Alert kind="success">{AddUserTexts.created(created.fullName)}</Alert>
      ) : (
        <form ref={form} className="space-y-4" onSubmit={submit} noValidate>
          {failure && <Alert>{failure}</Alert>}
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Full name"
              name="fullName"
              autoComplete="off"
              value={values.fullName}
              onChange={(e) => set('fullName')(e.target.value)}
              error={errors.fullName}
              data-autofocus
            />
            <TextField
              label="Email"
              name="email"
              type="email"
              autoComplete="off"
              value={values.email}
              onChange={(e) => set('email')(e.target.value)}
              error={errors.email}
            />
            <PasswordField
              label="Password"
              name="password"
              autoComplete="new-password"
              value={values.password}
              onChange={(e) => set('password')(e.target.value)}
              error={errors.password}
            />
            <PasswordField
              label="Confirm password"
              name="confirmPassword"
              autoComplete="new-password"
              value={values.confirmPassword}
              onChange={(e) => set('confirmPassword')(e.target.value)}
              error={errors.confirmPassword}
            />
          </div>
          <AdminUserRolePicker
            value={values.roles}
            onChange={set('roles')}
            onKeepLast={() => setErrors((current) => ({ ...current, roles: AddUserTexts.ROLE_REQUIRED }))}
            canAssignAdmin={canAssignAdmin}
            error={errors.roles}
          />
          <div className="grid gap-4 sm:grid-cols-2 sm:items-end">
            <SelectField
              label="Status"
              name="status"
              value={values.status}
              onChange={(e) => set('status')(e.target.value as AddUserValues['status'])}
              error={errors.status}
            >
              <option value="">Select a status</option>
              {CREATE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {STATUS_LABELS[status]}
                </option>
              ))}
            </SelectField>
            <label className="inline-flex items-center gap-2 pb-2 text-sm">
              <input
                type="checkbox"
                name="markEmailAsVerified"
                checked={values.markEmailAsVerified}
                onChange={(e) => set('markEmailAsVerified')(e.target.checked)}
                className="h-4 w-4 rounded border-slate-300"
              />
              Mark email as verified
            </label>
          </div>
          <DialogActions onCancel={onClose} busy={busy} className="pt-2">
            Create User
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
