/**
 * Texts of the user administration (/admin/users and /admin/users/{id}; docs/requirements.md#screen-admin-users 'Admin
 * users', docs/requirements.md#validation-add-user and 'Ban and unban', docs/requirements.md#errors-add-user and 'User admin'). Verbatim where the
 * spec gives them; the notices it does not word (successes, the reason prompts, the generated
 * password panel) are ours.
 */
import { countNoun, Nouns } from '../../lib/texts/nouns';
import { MIXED_SCRIPT_EMAIL_TEXT } from '../../../../isomorphic/email-scripts';
import { CommonTexts } from '../../lib/texts/common';
import { errorText, type ErrorTexts } from '../../lib/texts/error-text';
import type { UserStatus } from '../../lib/api/schema';

export const AdminUsersTexts = {
  ACCESS_DENIED: 'Access Denied',
  ACCESS_DENIED_MESSAGE: 'You need admin privileges to access this page.',
  LOAD_FAILED: 'Failed to load users',
  SEARCH_FAILED: 'Search failed',
  DETAILS_FAILED: 'Failed to load user details',
  NOT_FOUND: 'User not found',
  NOT_FOUND_MESSAGE: 'The user you are looking for does not exist.',
  EMPTY: 'No users found',
  EMPTY_FILTERED: 'No users match your search or filters.',
  AUDIT_FAILED: 'Failed to load the activity history',
  AUDIT_EMPTY: 'No activity recorded for this user yet',
  count: (count: number) => countNoun(count, Nouns.USER),
} as const;

/** Add User (docs/requirements.md#validation-add-user, in the order they are checked; docs/requirements.md#errors-add-user). */
export const AddUserTexts = {
  FULL_NAME_REQUIRED: 'Full name is required',
  EMAIL_REQUIRED: 'Email is required',
  EMAIL_INVALID: 'Invalid email format',
  EMAIL_MIXED_SCRIPTS: MIXED_SCRIPT_EMAIL_TEXT,
  PASSWORD_REQUIRED: 'Password is required',
  PASSWORD_MIN: 'Password must be at least 6 characters',
  PASSWORDS_MISMATCH: 'Passwords do not match',
  ROLE_REQUIRED: 'At least one role is required',
  STATUS_REQUIRED: 'Status is required',
  EMAIL_TAKEN: 'This email address is already registered',
  CHECK_INPUT: 'Please check your input and try again',
  CREATE_FAILED: 'Failed to create user. Please try again.',
  ADMIN_ONLY: 'ADMIN can only be assigned by existing admins.',
  created: (name: string) => `User ${name} was created.`,
} as const;

/** Ban, unban, new password and edit on the details view (docs/requirements.md#validation-ban, docs/requirements.md#errors-user-admin). */
export const UserActionTexts = {
  BAN_FAILED: 'Failed to ban user. Please try again.',
  UNBAN_FAILED: 'Failed to unban user. Please try again.',
  GENERATE_FAILED: 'Failed to generate new password. Please try again.',
  UPDATE_FAILED: 'Failed to update user. Please try again.',
  REASON_REQUIRED: 'A reason is required',
  BANNED: (name: string) => `${name} was banned.`,
  UNBANNED: (name: string) => `${name} was unbanned.`,
  UPDATED: 'User updated.',
  GENERATE_CONFIRM: (name: string) => `Generate a new password for ${name}? Their current password stops working at once.`,
  PASSWORD_SHOWN_ONCE: 'Copy this password now: it will not be shown again.',
  PASSWORD_EMAILED: (email: string) => `It was also e-mailed to ${email}.`,
  PASSWORD_NOT_EMAILED: 'It was not e-mailed: give it to the user yourself.',
  COPIED: 'Copied',
  COPY_FAILED: 'Copy failed: select the password and copy it yourself.',
} as const;

/** Muting a user's comments (beyond the spec, in its tone). */
export const MuteTexts = {
  MUTE_FAILED: 'Failed to mute user. Please try again.',
  UNMUTE_FAILED: 'Failed to unmute user. Please try again.',
  REASON_REQUIRED: 'A reason is required',
  REASON_TOO_LONG: 'The reason cannot exceed 500 characters',
  DATE_REQUIRED: 'Choose the last day of the mute',
  DATE_PAST: 'The date must be in the future',
  MUTED: (name: string) => `${name} was muted.`,
  UNMUTED: (name: string) => `${name} can comment again.`,
} as const;

export type { UserStatus };
export const USER_STATUSES: readonly UserStatus[] = ['ACTIVE', 'PENDING', 'INACTIVE', 'BANNED'];

export const STATUS_LABELS: Record<UserStatus, string> = { ACTIVE: 'Active', PENDING: 'Pending', INACTIVE: 'Inactive', BANNED: 'Banned' };

/** A failed read of the users list or a user (the reason under the spec's title): the server's message. */
export const USERS_LOAD_ERRORS: ErrorTexts = { fallback: CommonTexts.UNEXPECTED_ERROR };

/** The same as a function, for the pages that call it. */
export const usersLoadMessage = (error: unknown): string => errorText(error, USERS_LOAD_ERRORS);

/**
 * A failed admin action's alert (docs/requirements.md#errors-user-admin: "the server message is used when
 * present"): a 5xx or a failure without a message reads as the action's own text.
 */
export const actionErrors = (actionFailed: string): ErrorTexts => ({ fallback: actionFailed, server: actionFailed });

/** An administrator's reset of a user's two-factor sign-in. */
export const TwoFactorResetTexts = {
  BUTTON: 'Reset 2FA',
  TITLE: 'Reset Two-Factor Sign-In',
  CONFIRM: (name: string) =>
    `Turn off two-factor sign-in for ${name}? Signing in will need their password only, and their recovery codes stop working. They will be told by e-mail.`,
  ACTION: 'Reset 2FA',
  FAILED: 'Failed to reset two-factor sign-in',
  DONE: (name: string) => `Two-factor sign-in was reset for ${name}; they were told by e-mail.`,
} as const;
