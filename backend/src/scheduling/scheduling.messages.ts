/** Texts of scheduled publishing, in the spec's tone. */
export const SchedulingMessages = {
  PUBLISH_AT_ONLY_WHEN_APPROVING: 'A publish time can only be set when approving a post.',
  FORBIDDEN_SCHEDULE: 'You do not have permission to schedule posts.',
  APPROVED_AND_SCHEDULED: 'Post approved and scheduled.',
  RESCHEDULED: 'Schedule updated.',
  CANCELLED: 'Schedule cancelled.',
  OFFSET_INVALID: 'offsetSeconds must be a whole number of seconds from -31622400 to 31622400.',
  FORBIDDEN_TEST_CLOCK: 'You do not have permission to move the clock.',
  CLOCK_MOVED: 'Clock moved; due posts were published.',
} as const;
