/**
 * Texts of sign-in, registration, password reset and logout, the password rules and the
 * authentication errors (docs/requirements.md#routes, docs/requirements.md#states, docs/requirements.md#validation, docs/requirements.md#errors-auth), verbatim where the spec gives them.
 * Where the spec names a rule without its text, the text here follows the nearby ones
 * (language and tone of the same form).
 */
import type { ErrorTexts } from '../../lib/texts/error-text';
import { NameAndEmailTexts, PasswordTexts } from '../../lib/texts/account-fields';

export { PasswordTexts };

export const LoginTexts = {
  EMAIL_REQUIRED: 'Email is required',
  EMAIL_INVALID: 'Invalid email address',
  PASSWORD_MIN: 'Password must be at least 6 characters',
  REMEMBER_ME: 'Remember me for 30 days',
  VERIFY_EMAIL: 'Verify your email',
} as const;

export const RegisterTexts = {
  ...NameAndEmailTexts,
  PASSWORD_REQUIRED: 'Password is required',
  PASSWORD_MIN: 'Password must be at least 8 characters',
  PASSWORD_LOWER: 'Password must contain at least one lowercase letter',
  PASSWORD_UPPER: 'Password must contain at least one uppercase letter',
  PASSWORD_DIGIT: 'Password must contain at least one number',
  PASSWORD_SPECIAL: 'Password must contain at least one special character',
  CONFIRM_REQUIRED: 'Please confirm your password',
  CONFIRM_MISMATCH: "Passwords don't match",
  CONFLICT: 'This email is already in use. Please choose a different email.',
  /** After a 409: the address may be one that signed up and never entered its code. */
  CONFLICT_UNVERIFIED: 'Signed up with it before but never entered the code?',
  INVALID: 'Invalid data. Please check your information again.',
  FAILED: 'An error occurred during registration. Please try again.',
  CODE_INVALID: 'Mã xác thực phải là 6 số',
  CODE_WRONG: 'Mã xác thực không đúng. Vui lòng thử lại.',
  RESEND_OK: 'Mã xác thực đã được gửi lại thành công!',
  RESEND_FAILED: 'Không thể gửi lại mã. Vui lòng thử lại.',
  AUTO_VERIFYING: 'Auto-verifying...',
} as const;

export const ForgotTexts = {
  EMAIL_REQUIRED: 'Email là bắt buộc',
  EMAIL_INVALID: 'Email không hợp lệ',
} as const;

export const ResetTexts = {
  INVALID_LINK: 'Liên kết đặt lại mật khẩu không hợp lệ hoặc đã hết hạn.',
  TOKEN_MISSING: 'Token không được tìm thấy',
  TOKEN_INVALID: 'Token không hợp lệ hoặc đã hết hạn',
  UNEXPECTED: 'Phản hồi không mong đợi từ server',
} as const;

/** The verification screen of an address (register.astro reads ?verify=): a reload keeps it. */
export const verifyEmailPath = (email: string) => `/register?verify=${encodeURIComponent(email)}`;

export const LogoutTexts = {
  CONFIRM: 'Are you sure you want to logout?',
} as const;

const ACCOUNT_LOCKED = 'Account not verified or locked.';
/** The spec's texts by status (docs/requirements.md#errors-auth), all but the 403 one. */
const AUTH_STATUS_TEXTS = {
  400: 'Invalid login credentials.',
  401: 'Incorrect email or password.',
  404: 'Account does not exist.',
  409: 'Email already in use.',
  422: 'Dữ liệu không hợp lệ.',
  429: 'Too many attempts. Please wait before trying again.',
} as const;

/** Authentication errors by status (docs/requirements.md#errors-auth); a 422 shows its first field error when it has one. */
export const AUTH_ERRORS: ErrorTexts = {
  fallback: 'An error occurred during authentication.',
  status: { ...AUTH_STATUS_TEXTS, 403: ACCOUNT_LOCKED },
  fieldErrors: [422],
};

/**
 * Sign-in: as AUTH_ERRORS, except that a 403 shows the server's words, which say why (a ban and
 * its reason); the spec's 403 text when it sent none.
 */
export const SIGN_IN_ERRORS: ErrorTexts = { ...AUTH_ERRORS, status: AUTH_STATUS_TEXTS, withoutMessage: { 403: ACCOUNT_LOCKED } };

/** Registration errors by status (docs/requirements.md#errors-auth): never the server's words. */
export const REGISTER_ERRORS: ErrorTexts = {
  fallback: RegisterTexts.FAILED,
  network: RegisterTexts.FAILED,
  status: { 400: RegisterTexts.INVALID, 409: RegisterTexts.CONFLICT },
  serverMessage: false,
};

/** The sign-in's second step for accounts with two-factor sign-in (English like the sign-in form). */
export const TwoFactorSignInTexts = {
  HEADING: 'Two-step verification',
  APP_PROMPT: 'Open your authenticator app and enter the 6-digit code it shows for Inkwell.',
  RECOVERY_PROMPT: 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each works once.',
  APP_LABEL: 'Authentication code',
  RECOVERY_LABEL: 'Recovery code',
  USE_RECOVERY: 'Use a recovery code instead',
  USE_APP: 'Use the authenticator app instead',
  APP_CODE_REQUIRED: 'Enter the 6-digit code from your authenticator app.',
  RECOVERY_CODE_REQUIRED: 'Enter a recovery code.',
  VERIFY: 'Verify',
  VERIFYING: 'Verifying...',
  BACK: 'Back to sign in',
} as const;
