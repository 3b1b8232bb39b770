import { useEffect, useState, type FormEvent } from 'react';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import { PasswordTexts, ResetTexts } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { PASSWORD_RULES, passwordProblem } from '../../lib/password-rules';
import { Alert, BusyButton, PasswordField, Spinner, StrengthMeter } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { BackToLoginLink } from './auth-form-parts';
import { AuthOutcome } from './AuthOutcome';

type State = { kind: 'loading' } | { kind: 'invalid'; reason: string } | { kind: 'form' } | { kind: 'success' };

const REDIRECT_DELAY_MS = 2000;

/** The token as shown on screen: first 8 and last 8 characters. */
export function maskToken(token: string): string {
  return token.length <= 16 ? token : `${token.slice(0, 8)}…${token.slice(-8)}`;
}

/** Reset password (docs/requirements.md#screen-reset-password, docs/requirements.md#reset-flow): validate the link's token, the form, then success → /login. */
export default function ResetPasswordForm({ token }: { token: string | null }) {
  const [state, setState] = useState<State>(token ? { kind: 'loading' } : { kind: 'invalid', reason: ResetTexts.TOKEN_MISSING });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const { busy, failure, setFailure, run } = useSubmit();

  useEffect(() => {
    if (!token) return;
    let live = true;
    (async () => {
      try {
        const result = await unwrap(browserApi().GET('/api/v1/auth/validate-reset-token', { params: { query: { token } } }));
        const valid: unknown = result?.valid;
        if (!live) return;
        if (valid === true) setState({ kind: 'form' });
        else if (valid === false) setState({ kind: 'invalid', reason: ResetTexts.TOKEN_INVALID });
        else setState({ kind: 'invalid', reason: ResetTexts.UNEXPECTED });
      } catch (error) {
        if (!live) return;
        const known = error instanceof ApiError && error.status >= 400 && error.status < 500;
        setState({ kind: 'invalid', reason: known ? ResetTexts.TOKEN_INVALID : ResetTexts.UNEXPECTED });
      }
    })();
    return () => {
      live = false;
    };
  }, [token]);

  useEffect(() => {
    if (state.kind !== 'success') return;
    const timer = window.setTimeout(() => window.location.assign('/login'), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [state.kind]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      password: passwordProblem(password),
      confirm: !confirm ? PasswordTexts.CONFIRM_REQUIRED : confirm !== password ? PasswordTexts.CONFIRM_MISMATCH : undefined,
    };
    setErrors(found);
    setFailure(undefined);
    if (found.password || found.confirm || !token) return;
    await run(
      async () => {
        await unwrap(
          browserApi().POST('/api/v1/auth/reset-password', { body: { token, newPassword: password, confirmPassword: confirm } }),
        );
        setState({ kind: 'success' });
      },
      { failure: (error) => errorText(error, { fallback: ResetTexts.UNEXPECTED }) },
    );
  }

  if (state.kind === 'loading') {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400" role="status">
        <Spinner /> Checking your reset link...
      </p>
    );
  }
  if (state.kind === 'invalid') {
    return (
      <AuthOutcome title="Invalid link" loginLabel="Back to login">
        <Alert>{ResetTexts.INVALID_LINK}</Alert>
        <p className="text-sm text-slate-600 dark:text-slate-400">{state.reason}</p>
      </AuthOutcome>
    );
  }
  if (state.kind === 'success') {
    return (
      <AuthOutcome title="Password reset successful" loginLabel="Log in now" role="status">
        <p className="text-sm text-slate-600 dark:text-slate-400">Your password has been changed. Redirecting you to the sign-in page...</p>
      </AuthOutcome>
    );
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Token: <code className="font-mono">{maskToken(token ?? '')}</code>
      </p>
      {failure && <Alert>{failure}</Alert>}
      <PasswordField
        label="New password"
        name="newPassword"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
        hint={
          <>
            <StrengthMeter password={password} />
            <ul className="mt-2 grid grid-cols-2 gap-1 text-xs">
              {PASSWORD_RULES.map((rule) => (
                <li
                  key={rule.key}
                  className={rule.test(password) ? 'text-emerald-700 dark:text-emerald-400' : 'text-slate-500 dark:text-slate-400'}
                >
                  {rule.test(password) ? '✓' : '○'} {rule.label}
                </li>
              ))}
            </ul>
          </>
        }
      />
      <PasswordField
        label="Confirm password"
        name="confirmPassword"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={errors.confirm}
      />
      <BusyButton type="submit" className="btn-primary w-full" busy={busy}>
        {busy ? 'Resetting...' : 'Reset password'}
      </BusyButton>
      <BackToLoginLink />
    </form>
  );
}
