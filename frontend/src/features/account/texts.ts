/** Texts of the account page (docs/requirements.md#screen-account): profile, avatar and change password. */
export const AccountTexts = {
  PROFILE_UPDATED: 'Profile updated successfully!',
  PROFILE_FAILED: 'Failed to update profile. Please try again.',
  AVATAR_NOT_IMAGE: 'Please select an image file (jpg, png, gif, ...)',
  AVATAR_TOO_BIG: 'File size cannot exceed 10MB',
  AVATAR_UPDATED: 'Avatar updated successfully!',
  AVATAR_REMOVED: 'Avatar removed.',
  UPLOAD_FAILED: 'Upload failed',
  UPLOAD_NETWORK: 'Network error during upload',
  UPLOAD_TIMEOUT: 'Upload timeout - please try again',
  UPLOAD_BAD_JSON: 'Invalid JSON response from server',
  UPLOAD_BAD_FORMAT: 'Invalid upload response format',
  DELETE_FAILED: 'Failed to delete image',
  /** The profile's Save uploads a chosen picture first; when that fails nothing is saved. */
  PROFILE_NOT_SAVED_AVATAR: 'Profile not saved: the chosen picture could not be uploaded. Upload it again, or cancel it to save without it.',
  PASSWORD_CHANGED: 'Đổi mật khẩu thành công!',
  bioTooLong: (max: number) => `Bio must be at most ${max} characters`,
} as const;

/** Two-factor sign-in on /account, behind the spec's 'Two-Factor Authentication Setup' button. */
export const TwoFactorTexts = {
  OPEN: 'Two-Factor Authentication Setup',
  TITLE: 'Two-Factor Authentication',
  LOADING: 'Loading...',
  LOAD_FAILED: 'Could not load your two-factor settings. Please try again.',
  OFF: 'Two-factor sign-in is off. With it on, signing in needs your password and a code from an authenticator app on your phone.',
  REQUIRED: 'This site requires administrators to use two-factor sign-in. Set it up to open the admin area.',
  START: 'Start set-up',
  SCAN: 'Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy...), or type the key by hand.',
  QR_ALT: 'QR code to add Inkwell to your authenticator app',
  KEY: 'Key',
  LINK: 'Set-up link',
  CODE_LABEL: '6-digit code from the app',
  CODE_REQUIRED: 'Enter the 6-digit code from your authenticator app.',
  TURN_ON: 'Turn on',
  CODES_INTRO: 'Two-factor sign-in is on. Save these recovery codes somewhere safe: each lets you sign in once without your phone. They are shown only now.',
  DOWNLOAD: 'Download codes (.txt)',
  DONE: "I've saved my codes",
  ON: (since: string, left: number) => `Two-factor sign-in is on (since ${since}). ${left} recovery ${left === 1 ? 'code' : 'codes'} left.`,
  TURN_OFF_HEADING: 'Turn off two-factor sign-in',
  PASSWORD_LABEL: 'Password',
  PASSWORD_REQUIRED: 'Password is required',
  ANY_CODE_LABEL: 'Authentication or recovery code',
  ANY_CODE_REQUIRED: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  TURN_OFF: 'Turn off',
  TURNED_OFF: 'Two-factor sign-in is off.',
  NEW_CODES_HEADING: 'New recovery codes',
  NEW_CODES_HINT: 'The old codes stop working.',
  NEW_CODES: 'Make new codes',
  CLOSE: 'Close',
  FILE_HEADER: 'Inkwell recovery codes. Each code signs you in once when you cannot use your authenticator app.',
};

/** Texts of 'Your data': the data export and account deletion. English, like the rest of the page's new texts. */
export const YourDataTexts = {
  HEADING: 'Your data',
  INTRO: 'Download a copy of everything you have on Inkwell, or delete your account.',
  EXPORT_BUTTON: 'Download my data',
  EXPORT_AGAIN: 'Prepare a new download',
  EXPORT_STARTING: 'Starting…',
  EXPORT_QUEUED: 'Your export is waiting to start…',
  exportRunning: (percent: number) => `Preparing your data… ${percent}%`,
  EXPORT_READY: 'Your data is ready.',
  EXPORT_DOWNLOAD: 'Download the zip',
  exportExpires: (when: string) => `The link works until ${when}. We also sent it to you by e-mail.`,
  EXPORT_EXPIRED: 'Your last download link has expired.',
  EXPORT_FAILED: 'Your export could not be prepared. Please try again.',
  EXPORT_CONTENTS: 'A zip with your profile, likes, comments, notifications and sign-ins as JSON, and your posts as Markdown with their images.',
  DELETE_BUTTON: 'Delete my account',
  deleteWarning: (days: number) =>
    days > 0
      ? `Your account is disabled at once and erased after ${days} ${days === 1 ? 'day' : 'days'}. Signing in before then lets you cancel.`
      : 'Your account is disabled and erased at once.',
  DELETE_TITLE: 'Delete my account',
  DELETE_WHAT:
    'Your comments stay in their threads as [deleted user], your likes are removed, your published posts stay under "Former author" (or are deleted, as the site decides) and your other posts, your avatar and your images are deleted.',
  PASSWORD_LABEL: 'Password',
  TWO_FACTOR_LABEL: 'Two-factor code',
  CONFIRM_LABEL: 'Type DELETE to confirm',
  CONFIRM_WRONG: 'Type DELETE to confirm.',
  PASSWORD_REQUIRED: 'Enter your password.',
  DELETE_SUBMIT: 'Delete my account',
  DELETE_DONE: 'Your account is scheduled for deletion. You have been signed out.',
  // The login page's step for an account waiting to be erased.
  CANCEL_BUTTON: 'Cancel deletion',
  CANCEL_BUSY: 'Cancelling…',
  CANCEL_FAILED: 'The deletion could not be cancelled. Please try again.',
} as const;
