/**
 * Fields the Add User and Edit User dialogs share (not hydrated on their own): the role picker
 * (docs/requirements.md#validation-add-user: at least one role, the last selected role cannot be deselected; ADMIN only for
 * admins) and a labelled select with its error.
 */
import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { roleLabel, type RoleName } from '../../lib/roles';
import { AddUserTexts } from './texts';

const ALL_ROLES: readonly RoleName[] = ['USER', 'AUTHOR', 'ADMIN'];

interface RolePickerProps {
  value: RoleName[];
  onChange: (roles: RoleName[]) => void;
  /** Called instead of onChange when the last selected role is unticked (it stays selected). */
  onKeepLast: () => void;
  canAssignAdmin: boolean;
  error?: string;
}

export function AdminUserRolePicker({ value, onChange, onKeepLast, canAssignAdmin, error }: RolePickerProps) {
  const id = useId();
  const roles = canAssignAdmin ? ALL_ROLES : ALL_ROLES.filter((role) => role !== 'ADMIN');
  const toggle = (role: RoleName, checked: boolean) => {
    if (checked) onChange(ALL_ROLES.filter((name) => name === role || value.includes(name)));
    else if (value.length <= 1) onKeepLast();
    else onChange(value.filter((name) => name !== role));
  };
  return (
    <fieldset
      aria-describedby={error ? `${id}-error` : canAssignAdmin ? undefined : `${id}-hint`}
      data-invalid={error ? 'true' : undefined}
    >
      <legend className="mb-1 block text-sm font-medium">Roles</legend>
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        {roles.map((role) => (
          <label key={role} className="inline-flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="roles"
              value={role}
              checked={value.includes(role)}
              onChange={(event) => toggle(role, event.target.checked)}
              className="h-4 w-4 rounded border-slate-300"
            />
            {roleLabel(role)}
          </label>
        ))}
      </div>
      {!canAssignAdmin && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {AddUserTexts.ADMIN_ONLY}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400" data-field-error="roles">
          {error}
        </p>
      )}
    </fieldset>
  );
}

const SELECT =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950';

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string;
  children: ReactNode;
}

export function SelectField({ label, error, className, children, ...select }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        className={`${SELECT} ${error ? 'border-red-500 dark:border-red-500' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...select}
      >
        {children}
      </select>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** Focuses the first control the last check marked invalid (after React has drawn the errors). */
export function focusFirstInvalid(form: HTMLElement | null): void {
  window.requestAnimationFrame(() => {
    const target = form?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"]');
    if (!target) return;
    (target.tagName === 'FIELDSET' ? target.querySelector<HTMLElement>('input') : target)?.focus();
  });
}
