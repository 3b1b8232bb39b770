/** Texts of scheduled publishing (issue 20), in the spec's tone. */
export const SchedulingMessages = {
  publishTimeInvalid: (label: string) => `${label} must be a date and time with its time zone, e.g. 2026-12-01T09:00:00+07:00.`,
  publishTimeTooSoon: (label: string) => `${label} must be at least 1 minute in the future.`,
  publishTimeTooFar: (label: string) => `${label} must be at most 1 year ahead.`,
  PUBLISH_AT_LABEL: 'Publish time',
  REQUESTED_LABEL: 'Requested publish time',
  PUBLISH_AT_ONLY_WHEN_APPROVING: 'A publish time can only be set when approving a post.',
  NOT_SCHEDULED: 'This post is not scheduled: only an approved post waiting for its publish time can be rescheduled or cancelled.',
  FORBIDDEN_SCHEDULE: 'You do not have permission to schedule posts.',
  APPROVED_AND_SCHEDULED: 'Post approved and scheduled.',
  RESCHEDULED: 'Schedule updated.',
  CANCELLED: 'Schedule cancelled.',
  OFFSET_INVALID: 'offsetSeconds must be a whole number of seconds from -31622400 to 31622400.',
  FORBIDDEN_TEST_CLOCK: 'You do not have permission to move the clock.',
  CLOCK_MOVED: 'Clock moved; due posts were published.',
} as const;
