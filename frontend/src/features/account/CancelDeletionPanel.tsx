import { Alert, BusyButton } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { YourDataTexts as T } from './texts';

/** What the sign-in of an account waiting to be erased knows: its 403's words and the sign-in data to prove the cancellation. */
export interface PendingDeletion {
  message: string;
  email: string;
  password: string;
}

/**
 * The login page's step for an account scheduled for deletion (issue 27 §3): 'Your account is
 * scheduled for deletion on …' and 'Cancel deletion', which gives the account back with the same
 * sign-in data and then signs in (`signIn`, the form's own sign-in).
 */
export default function CancelDeletionPanel({ pending, signIn }: { pending: PendingDeletion; signIn: () => Promise<void> }) {
  const { busy, failure, run } = useSubmit();
  const cancel = () =>
    run(
      async () => {
        await unwrap(browserApi().POST('/api/v1/account/deletion/cancel', { body: { email: pending.email, password: pending.password } }));
        await signIn();
      },
      { keepBusy: true, failure: (error) => (error instanceof Error && error.message ? error.message : T.CANCEL_FAILED) },
    );
  return (
    <div className="space-y-3" data-pending-deletion>
      <Alert kind="info">{pending.message}</Alert>
      {failure && <Alert>{failure}</Alert>}
      <BusyButton className="btn-primary w-full" busy={busy} onClick={cancel}>
        {busy ? T.CANCEL_BUSY : T.CANCEL_BUTTON}
      </BusyButton>
    </div>
  );
}
