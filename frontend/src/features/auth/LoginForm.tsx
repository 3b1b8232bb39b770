import { useState, type FormEvent } from 'react';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import { isEmail } from '../../lib/field-rules';
import { LoginTexts, SIGN_IN_ERRORS } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { rememberLogin } from '../../lib/session-browser';
import { BusyButton, PasswordField, TextField, useHydrated } from '../../components/islands/form-controls';
import { charCount } from '../../../../isomorphic/text';
import { useSubmit } from '../../components/islands/use-submit';
import { AuthFailure } from './auth-form-parts';
import TwoFactorStep from './TwoFactorStep';
import { TWO_FACTOR_SETUP_PATH } from '../../lib/routes';
import { CancelDeletionPanel, type PendingDeletion } from '../account';

interface Props {
  /** Where to go after signing in (already checked to be a path on this site). */
  callback: string;
}

interface Errors {
  email?: string;
  password?: string;
}

function validate(email: string, password: string): Errors {
  const errors: Errors = {};
  if (!email.trim()) errors.email = LoginTexts.EMAIL_REQUIRED;
  else if (!isEmail(email)) errors.email = LoginTexts.EMAIL_INVALID;
  if (charCount(password) < 6) errors.password = LoginTexts.PASSWORD_MIN;
  return errors;
}

/** A 403 that names the time an account will be erased: the account waits for deletion. */
const isPendingDeletion = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 403 && Boolean(error.field('deletionScheduledFor'));

/** The sign-in form (docs/requirements.md#screen-login): validation, errors by status, then the callback or /. */
export default function LoginForm({ callback }: Props) {
  const [errors, setErrors] = useState<Errors>({});
  const { busy, failure, setFailure, run } = useSubmit();
  const [unverified, setUnverified] = useState<string>();
  // The right password of an account waiting to be erased: offer 'Cancel deletion'.
  const [pendingDeletion, setPendingDeletion] = useState<PendingDeletion & { rememberMe: boolean }>();
  const hydrated = useHydrated();
  const [challenge, setChallenge] = useState<{ token: string; rememberMe: boolean }>();
  const [leaving, setLeaving] = useState(false);

  function signedIn(session: { expiresIn: number; twoFactorSetupRequired?: true }, rememberMe: boolean) {
    setLeaving(true);
    rememberLogin(session.expiresIn, rememberMe);
    // An administrator the site requires to use two-factor sign-in sets it up before anything else.
    window.location.assign(session.twoFactorSetupRequired ? TWO_FACTOR_SETUP_PATH : callback);
  }

  if (challenge) {
    return (
      <TwoFactorStep
        challengeToken={challenge.token}
        onSignedIn={(session) => signedIn(session, challenge.rememberMe)}
        onBack={(reason) => {
          setChallenge(undefined);
          setFailure(reason);
        }}
      />
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Read from the form itself: what was typed before hydration counts too (uncontrolled fields).
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const email = String(data.get('email') ?? '');
    const password = String(data.get('password') ?? '');
    const rememberMe = data.get('rememberMe') !== null;
    const found = validate(email, password);
    setErrors(found);
    setFailure(undefined);
    if (found.email || found.password) return;
    setPendingDeletion(undefined);
    await run(() => signIn(email.trim(), password, rememberMe), {
      failure: (error) => (isPendingDeletion(error) ? undefined : errorText(error, SIGN_IN_ERRORS)),
      onError: (error) => {
        // Only an unverified account is offered verification: its 403 names the e-mail (a banned or inactive one does not).
        setUnverified(error instanceof ApiError && error.status === 403 && error.field('email') ? email.trim() : undefined);
        if (isPendingDeletion(error)) setPendingDeletion({ message: error.message, email: email.trim(), password, rememberMe });
      },
    });
  }

  /** Signs in with a password: a session (then the callback), or a two-factor challenge that the code step takes over. */
  async function signIn(email: string, password: string, rememberMe: boolean): Promise<void> {
    const answer = await unwrap(browserApi().POST('/api/v1/auth/login', { body: { email, password, rememberMe } }));
    if ('challengeToken' in answer) setChallenge({ token: answer.challengeToken, rememberMe });
    else signedIn(answer, rememberMe);
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <AuthFailure failure={failure} unverified={unverified} />
      {pendingDeletion && (
        <CancelDeletionPanel
          pending={pendingDeletion}
          signIn={() => signIn(pendingDeletion.email, pendingDeletion.password, pendingDeletion.rememberMe)}
        />
      )}
      <TextField label="Email" type="email" name="email" autoComplete="email" error={errors.email} placeholder="you@example.com" />
      <PasswordField label="Password" name="password" autoComplete="current-password" error={errors.password} />
      <div className="flex items-center justify-between gap-4 text-sm">
        <label className="inline-flex items-center gap-2">
          <input type="checkbox" className="h-4 w-4 rounded border-slate-300 text-brand-600" name="rememberMe" />
          {LoginTexts.REMEMBER_ME}
        </label>
        <a href="/forgot-password" className="font-medium text-brand-600 hover:underline dark:text-brand-100">
          Forgot password?
        </a>
      </div>
      <BusyButton type="submit" className="btn-primary w-full" busy={busy || leaving} disabled={!hydrated}>
        {busy || leaving ? 'Signing in...' : 'Sign In'}
      </BusyButton>
    </form>
  );
}
