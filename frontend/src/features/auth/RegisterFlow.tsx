import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap, unwrapWithMessage } from '../../lib/api/errors';
import { nameAndEmailErrors } from '../../lib/field-rules';
import { REGISTER_ERRORS, RegisterTexts, verifyEmailPath } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { SPECIAL_CHARACTERS } from '../../lib/password-rules';
import { readResend, recordResend, resendLabel, secondsLeft } from './resend-countdown';
import { Alert, BusyButton, PasswordField, Spinner, StrengthMeter, TextField, useHydrated } from '../../components/islands/form-controls';
import { useKeepTyped } from '../../components/islands/keep-typed';
import { charCount } from '../../../../isomorphic/text';
import { useSubmit } from '../../components/islands/use-submit';
import { AuthFailure } from './auth-form-parts';

type Step = 'form' | 'verify' | 'success';
const FIELDS = ['fullName', 'email', 'password', 'confirmPassword'] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;

const CODE_LENGTH = 6;
const REDIRECT_DELAY_MS = 2000;

function validate(values: Record<Field, string>): Errors {
  const errors: Errors = nameAndEmailErrors(values);
  const p = values.password;
  if (!p) errors.password = RegisterTexts.PASSWORD_REQUIRED;
  else if (charCount(p) < 8) errors.password = RegisterTexts.PASSWORD_MIN;
  else if (!/[a-z]/.test(p)) errors.password = RegisterTexts.PASSWORD_LOWER;
  else if (!/[A-Z]/.test(p)) errors.password = RegisterTexts.PASSWORD_UPPER;
  else if (!/\d/.test(p)) errors.password = RegisterTexts.PASSWORD_DIGIT;
  else if (!SPECIAL_CHARACTERS.test(p)) errors.password = RegisterTexts.PASSWORD_SPECIAL;
  if (!values.confirmPassword) errors.confirmPassword = RegisterTexts.CONFIRM_REQUIRED;
  else if (values.confirmPassword !== p) errors.confirmPassword = RegisterTexts.CONFIRM_MISMATCH;
  return errors;
}

/** Sign-up (docs/requirements.md#screen-register, docs/requirements.md#registration-flow): form → e-mail verification → success → /login. */
export default function RegisterFlow({ verifyEmail }: { verifyEmail?: string }) {
  // `verifyEmail`: an account that signed up earlier and still has to enter its code.
  const [step, setStep] = useState<Step>(verifyEmail ? 'verify' : 'form');
  const [values, setValues] = useState<Record<Field, string>>({
    fullName: '',
    email: verifyEmail ?? '',
    password: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const { busy, failure, setFailure, run } = useSubmit();
  // The address a 409 was about: it may have signed up before without entering its code.
  const [taken, setTaken] = useState<string>();
  const hydrated = useHydrated();
  const email = values.email.trim();

  const set = (field: Field) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }));

  async function register(event: FormEvent) {
    event.preventDefault();
    // Read from the form itself: what was typed before hydration counts too (uncontrolled fields).
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const values = Object.fromEntries(FIELDS.map((field) => [field, String(data.get(field) ?? '')])) as Record<Field, string>;
    setValues(values);
    const email = values.email.trim();
    const found = validate(values);
    setErrors(found);
    setFailure(undefined);
    setTaken(undefined);
    if (Object.keys(found).length > 0) return;
    await run(
      async () => {
        await unwrap(browserApi().POST('/api/v1/auth/register', { body: { ...values, fullName: values.fullName.trim(), email } }));
        // The verification screen survives a reload: its address goes into the URL.
        window.history.replaceState(window.history.state, '', verifyEmailPath(email));
        setStep('verify');
      },
      {
        failure: (error) => errorText(error, REGISTER_ERRORS),
        onError: (error) => {
          setTaken(error instanceof ApiError && error.status === 409 ? email : undefined);
        },
      },
    );
  }

  useEffect(() => {
    if (step !== 'success') return;
    const timer = window.setTimeout(() => window.location.assign('/login'), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [step]);

  if (step === 'success') {
    return (
      <div className="space-y-4 text-center" role="status">
        <h2 className="text-xl font-semibold">Email verified!</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">Your account is ready. Redirecting you to the sign-in page...</p>
        <a href="/login" className="btn-primary">
          Go to login
        </a>
      </div>
    );
  }
  if (step === 'verify') return <VerifyEmail email={email} onVerified={() => setStep('success')} />;

  return (
    <form className="space-y-4" onSubmit={register} noValidate>
      <AuthFailure failure={failure} unverified={taken} lead={RegisterTexts.CONFLICT_UNVERIFIED} />
      <TextField label="Full name" name="fullName" autoComplete="name" onChange={set('fullName')} error={errors.fullName} />
      <TextField label="Email" type="email" name="email" autoComplete="email" onChange={set('email')} error={errors.email} />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="new-password"
        onChange={set('password')}
        error={errors.password}
        hint={<StrengthMeter password={values.password} />}
      />
      <PasswordField
        label="Confirm password"
        name="confirmPassword"
        autoComplete="new-password"
        onChange={set('confirmPassword')}
        error={errors.confirmPassword}
      />
      <BusyButton type="submit" className="btn-primary w-full" busy={busy} disabled={!hydrated}>
        {busy ? 'Creating account...' : 'Create Account'}
      </BusyButton>
    </form>
  );
}

function VerifyEmail({ email, onVerified }: { email: string; onVerified: () => void }) {
  const [code, setCode] = useState('');
  const keepTyped = useKeepTyped();
  const [verifying, setVerifying] = useState(false);
  const [auto, setAuto] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [resend, setResend] = useState(() => readResend(email));
  const [left, setLeft] = useState(() => secondsLeft(readResend(email)));
  const [sending, setSending] = useState(false);
  const submitted = useRef('');

  useEffect(() => {
    setLeft(secondsLeft(resend));
    const timer = window.setInterval(() => setLeft(secondsLeft(resend)), 1000);
    return () => window.clearInterval(timer);
  }, [resend]);

  const verify = useCallback(
    async (value: string, automatic: boolean) => {
      if (value.length !== CODE_LENGTH) {
        setFailure(RegisterTexts.CODE_INVALID);
        return;
      }
      submitted.current = value;
      setVerifying(true);
      setAuto(automatic);
      setFailure(undefined);
      setNotice(undefined);
      try {
        await unwrap(browserApi().POST('/api/v1/auth/verify-email', { body: { email, verificationCode: value } }));
        onVerified();
      } catch (error) {
        setFailure(errorText(error, { fallback: RegisterTexts.CODE_WRONG }));
        setVerifying(false);
        setAuto(false);
      }
    },
    [email, onVerified],
  );

  function change(raw: string) {
    const value = raw.replace(/\D/g, '').slice(0, CODE_LENGTH);
    setCode(value);
    if (value.length === CODE_LENGTH && value !== submitted.current && !verifying) void verify(value, true);
    if (value.length < CODE_LENGTH) submitted.current = '';
  }

  async function sendAgain() {
    if (left > 0 || sending) return;
    setSending(true);
    setFailure(undefined);
    setNotice(undefined);
    try {
      const { message } = await unwrapWithMessage(browserApi().POST('/api/v1/auth/resend-verification', { body: { email } }));
      setResend(recordResend(email));
      setNotice(message ?? RegisterTexts.RESEND_OK);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) setResend(recordResend(email, error.retryAfterSeconds ?? 60, false));
      setFailure(errorText(error, { fallback: RegisterTexts.RESEND_FAILED, network: RegisterTexts.RESEND_FAILED, serverMessage: [429] }));
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      {...keepTyped}
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void verify(code, false);
      }}
      noValidate
    >
      <div>
        <h2 className="text-xl font-semibold">Verify your email</h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          We sent a 6-digit code to <strong data-testid="verification-email">{email}</strong>. Enter it below.
        </p>
      </div>
      {failure && <Alert>{failure}</Alert>}
      {notice && <Alert kind="success">{notice}</Alert>}
      <TextField
        label="Verification code"
        name="verificationCode"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => change(e.target.value)}
        disabled={verifying}
        className="[&_input]:text-center [&_input]:font-mono [&_input]:text-2xl [&_input]:tracking-[0.5em]"
        placeholder="000000"
      />
      {verifying && auto && (
        <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400" role="status">
          <Spinner /> {RegisterTexts.AUTO_VERIFYING}
        </p>
      )}
      <button type="submit" className="btn-primary w-full" disabled={verifying}>
        {verifying && !auto && <Spinner />}
        Verify
      </button>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <button type="button" className="btn-ghost" onClick={sendAgain} disabled={left > 0 || sending}>
          {resendLabel(resend, left, sending)}
        </button>
        <a href="/login" className="font-medium text-brand-600 hover:underline dark:text-brand-100">
          Back to login
        </a>
      </div>
      <a href="/" className="btn-secondary w-full">
        Back
      </a>
    </form>
  );
}
