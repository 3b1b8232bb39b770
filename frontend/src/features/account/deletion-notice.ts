/** The home page's address after 'Delete my account': its query asks for the confirmation (DeletionScheduledNotice.astro). */
export const DELETION_NOTICE_PARAM = 'account';
export const DELETION_NOTICE_VALUE = 'deletion-scheduled';
export const DELETION_SCHEDULED_ADDRESS = `/?${DELETION_NOTICE_PARAM}=${DELETION_NOTICE_VALUE}`;
