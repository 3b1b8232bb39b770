import { useRef, useState } from 'react';
import { Alert, BusyButton, TextField } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import { YourDataTexts as T } from './texts';

/** What the sign-in of an account waiting to be erased knows: its 403's words and the sign-in data to prove the cancellation. */
export interface PendingDeletion {
  message: string;
  email: string;
  password: string;
}

/**
 * The login page's step for an account scheduled for deletion: 'Your account is
 * scheduled for deletion on …' and 'Cancel deletion', which gives the account back with the same
 * sign-in data and then signs in (`signIn`, the form's own sign-in). An account with two-factor
 * sign-in needs a code as well: the field appears when the server asks for it.
 */
export default function CancelDeletionPanel({ pending, signIn }: { pending: PendingDeletion; signIn: () => Promise<void> }) {
  const { busy, failure, run } = useSubmit();
  const [codeError, setCodeError] = useState<string>();
  const [needsCode, setNeedsCode] = useState(false);
  const codeInput = useRef<HTMLDivElement>(null);
  const cancel = () => {
    const twoFactorCode = (codeInput.current?.querySelector('input')?.value ?? '').trim();
    return run(
      async () => {
        await unwrap(
          browserApi().POST('/api/v1/account/deletion/cancel', {
            body: { email: pending.email, password: pending.password, ...(twoFactorCode ? { twoFactorCode } : {}) },
          }),
        );
        await signIn();
      },
      {
        keepBusy: true,
        failure: (error) =>
          error instanceof ApiError && error.field('twoFactorCode')
            ? undefined
            : error instanceof Error && error.message
              ? error.message
              : T.CANCEL_FAILED,
        onError: (error) => {
          const wrongCode = error instanceof ApiError ? error.field('twoFactorCode') : undefined;
          if (wrongCode) setNeedsCode(true);
          // The first ask is no mistake: the field only just appeared.
          setCodeError(wrongCode && (needsCode || twoFactorCode) ? wrongCode : undefined);
        },
      },
    );
  };
  return (
    <div className="space-y-3" data-pending-deletion>
      <Alert kind="info">{pending.message}</Alert>
      {failure && <Alert>{failure}</Alert>}
      {needsCode && (
        // The panel sits inside the sign-in form: Enter in the code field cancels the deletion, it does not sign in again.
        // eslint-disable-next-line jsx-a11y/no-static-element-interactions
        <div
          ref={codeInput}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            if (!busy) void cancel();
          }}
        >
          <TextField
            label={T.TWO_FACTOR_LABEL}
            name="twoFactorCode"
            autoComplete="one-time-code"
            inputMode="numeric"
            error={codeError}
            autoFocus
          />
        </div>
      )}
      <BusyButton className="btn-primary w-full" busy={busy} onClick={cancel}>
        {busy ? T.CANCEL_BUSY : T.CANCEL_BUTTON}
      </BusyButton>
    </div>
  );
}
