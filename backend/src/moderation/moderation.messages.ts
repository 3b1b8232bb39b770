/** Texts of comment moderation, in the tone of the spec's comment texts. */
import { countNoun, englishNoun } from '../../../isomorphic/plural';

export const ModerationMessages = {
  REASON_INVALID: 'reason must be one of SPAM, HARASSMENT, OFF_TOPIC, OTHER',
  DETAILS_REQUIRED: 'Please tell us what is wrong with this comment.',
  DETAILS_TOO_LONG: 'details must be at most 500 characters',
  HIDE_REASON_REQUIRED: 'Please give a reason for hiding this comment.',
  REASON_TOO_LONG: 'reason must be at most 500 characters',
  MUTE_REASON_REQUIRED: 'Please give a reason for muting this user.',
  UNTIL_REQUIRED: 'until is required: an ISO date-time, or null to mute for good',
  UNTIL_INVALID: 'until must be an ISO date-time in the future (or null to mute for good)',
  FILTER_INVALID: 'filter must be one of reported, hidden, held, all',
  SORT_INVALID: 'sort must be one of newest, reports',
  SEARCH_TOO_LONG: 'search must be at most 100 characters',
  IDS_INVALID: 'ids must be 1 to 100 comment ids (positive whole numbers)',
  ACTION_INVALID: 'action must be one of hide, restore, delete, dismiss',

  NOT_FOUND: 'Comment not found.',
  OWN_COMMENT: 'You cannot report your own comment.',
  ALREADY_REPORTED: 'You have already reported this comment.',
  REPORT_LIMIT: (limit: number) => `You can report at most ${countNoun(limit, englishNoun('comment'))} a day. Please try again later.`,
  FORBIDDEN_HIDE: 'You do not have permission to hide this comment.',
  FORBIDDEN_ADMIN: 'You do not have permission to moderate comments.',
  ALREADY_HIDDEN: 'This comment is already hidden.',
  NOT_MODERATED: 'This comment is neither hidden nor held.',
  NO_OPEN_REPORTS: 'This comment has no open reports.',

  REPORTED: 'Thank you. The comment has been reported to the moderators.',
  HIDDEN: 'Comment has been hidden.',
  RESTORED: 'Comment has been restored.',
  DELETED: 'Comment has been deleted.',
  DISMISSED: 'Reports have been dismissed.',
  BULK_DONE: 'Bulk action done.',
  MUTED: 'User has been muted.',
  UNMUTED: 'User can comment again.',
};
