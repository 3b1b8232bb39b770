import { useState } from 'react';
import { ConfirmDialog } from '../../components/islands/Dialog';
import { Alert, TextField } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { browserApi } from '../../lib/api/client';
import { unwrapWithMessage } from '../../lib/api/errors';
import type { AdminUser } from './admin-users';

/** What the admin types to confirm (as on 'Delete my account'). */
const CONFIRM_WORD = 'DELETE';

/**
 * The back office's 'Delete user': the account is disabled at once and erased by the
 * next run of the job queue, with no grace period (the owner did not ask, and a deleted spammer
 * must not come back by signing in). Confirmed by typing DELETE; `onDeleted` gets the server's words.
 */
export function AdminUserDeleteDialog({
  user,
  onCancel,
  onDeleted,
}: {
  user: Pick<AdminUser, 'id' | 'fullName'>;
  onCancel: () => void;
  onDeleted: (message: string) => void;
}) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const { busy, failure, run } = useSubmit();

  async function confirm() {
    if (typed !== CONFIRM_WORD) {
      setError(`Type ${CONFIRM_WORD} to confirm.`);
      return;
    }
    setError(undefined);
    const sent = await run(
      () => unwrapWithMessage(browserApi().DELETE('/api/v1/admin/users/{id}', { params: { path: { id: user.id } } })),
      {
        failure: (failed) => (failed instanceof Error ? failed.message : String(failed)),
      },
    );
    if (sent.ok) onDeleted(sent.value.message ?? 'User deleted.');
  }

  return (
    <ConfirmDialog
      title="Delete user"
      message={`${user.fullName}'s account is disabled at once and erased right after: comments stay as [deleted user], likes are removed, published posts go to "Former author" or are deleted as the site settings say. This cannot be undone.`}
      confirmLabel="Delete user"
      danger
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={onCancel}
    >
      {failure && <Alert>{failure}</Alert>}
      <TextField
        label={`Type ${CONFIRM_WORD} to confirm`}
        name="confirmDelete"
        autoComplete="off"
        spellCheck={false}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        error={error}
      />
    </ConfirmDialog>
  );
}
