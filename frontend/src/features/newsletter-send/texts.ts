/** Texts of the newsletter panel on the admin's edit page (English, as the back-office). */
export const NewsletterSendTexts = {
  HEADING: 'Newsletter e-mail',
  HELP_BEFORE: 'When this post is published, its followers get it by e-mail (once each).',
  SEND_EMAIL: 'E-mail this post to its followers when it is published',
  PUBLISH_WITHOUT: 'Publish without e-mail: followers will not be e-mailed about this post.',
  SAVED_ON: 'Followers will be e-mailed when the post is published.',
  SAVED_OFF: 'This post will be published without e-mail.',
  TEST: 'Send a test to me',
  TESTING: 'Sending…',
  tested: (to: string) => `Test e-mail sent to ${to}.`,
  SHOW_PREVIEW: 'Preview the e-mail',
  HIDE_PREVIEW: 'Hide the preview',
  PREVIEW_TITLE: 'Preview of the newsletter e-mail',
  LOAD_FAILED: 'The newsletter status could not be loaded.',
  RETRY: 'Retry failed',
  retried: (n: number) => (n === 1 ? '1 failed e-mail queued again.' : `${n} failed e-mails queued again.`),
  STATE: {
    none: 'Not sent (the post has not been published since the newsletter exists).',
    pending: 'Waiting for the post to be published.',
    queued: 'Listing the recipients…',
    sending: 'Sending…',
    done: 'Sent.',
    off: 'Not e-mailed.',
  } as Record<string, string>,
  COUNTS: { queued: 'Queued', sent: 'Sent', failed: 'Failed', bounced: 'Bounced', suppressed: 'Suppressed', skipped: 'Skipped' } as Record<
    string,
    string
  >,
  PROBLEMS: 'Failed and bounced',
  recipients: (n: number) => (n === 1 ? '1 recipient' : `${n} recipients`),
} as const;
