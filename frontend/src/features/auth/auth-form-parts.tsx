/**
 * Pieces the sign-in, sign-up and password forms share: a failure that offers the way to verify
 * an unverified account's e-mail, and the plain way back to the sign-in page.
 */
import { Alert } from '../../components/islands/form-controls';
import { LoginTexts, verifyEmailPath } from './texts';

/**
 * The form's failure, if any; when it is about an account that still has to enter its code
 * (`unverified`: its e-mail), the link to do so follows, after `lead` when given.
 */
export function AuthFailure({ failure, unverified, lead }: { failure: string | undefined; unverified?: string; lead?: string }) {
  if (!failure) return null;
  return (
    <Alert>
      {failure}
      {unverified && (
        <>
          {' '}
          {lead && <>{lead} </>}
          <a href={verifyEmailPath(unverified)} className="font-medium underline">
            {LoginTexts.VERIFY_EMAIL}
          </a>
        </>
      )}
    </Alert>
  );
}

export function BackToLoginLink() {
  return (
    <a href="/login" className="block text-center text-sm font-medium text-brand-600 hover:underline dark:text-brand-100">
      Back to login
    </a>
  );
}
