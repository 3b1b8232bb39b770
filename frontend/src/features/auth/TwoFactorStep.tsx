import { useId, useState, type FormEvent } from 'react';
import { BusyButton, TextField } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import { errorText } from '../../lib/texts/error-text';
import { AuthFailure } from './auth-form-parts';
import { SIGN_IN_ERRORS, TwoFactorSignInTexts as T } from './texts';

type Session = Awaited<ReturnType<typeof finishSignIn>>;

function finishSignIn(challengeToken: string, code: string) {
  return unwrap(browserApi().POST('/api/v1/auth/login/two-factor', { body: { challengeToken, code } }));
}

interface Props {
  challengeToken: string;
  /** The code was right: the same session answer as a password-only sign-in. */
  onSignedIn: (session: Session) => void;
  /** The challenge has ended (expired, too many wrong codes) or the user goes back: the password form again, with the reason. */
  onBack: (reason?: string) => void;
}

/**
 * The sign-in's code step: the authenticator's code, or a recovery code. A wrong code
 * stays here with the field's error; a challenge that ended goes back to the password form.
 */
export default function TwoFactorStep({ challengeToken, onSignedIn, onBack }: Props) {
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<string>();
  const { busy, failure, run } = useSubmit();
  const promptId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? '').trim();
    if (!code) {
      setError(recovery ? T.RECOVERY_CODE_REQUIRED : T.APP_CODE_REQUIRED);
      return;
    }
    setError(undefined);
    const sent = await run(() => finishSignIn(challengeToken, code), {
      keepBusy: true,
      failure: (reason) => (reason instanceof ApiError && reason.field('code') ? undefined : errorText(reason, SIGN_IN_ERRORS)),
      onError: (reason) => {
        if (!(reason instanceof ApiError)) return;
        if (reason.field('code')) setError(reason.field('code'));
        else if (reason.status === 401) onBack(reason.message);
      },
    });
    if (sent.ok) onSignedIn(sent.value);
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate aria-describedby={promptId}>
      <h2 className="text-lg font-semibold">{T.HEADING}</h2>
      <p id={promptId} className="text-sm text-slate-600 dark:text-slate-400">
        {recovery ? T.RECOVERY_PROMPT : T.APP_PROMPT}
      </p>
      <AuthFailure failure={failure} />
      <TextField
        key={recovery ? 'recovery' : 'app'}
        label={recovery ? T.RECOVERY_LABEL : T.APP_LABEL}
        name="code"
        autoComplete={recovery ? 'off' : 'one-time-code'}
        inputMode={recovery ? 'text' : 'numeric'}
        autoCapitalize="off"
        spellCheck={false}
        maxLength={recovery ? 32 : 8}
        placeholder={recovery ? 'xxxxx-xxxxx' : '123456'}
        error={error}
        autoFocus
      />
      <BusyButton type="submit" className="btn-primary w-full" busy={busy}>
        {busy ? T.VERIFYING : T.VERIFY}
      </BusyButton>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <button
          type="button"
          className="font-medium text-brand-600 hover:underline dark:text-brand-100"
          onClick={() => {
            setRecovery((value) => !value);
            setError(undefined);
          }}
        >
          {recovery ? T.USE_APP : T.USE_RECOVERY}
        </button>
        <button type="button" className="font-medium text-slate-600 hover:underline dark:text-slate-300" onClick={() => onBack()}>
          {T.BACK}
        </button>
      </div>
    </form>
  );
}
