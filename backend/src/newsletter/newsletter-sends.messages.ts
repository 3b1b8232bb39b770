/** Texts of the newsletter's sending API (English, the spec's tone). */
export const NewsletterSendsMessages = {
  BOUNCES_RECORDED: 'Bounce and complaint events recorded',
  SIGNATURE_INVALID: 'The signature of this bounce report is missing, invalid or too old',
  EVENTS_INVALID: 'events must be a list of 1 to 1000 { type, email } objects',
  TYPE_INVALID: 'type must be one of hard_bounce, soft_bounce, complaint',
  EMAIL_INVALID: 'email must be an e-mail address',
  FORBIDDEN: 'Only administrators can manage newsletter sends.',
  POST_NOT_FOUND: 'Post not found',
  SEND_STATUS: 'Newsletter send retrieved successfully',
  SEND_SETTING_SAVED: 'Newsletter setting saved',
  SEND_ALREADY_STARTED: 'This post has already been e-mailed (or is being e-mailed); the setting can no longer change',
  DELIVERIES: 'Newsletter deliveries retrieved successfully',
  STATE_INVALID: 'state must be one of queued, sent, failed, bounced, suppressed, skipped',
  RETRIED: 'Failed newsletter e-mails queued again',
  TEST_SENT: 'Test e-mail sent',
  TEST_FAILED: 'The test e-mail could not be sent',
  SEND_EMAIL_BOOLEAN: 'sendEmail must be true or false',
} as const;
