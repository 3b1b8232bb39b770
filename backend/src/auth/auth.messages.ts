import { MIXED_SCRIPT_EMAIL_TEXT } from '../../../isomorphic/email-scripts';

/** Texts of the accounts area (docs/requirements.md#validation-login, docs/requirements.md#errors-auth; docs/requirements.md#decision-login), verbatim. */
import { countNoun, englishNoun } from '../../../isomorphic/plural';

export const AuthMessages = {
  AUTH_REQUIRED: 'Authentication required. Please log in to continue.',
  AUTH_FAILED: 'Authentication failed. Please log in again.',
  ACCOUNT_LOCKED: 'Account not verified or locked.',
  EMAIL_NOT_VERIFIED: 'This email address is not verified yet. Enter the code we sent you, or ask for a new one.',
  /** The right password of an account waiting to be erased (the login page then offers 'Cancel deletion'). */
  deletionScheduled: (when: string) => `Your account is scheduled for deletion on ${when}. Cancel the deletion to use it again.`,
  accountBanned: (reason: string | undefined) => `Your account has been banned.${reason ? ` Reason: ${reason}` : ''}`,
  FORBIDDEN: 'You do not have permission to access this resource.',
  CSRF: 'Missing X-Request-Timestamp header: cookie-authenticated requests that change data must send it.',

  // Register (docs/requirements.md#validation-register; English like the screen)
  FULL_NAME_REQUIRED: 'Full name is required',
  FULL_NAME_MIN: 'Full name must be at least 2 characters',
  FULL_NAME_MAX: 'Full name must be less than 100 characters',
  REGISTER_EMAIL_REQUIRED: 'Email is required',
  REGISTER_EMAIL_INVALID: 'Email format is invalid',
  REGISTER_EMAIL_MIXED_SCRIPTS: MIXED_SCRIPT_EMAIL_TEXT,
  PASSWORD_REQUIRED: 'Password is required',
  PASSWORD_MIN_8: 'Password must be at least 8 characters',
  PASSWORD_MAX: 'Password must be at most 128 characters',
  PASSWORD_LOWER: 'Password must contain at least one lowercase letter',
  PASSWORD_UPPER: 'Password must contain at least one uppercase letter',
  PASSWORD_DIGIT: 'Password must contain at least one number',
  PASSWORD_SPECIAL: 'Password must contain at least one special character',
  CONFIRM_REQUIRED: 'Please confirm your password',
  PASSWORDS_DONT_MATCH: "Passwords don't match",
  EMAIL_IN_USE: 'Email already in use.',
  REGISTERED: 'Registration successful! Please check your email for the 6-digit verification code.',
  REGISTERED_MAIL_FAILED:
    'Registration successful, but the verification email could not be sent. Please use "Resend code" to get a new one.',

  // Verification
  CODE_FORMAT: 'Mã xác thực phải là 6 số',
  CODE_WRONG: 'Mã xác thực không đúng. Vui lòng thử lại.',
  CODE_EXPIRED: 'Mã xác thực đã hết hạn. Vui lòng yêu cầu mã mới.',
  CODE_TOO_MANY: 'Bạn đã nhập sai quá nhiều lần. Vui lòng yêu cầu mã mới.',
  VERIFIED: 'Xác thực email thành công!',
  RESENT: 'Mã xác thực đã được gửi lại thành công!',
  resendWait: (seconds: number) => `Please wait ${countNoun(seconds, englishNoun('second'))} before requesting a new code.`,

  // Login (docs/requirements.md#validation-login, docs/requirements.md#errors-auth)
  LOGIN_EMAIL_REQUIRED: 'Email is required',
  LOGIN_EMAIL_INVALID: 'Invalid email address',
  LOGIN_PASSWORD_REQUIRED: 'Password is required',
  LOGIN_PASSWORD_MIN: 'Password must be at least 6 characters',
  LOGIN_FAILED: 'Incorrect email or password.',
  LOGGED_IN: 'Login successful',
  REFRESH_FAILED: 'Token refresh failed',
  REFRESHED: 'Token refreshed',
  LOGGED_OUT: 'Logged out successfully',

  // Forgot / reset (docs/requirements.md#validation-forgot-password, docs/requirements.md#errors-reset; Vietnamese like those screens)
  FORGOT_EMAIL_REQUIRED: 'Email là bắt buộc',
  FORGOT_EMAIL_INVALID: 'Email không hợp lệ',
  FORGOT_SENT: 'Nếu email tồn tại trong hệ thống, liên kết đặt lại mật khẩu đã được gửi đến hộp thư của bạn.',
  RESET_TOKEN_INVALID: 'Token không hợp lệ hoặc đã hết hạn',
  RESET_DONE: 'Đặt lại mật khẩu thành công! Vui lòng đăng nhập bằng mật khẩu mới.',

  // Strict password rule in Vietnamese (reset, change: docs/requirements.md#validation-reset-password)
  VI_PASSWORD_REQUIRED: 'Mật khẩu mới là bắt buộc',
  VI_PASSWORD_MIN_8: 'Mật khẩu phải có ít nhất 8 ký tự',
  VI_PASSWORD_MAX: 'Mật khẩu không được vượt quá 128 ký tự',
  VI_PASSWORD_UPPER: 'Mật khẩu phải có ít nhất một chữ cái viết hoa',
  VI_PASSWORD_LOWER: 'Mật khẩu phải có ít nhất một chữ cái viết thường',
  VI_PASSWORD_DIGIT: 'Mật khẩu phải có ít nhất một chữ số',
  VI_PASSWORD_SPECIAL: 'Mật khẩu phải có ít nhất một ký tự đặc biệt (!@#$%^&*...)',
  VI_CONFIRM_REQUIRED: 'Vui lòng xác nhận mật khẩu',
  VI_CONFIRM_MISMATCH: 'Mật khẩu xác nhận không khớp',
  TOKEN_REQUIRED: 'Token không được tìm thấy',

  // Change password
  CURRENT_PASSWORD_REQUIRED: 'Mật khẩu hiện tại là bắt buộc',
  CURRENT_PASSWORD_WRONG: 'Mật khẩu hiện tại không đúng',
  PASSWORD_CHANGED: 'Đổi mật khẩu thành công!',
} as const;
