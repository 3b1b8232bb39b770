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
  PROFILE_NOT_SAVED_AVATAR:
    'Profile not saved: the chosen picture could not be uploaded. Upload it again, or cancel it to save without it.',
  PASSWORD_CHANGED: 'Đổi mật khẩu thành công!',
  bioTooLong: (max: number) => `Bio must be at most ${max} characters`,
} as const;

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
  EXPORT_CONTENTS:
    'A zip with your profile, likes, comments, notifications and sign-ins as JSON, and your posts as Markdown with their images.',
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
  // The login page's step for an account waiting to be erased.
  CANCEL_BUTTON: 'Cancel deletion',
  CANCEL_BUSY: 'Cancelling…',
  CANCEL_FAILED: 'The deletion could not be cancelled. Please try again.',
} as const;

/** The home page's confirmation after 'Delete my account' (DeletionScheduledNotice.astro), apart: its script carries only this. */
export const DeletionNoticeTexts = {
  DELETE_DONE: 'Your account is scheduled for deletion. You have been signed out.',
} as const;
