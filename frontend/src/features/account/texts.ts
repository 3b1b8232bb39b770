/** Texts of the account page (spec 000 §2 /account): profile, avatar and change password. */
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
  /** Issue 25: the profile's Save uploads a chosen picture first; when that fails nothing is saved. */
  PROFILE_NOT_SAVED_AVATAR: 'Profile not saved: the chosen picture could not be uploaded. Upload it again, or cancel it to save without it.',
  PASSWORD_CHANGED: 'Đổi mật khẩu thành công!',
  bioTooLong: (max: number) => `Bio must be at most ${max} characters`,
} as const;
