import { MIXED_SCRIPT_EMAIL_TEXT } from '../../../isomorphic/email-scripts';
import { UserStatus } from '../users/entities/user.entity';
import { UserLifecycleMessages } from '../users/user-lifecycle.messages';

/** Texts of the user administration and the admin dashboard (docs/requirements.md#validation-add-user, docs/requirements.md#errors-dashboards), verbatim where the spec gives them. */
export const AdminMessages = {
  // session and role (docs/requirements.md#errors-forbidden, '403 per action'; dashboards: docs/requirements.md#errors-dashboards)
  AUTH_REQUIRED: 'Authentication required. Please log in to manage users.',
  FORBIDDEN: UserLifecycleMessages.FORBIDDEN,
  DASHBOARD_AUTH_REQUIRED: 'Authentication required. Please log in to access admin dashboard.',
  DASHBOARD_FORBIDDEN: 'You do not have permission to access admin dashboard.',

  // Add user (docs/requirements.md#validation-add-user, in this order)
  FULL_NAME_REQUIRED: 'Full name is required',
  FULL_NAME_MIN: 'Full name must be at least 2 characters',
  FULL_NAME_MAX: 'Full name must be less than 100 characters',
  EMAIL_REQUIRED: 'Email is required',
  EMAIL_INVALID: 'Invalid email format',
  EMAIL_MIXED_SCRIPTS: MIXED_SCRIPT_EMAIL_TEXT,
  PASSWORD_REQUIRED: 'Password is required',
  PASSWORD_MIN: 'Password must be at least 6 characters',
  PASSWORD_MAX: 'Password must be at most 128 characters',
  PASSWORDS_MISMATCH: 'Passwords do not match',
  ROLES_REQUIRED: 'At least one role is required',
  ROLES_INVALID: 'Each role must be one of USER, AUTHOR, ADMIN',
  STATUS_REQUIRED: 'Status is required',
  STATUS_INVALID: `Status must be one of ${Object.values(UserStatus).join(', ')}`,
  VERIFIED_INVALID: 'markEmailAsVerified must be true or false',
  EMAIL_TAKEN: 'This email address is already registered',

  // Site settings (beyond the spec)
  SETTINGS_AUTH_REQUIRED: 'Authentication required. Please log in to manage site settings.',
  SETTINGS_FORBIDDEN: 'You do not have permission to manage site settings.',
  SETTINGS_UPDATED: 'Settings saved',
  SETTING_REQUIRE_ADMIN_2FA_INVALID: 'requireAdminTwoFactor must be true or false',
  SETTING_REQUIRE_ADMIN_2FA_SELF_OFF:
    'Turn on two-factor sign-in for your own account first (Account Security): requiring it for administrators now would lock you out of the admin area.',
  SETTING_ERASED_AUTHOR_POSTS_INVALID: 'erasedAuthorPosts must be one of reassign, delete',

  // Edit
  BIO_MAX: 'Bio must be at most 500 characters',
  IS_VERIFIED_INVALID: 'isVerified must be true or false',

  // Ban and unban
  REASON_REQUIRED: 'A reason is required',
  REASON_MAX: 'The reason must be at most 500 characters',
  ADMIN_NOTE_MAX: 'The admin note must be at most 1000 characters',
  CREATED_BANNED_REASON: 'Account created with status BANNED',

  // Guards on one's own account (the others are the user lifecycle's: UserLifecycleMessages)
  SELF_GENERATE_PASSWORD: 'You cannot generate a new password for your own account. Use Change Password on your account page.',

  // Lookups (docs/requirements.md#errors-user-admin)
  USER_NOT_FOUND: UserLifecycleMessages.USER_NOT_FOUND,
  INVALID_STATUS: `status must be one of ${Object.values(UserStatus).join(', ')}`,
  INVALID_ROLE: 'role must be one of USER, AUTHOR, ADMIN',
  INVALID_FLAG: 'The verified flag must be true or false',

  // Successes
  USER_CREATED: 'User created successfully',
  USER_UPDATED: 'User updated successfully',
  USER_BANNED: 'User banned successfully',
  USER_UNBANNED: 'User unbanned successfully',
  PASSWORD_GENERATED: 'A new password was generated and e-mailed to the user',
  PASSWORD_GENERATED_NOT_MAILED: 'A new password was generated, but the e-mail could not be sent: give it to the user another way',
} as const;
