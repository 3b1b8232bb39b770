import { MIXED_SCRIPT_EMAIL_TEXT } from '../../../../isomorphic/email-scripts';

/**
 * Texts of the account fields several features check (sign-up and the profile: name and e-mail;
 * register, reset and change: the strict password rule), docs/requirements.md#validation-reset-password, verbatim.
 */
export const NameAndEmailTexts = {
  FULL_NAME_REQUIRED: 'Full name is required',
  FULL_NAME_MIN: 'Full name must be at least 2 characters',
  FULL_NAME_MAX: 'Full name must be less than 100 characters',
  EMAIL_REQUIRED: 'Email is required',
  EMAIL_INVALID: 'Email format is invalid',
  EMAIL_MIXED_SCRIPTS: MIXED_SCRIPT_EMAIL_TEXT,
} as const;

/** Password rules of change and reset (docs/requirements.md#validation-reset-password), Vietnamese. */
export const PasswordTexts = {
  CURRENT_REQUIRED: 'Mật khẩu hiện tại là bắt buộc',
  MIN: 'Mật khẩu phải có ít nhất 8 ký tự',
  REQUIRED: 'Mật khẩu mới là bắt buộc',
  UPPER: 'Mật khẩu phải có ít nhất một chữ cái viết hoa',
  LOWER: 'Mật khẩu phải có ít nhất một chữ cái viết thường',
  DIGIT: 'Mật khẩu phải có ít nhất một chữ số',
  SPECIAL: 'Mật khẩu phải có ít nhất một ký tự đặc biệt (!@#$%^&*...)',
  CONFIRM_REQUIRED: 'Vui lòng xác nhận mật khẩu',
  CONFIRM_MISMATCH: 'Mật khẩu xác nhận không khớp',
} as const;
