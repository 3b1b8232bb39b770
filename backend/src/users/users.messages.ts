import { MIXED_SCRIPT_EMAIL_TEXT } from '../../../isomorphic/email-scripts';

/** Texts of the profile and avatar calls (docs/requirements.md#validation-avatar, docs/requirements.md#errors-profile), verbatim where the spec gives them. */
export const UsersMessages = {
  PROFILE_UPDATED: 'Profile updated successfully!',
  EMAIL_IN_USE: 'Email already in use.',
  FULL_NAME_REQUIRED: 'Full name is required',
  FULL_NAME_MIN: 'Full name must be at least 2 characters',
  FULL_NAME_MAX: 'Full name must be less than 100 characters',
  EMAIL_REQUIRED: 'Email is required',
  EMAIL_INVALID: 'Email format is invalid',
  EMAIL_MIXED_SCRIPTS: MIXED_SCRIPT_EMAIL_TEXT,
  BIO_MAX: 'Bio must be at most 500 characters',
  WEBSITE_INVALID: 'Website must be a valid URL starting with http:// or https://',
  LOCATION_MAX: 'Location must be at most 100 characters',
  AVATAR_NOT_IMAGE: 'Please select an image file (jpg, png, gif, ...)',
  AVATAR_TOO_LARGE: 'File size cannot exceed 10MB',
  AVATAR_UPLOADED: 'Avatar uploaded successfully!',
  AVATAR_DELETED: 'Avatar deleted successfully!',
  USER_NOT_FOUND: 'User not found.',
} as const;
