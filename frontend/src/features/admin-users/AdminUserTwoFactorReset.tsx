import { useState } from 'react';
import { Dialog } from '../../components/islands/Dialog';
import { Alert, DialogActions } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { errorText } from '../../lib/texts/error-text';
import type { AdminUser } from './admin-users';
import { actionErrors, TwoFactorResetTexts as T } from './texts';

/**
 * 'Reset 2FA' on a user's details (a user who lost their authenticator): a
 * confirmation, then DELETE /admin/users/{id}/two-factor (audit-logged; the user gets an e-mail).
 * Shown for users who have it on (AdminUser.twoFactorEnabled).
 */
export function AdminUserTwoFactorReset({ user, disabled, onReset }: { user: AdminUser; disabled: boolean; onReset: () => void }) {
  const [open, setOpen] = useState(false);
  const { busy, failure, setFailure, run } = useSubmit();

  function close() {
    setOpen(false);
    setFailure(undefined);
  }

  async function reset() {
    const sent = await run(
      () => unwrap(browserApi().DELETE('/api/v1/admin/users/{id}/two-factor', { params: { path: { id: user.id } } })),
      {
        failure: (caught) => errorText(caught, actionErrors(T.FAILED)),
      },
    );
    if (sent.ok) {
      setOpen(false);
      onReset();
    }
  }

  return (
    <>
      <button type="button" className="btn-secondary" onClick={() => setOpen(true)} disabled={disabled} aria-haspopup="dialog">
        {T.BUTTON}
      </button>
      {open && (
        <Dialog title={T.TITLE} description={T.CONFIRM(user.fullName)} onClose={close} busy={busy} role="alertdialog">
          {failure && <Alert>{failure}</Alert>}
          <DialogActions onCancel={close} busy={busy} className="mt-4" onConfirm={reset} danger focusCancel>
            {T.ACTION}
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
