/**
 * Texts of the user lifecycle's refusals (bans, mutes, the administrators' edits of roles and
 * status). The back office and moderation answer with them as they are.
 */
export const UserLifecycleMessages = {
  USER_NOT_FOUND: 'User not found',
  /** The caller stopped being an active administrator while the request ran. */
  FORBIDDEN: 'You do not have permission to manage users.',

  // Edits
  BAN_THROUGH_UPDATE: 'Use the ban action to ban a user: it needs a reason.',
  BANNED_STATUS_LOCKED: 'This user is banned: use the unban action to change their status.',

  // Bans
  ALREADY_BANNED: 'This user is already banned.',
  NOT_BANNED: 'This user is not banned.',

  // Mutes
  MUTE_SELF: 'You cannot mute your own account.',
  NOT_MUTED: 'This user is not muted.',

  // Guards on one's own account and on the last administrator
  SELF_BAN: 'You cannot ban your own account.',
  SELF_DEACTIVATE: 'You cannot deactivate your own account.',
  SELF_DEMOTE: 'You cannot remove the ADMIN role from your own account.',
  // Deletion
  LAST_ADMIN_DELETION: 'The last active administrator cannot delete their account: make another administrator first.',
  DELETION_ALREADY_SCHEDULED: 'This account is already scheduled for deletion.',
  NO_DELETION_PENDING: 'This account is not scheduled for deletion.',
  PLACEHOLDER_ACCOUNT: "This is one of the site's placeholder accounts: it cannot be deleted.",

  LAST_ADMIN: 'The last active administrator cannot lose the ADMIN role, be banned or be deactivated.',
} as const;
