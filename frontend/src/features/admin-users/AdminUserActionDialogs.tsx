/**
 * The details view's action dialogs (not hydrated on their own): ban and unban with their reason
 * prompt (docs/requirements.md#validation-ban: a reason is required, Cancel aborts, the admin note is optional), the new
 * password (confirm, then shown once with Copy; docs/requirements.md#errors-auth texts) and Edit (name, roles, status).
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { browserApi } from '../../lib/api/client';
import type { AdminUser, GeneratedPassword, UserStatus } from './admin-users';
import { ApiError, unwrap } from '../../lib/api/errors';
import { effectiveRole, type RoleName } from '../../lib/roles';
import { actionErrors, AddUserTexts, STATUS_LABELS, UserActionTexts as T } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { Dialog } from '../../components/islands/Dialog';
import { Alert, DialogActions, TextAreaField, TextField } from '../../components/islands/form-controls';
import { AdminUserRolePicker, focusFirstInvalid, SelectField } from './AdminUserFields';
import { useSubmit } from '../../components/islands/use-submit';

// ---- ban and unban ------------------------------------------------------------------------------

interface BanProps {
  mode: 'ban' | 'unban';
  user: AdminUser;
  onCancel: () => void;
  onDone: () => void;
}

export function AdminUserBanDialog({ mode, user, onCancel, onDone }: BanProps) {
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const { busy, failure, setFailure, run } = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const banning = mode === 'ban';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFailure(undefined);
    if (!reason.trim()) {
      setError(T.REASON_REQUIRED);
      focusFirstInvalid(form.current);
      return;
    }
    await run(
      async () => {
        const body = { reason: reason.trim(), ...(note.trim() ? { adminNote: note.trim() } : {}) };
        const params = { path: { id: user.id } };
        if (banning) await unwrap(browserApi().POST('/api/v1/admin/users/{id}/ban', { params, body }));
        else await unwrap(browserApi().POST('/api/v1/admin/users/{id}/unban', { params, body }));
        onDone();
      },
      { keepBusy: true, failure: (caught) => errorText(caught, actionErrors(banning ? T.BAN_FAILED : T.UNBAN_FAILED)) },
    );
  }

  return (
    <Dialog
      title={banning ? 'Ban User' : 'Unban User'}
      description={
        banning
          ? `Ban ${user.fullName}? They are signed out and cannot sign in until they are unbanned.`
          : `Unban ${user.fullName}? Their account becomes active again.`
      }
      onClose={onCancel}
      busy={busy}
    >
      <form ref={form} className="space-y-4" onSubmit={submit} noValidate>
        {failure && <Alert>{failure}</Alert>}
        <TextAreaField
          maxLength={1000}
          label={banning ? 'Reason for the ban' : 'Reason for lifting the ban'}
          value={reason}
          onChange={(value) => {
            setReason(value);
            setError(undefined);
          }}
          error={error}
          autoFocus
        />
        <TextAreaField
          maxLength={1000}
          label="Admin note (optional)"
          value={note}
          onChange={setNote}
          hint="Internal: only admins see it."
        />
        <DialogActions onCancel={onCancel} busy={busy} danger={banning}>
          {banning ? 'Ban User' : 'Unban User'}
        </DialogActions>
      </form>
    </Dialog>
  );
}

// ---- new password -------------------------------------------------------------------------------

export function AdminUserPasswordDialog({ user, onClose, onGenerated }: { user: AdminUser; onClose: () => void; onGenerated: () => void }) {
  const [result, setResult] = useState<GeneratedPassword>();
  const { busy, failure, run } = useSubmit();
  const [copy, setCopy] = useState<string>();
  const field = useRef<HTMLInputElement>(null);
  const inputId = useId();

  async function generate() {
    await run(
      async () => {
        setResult(await unwrap(browserApi().POST('/api/v1/admin/users/{id}/generate-password', { params: { path: { id: user.id } } })));
        onGenerated();
      },
      { failure: (caught) => errorText(caught, actionErrors(T.GENERATE_FAILED)) },
    );
  }

  async function copyPassword() {
    if (!result) return;
    try {
      await navigator.clipboard.writeText(result.newPassword);
      setCopy(T.COPIED);
    } catch {
      field.current?.select();
      setCopy(document.execCommand?.('copy') ? T.COPIED : T.COPY_FAILED);
    }
  }

  if (!result) {
    return (
      <Dialog
        key="confirm"
        title="Generate New Password"
        description={T.GENERATE_CONFIRM(user.fullName)}
        onClose={onClose}
        busy={busy}
        role="alertdialog"
      >
        {failure && <Alert>{failure}</Alert>}
        <DialogActions onCancel={onClose} busy={busy} className="mt-4" onConfirm={generate} focusCancel>
          Generate Password
        </DialogActions>
      </Dialog>
    );
  }
  return (
    <Dialog key="password" title="New Password" description={T.PASSWORD_SHOWN_ONCE} onClose={onClose}>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
        New password for {user.fullName}
      </label>
      <div className="flex gap-2">
        <input
          ref={field}
          id={inputId}
          readOnly
          value={result.newPassword}
          className="block w-full rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-950"
          onFocus={(event) => event.currentTarget.select()}
          data-testid="generated-password"
        />
        <button type="button" className="btn-secondary" onClick={copyPassword} data-autofocus>
          Copy
        </button>
      </div>
      <p className="mt-2 text-sm" role="status">
        {copy ?? ''}
      </p>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        {result.emailed ? T.PASSWORD_EMAILED(user.email) : T.PASSWORD_NOT_EMAILED}
      </p>
      <div className="mt-4 flex justify-end">
        <button type="button" className="btn-primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

// ---- edit ---------------------------------------------------------------------------------------

const EDIT_STATUSES: readonly UserStatus[] = ['ACTIVE', 'PENDING', 'INACTIVE'];
type EditField = 'fullName' | 'roles' | 'status';

export function AdminUserEditDialog({
  user,
  canAssignAdmin,
  onCancel,
  onSaved,
}: {
  user: AdminUser;
  canAssignAdmin: boolean;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const initialRoles = (user.roles.length > 0 ? user.roles.map((role) => role.name.toUpperCase()) : ['USER']) as RoleName[];
  const [fullName, setFullName] = useState(user.fullName);
  const [roles, setRoles] = useState<RoleName[]>(initialRoles);
  const [status, setStatus] = useState(user.status as UserStatus);
  const [errors, setErrors] = useState<Partial<Record<EditField, string>>>({});
  const { busy, failure, setFailure, run } = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const banned = user.status === 'BANNED';
  // An admin editing someone who already holds ADMIN keeps the box (it shows what they have).
  const adminAllowed = canAssignAdmin || effectiveRole(initialRoles) === 'ADMIN';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFailure(undefined);
    const found: Partial<Record<EditField, string>> = {};
    if (!fullName.trim()) found.fullName = AddUserTexts.FULL_NAME_REQUIRED;
    if (roles.length === 0) found.roles = AddUserTexts.ROLE_REQUIRED;
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid(form.current);
      return;
    }
    const sameRoles = roles.length === initialRoles.length && roles.every((role) => initialRoles.includes(role));
    const body = {
      ...(fullName.trim() !== user.fullName ? { fullName: fullName.trim() } : {}),
      ...(!sameRoles ? { roles } : {}),
      ...(!banned && status !== user.status ? { status } : {}),
    };
    if (Object.keys(body).length === 0) {
      onCancel();
      return;
    }
    await run(
      async () => {
        await unwrap(browserApi().PUT('/api/v1/admin/users/{id}', { params: { path: { id: user.id } }, body }));
        onSaved();
      },
      {
        keepBusy: true,
        failure: (caught) => errorText(caught, actionErrors(T.UPDATE_FAILED)),
        onError: (caught) => {
          if (caught instanceof ApiError && caught.errors) {
            setErrors({ fullName: caught.field('fullName'), roles: caught.field('roles'), status: caught.field('status') });
          }
        },
      },
    );
  }

  return (
    <Dialog title="Edit User" description={user.email} onClose={onCancel} busy={busy}>
      <form ref={form} className="space-y-4" onSubmit={submit} noValidate>
        {failure && <Alert>{failure}</Alert>}
        <TextField
          label="Full name"
          name="fullName"
          value={fullName}
          onChange={(event) => {
            setFullName(event.target.value);
            setErrors((current) => ({ ...current, fullName: undefined }));
          }}
          error={errors.fullName}
          maxLength={100}
          data-autofocus
        />
        <AdminUserRolePicker
          value={roles}
          onChange={(next) => {
            setRoles(next);
            setErrors((current) => ({ ...current, roles: undefined }));
          }}
          onKeepLast={() => setErrors((current) => ({ ...current, roles: AddUserTexts.ROLE_REQUIRED }))}
          canAssignAdmin={adminAllowed}
          error={errors.roles}
        />
        <SelectField
          label="Status"
          name="status"
          value={status}
          onChange={(event) => setStatus(event.target.value as UserStatus)}
          error={errors.status}
          disabled={banned}
        >
          {(banned ? (['BANNED'] as const) : EDIT_STATUSES).map((option) => (
            <option key={option} value={option}>
              {STATUS_LABELS[option]}
            </option>
          ))}
        </SelectField>
        {banned && <p className="-mt-2 text-xs text-slate-600 dark:text-slate-400">Unban the user to change the status.</p>}
        <DialogActions onCancel={onCancel} busy={busy}>
          Save Changes
        </DialogActions>
      </form>
    </Dialog>
  );
}
