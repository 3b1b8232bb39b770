/** Texts of two-factor sign-in (beyond the spec, in the tone of its English screens). */
export const TwoFactorMessages = {
  // Sign-in
  CODE_REQUIRED_TO_SIGN_IN: 'Enter the code from your authenticator app to finish signing in.',
  CODE_REQUIRED: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  CODE_FORMAT: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  TOTP_FORMAT: 'Enter the 6-digit code from your authenticator app.',
  CODE_WRONG: 'That code is not right. Try again.',
  CHALLENGE_REQUIRED: 'The sign-in to finish is missing. Please sign in again.',
  CHALLENGE_ENDED: 'This sign-in has expired or had too many wrong codes. Please sign in again.',

  // Set-up and management
  STATUS: 'Two-factor sign-in status',
  SETUP_STARTED: 'Scan the QR code (or type the key), then enter the 6-digit code your app shows.',
  ALREADY_ON: 'Two-factor sign-in is already on.',
  NOT_ON: 'Two-factor sign-in is not on.',
  NO_SETUP: 'Start the set-up first: no key is waiting for its first code.',
  ENABLED: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe.',
  SIGN_OUT_OTHERS_INVALID: 'signOutOtherSessions must be true or false',
  DISABLED: 'Two-factor sign-in is off.',
  CODES_REGENERATED: 'New recovery codes are ready; the old ones no longer work.',
  PASSWORD_REQUIRED: 'Password is required',
  PASSWORD_WRONG: 'The password is not right.',

  // Policy
  SETUP_REQUIRED: 'Administrators must sign in with two-factor authentication. Set it up on your account page first.',

  // Admin reset
  ADMIN_RESET: 'Two-factor sign-in was reset; the user was told by e-mail.',
  ADMIN_RESET_SELF: 'You cannot reset your own two-factor sign-in: turn it off on your account page.',
  ADMIN_RESET_NOT_ON: 'This user has not turned on two-factor sign-in.',
} as const;
