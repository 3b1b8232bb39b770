import { useState, type FormEvent } from 'react';
import { AuthOutcome } from './AuthOutcome';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { isEmail } from '../../lib/field-rules';
import { ForgotTexts } from './texts';
import { CommonTexts } from '../../lib/texts/common';
import { errorText } from '../../lib/texts/error-text';
import { Alert, BusyButton, TextField, useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { BackToLoginLink } from './auth-form-parts';

/** Forgot password (docs/requirements.md#screen-forgot-password): the e-mail form, then 'check your email' with a resend link. */
export default function ForgotPasswordForm() {
  const [error, setError] = useState<string>();
  const { busy, failure, run } = useSubmit();
  const [sentTo, setSentTo] = useState<string>();
  const hydrated = useHydrated();

  async function send(address: string): Promise<boolean> {
    const sent = await run(
      () =>
        unwrap(
          browserApi().POST('/api/v1/auth/forgot-password', {
            body: { email: address, redirectUrl: `${window.location.origin}/reset-password` },
          }),
        ),
      {
        failure: (err) => errorText(err, { fallback: CommonTexts.UNEXPECTED_ERROR }),
      },
    );
    if (sent.ok) setSentTo(address);
    return sent.ok;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    // Read from the form itself: what was typed before hydration counts too (uncontrolled field).
    const address = String(new FormData(event.currentTarget as HTMLFormElement).get('email') ?? '').trim();
    const problem = !address ? ForgotTexts.EMAIL_REQUIRED : !isEmail(address) ? ForgotTexts.EMAIL_INVALID : undefined;
    setError(problem);
    if (!problem) void send(address);
  }

  if (sentTo) {
    return (
      <AuthOutcome title="Check your email" loginLabel="Back to login">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          If an account exists for <strong data-testid="reset-email">{sentTo}</strong>, we sent a link to reset your password. The link
          expires in 30 minutes.
        </p>
        {failure && <Alert>{failure}</Alert>}
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Didn't receive the email?{' '}
          <button
            type="button"
            className="font-medium text-brand-600 hover:underline disabled:opacity-50 dark:text-brand-100"
            onClick={() => void send(sentTo)}
            disabled={busy}
          >
            {busy ? 'Sending...' : 'Resend email'}
          </button>
        </p>
      </AuthOutcome>
    );
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      {failure && <Alert>{failure}</Alert>}
      <TextField label="Email" type="email" name="email" autoComplete="email" error={error} />
      <BusyButton type="submit" className="btn-primary w-full" busy={busy} disabled={!hydrated}>
        {busy ? 'Sending...' : 'Send reset link'}
      </BusyButton>
      <BackToLoginLink />
    </form>
  );
}
