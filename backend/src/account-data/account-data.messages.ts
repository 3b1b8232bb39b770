import { AuthMessages } from '../auth/auth.messages';

/** Texts of 'Your data': the data export and account deletion, for the owner and the back office. */
export const AccountDataMessages = {
  // Deletion
  PASSWORD_REQUIRED: 'Enter your password.',
  PASSWORD_WRONG: 'The password is not correct.',
  CONFIRMATION_WRONG: 'Type DELETE to confirm.',
  TWO_FACTOR_WRONG: 'The two-factor code is not correct.',
  TWO_FACTOR_FORMAT: 'Enter the 6-digit code from your authenticator app or a recovery code.',
  DELETION_SCHEDULED: 'Your account is scheduled for deletion. You have been signed out.',
  DELETION_CANCELLED: 'The deletion is cancelled: your account is yours again. You can sign in now.',
  /** Sign-in data that cannot be checked (missing or malformed): sign-in's own text for wrong sign-in data (no enumeration). */
  CANCEL_FAILED: AuthMessages.LOGIN_FAILED,
  ADMIN_DELETE_SELF: 'Use Delete my account on your account page to delete your own account.',
  USER_DELETED: 'User deleted: the account is disabled and its data is being erased.',

  // Export
  EXPORT_STARTED: 'Your data export has started. We will e-mail you when it is ready.',
  EXPORT_IN_PROGRESS: 'An export of your data is already being prepared.',
  EXPORT_NOT_FOUND: 'You have not asked for an export of your data yet.',
  /** Someone else's link, an unknown one and an expired one all answer this (404). */
  EXPORT_LINK_INVALID: 'This download link is not valid or has expired. Ask for a new export on your account page.',
} as const;
