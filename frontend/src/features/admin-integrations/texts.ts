/**
 * Texts of /admin/integrations (webhooks): the list, the form, the test event and
 * the delivery log. The API's own messages (field errors, 'Webhook saved.') are shown as sent.
 */
import type { ErrorTexts } from '../../lib/texts/error-text';

export const IntegrationsTexts = {
  TITLE: 'Integrations',
  SUBTITLE: 'Webhooks send what happens on the site to other systems, signed with a secret they can check.',
  WEBHOOKS: 'Webhooks',
  NONE: 'No webhooks yet.',
  ADD: 'Add webhook',
  EDIT: 'Edit',
  LOG: 'Delivery log',
  DELETE: 'Delete',
  CONFIRM_DELETE: (url: string) => `Delete the webhook to ${url}? Its delivery log goes with it.`,
  DELETED: 'Webhook deleted.',
  ACTIVE: 'On',
  OFF: 'Off',
  NEVER: 'No attempt yet',
  LAST_OK: 'Last delivery succeeded',
  LAST_FAILED: 'Last delivery failed',
  eventsCount: (n: number) => `${n} event${n === 1 ? '' : 's'}`,

  NEW_TITLE: 'New webhook',
  EDIT_TITLE: 'Edit webhook',
  URL: 'Payload URL',
  URL_HINT: 'An http(s) address on the public internet; deliveries are POSTed there as JSON.',
  EVENTS: 'Events to send',
  INCLUDE_EMAILS: 'Include e-mail addresses in user events',
  INCLUDE_EMAILS_HINT: 'user.registered and user.banned then carry the account’s e-mail address.',
  ACTIVE_LABEL: 'Active',
  ROTATE: 'Draw a new secret when saving',
  SAVE: 'Save webhook',
  CREATE: 'Create webhook',
  CANCEL: 'Cancel',
  SECRET: 'Signing secret',
  SECRET_HINT: 'Receivers check X-Inkwell-Signature with it (see the README’s Webhooks section).',
  COPY: 'Copy secret',
  COPIED: 'Secret copied.',
  COPY_FAILED: 'Could not copy: select the secret and copy it.',

  TEST: 'Send test event',
  TEST_RESULT: 'Test event result',
  LOG_TITLE: (url: string) => `Delivery log of ${url}`,
  LOG_EMPTY: 'No attempts yet.',
  LOG_CAPTION: 'The last 100 attempts, newest first.',
  LOG_REGION: 'Delivery log table',
  REFRESH: 'Refresh',
  WHEN: 'Time',
  EVENT: 'Event',
  RESULT: 'Result',
  DURATION: 'Duration',
  RESPONSE: 'Response',
  DELIVERY: 'Delivery',
  REDELIVER: 'Redeliver',
  redeliverLabel: (event: string, when: string) => `Redeliver ${event} of ${when}`,
  /** An attempt's own outcome (a 2xx answer or not), whatever became of its delivery after it. */
  ATTEMPT_OK: 'Delivered',
  ATTEMPT_FAILED: 'Failed',
  httpStatus: (code: number) => `HTTP ${code}`,
  ms: (n: number) => `${n} ms`,

  LOAD_FAILED: 'Failed to load webhooks',
  SAVE_FAILED: 'Failed to save the webhook. Please try again.',
  ACTION_FAILED: 'That did not work. Please try again.',
} as const;

export const WEBHOOK_EVENT_LABELS: Record<string, string> = {
  'post.published': 'A post is published',
  'post.unpublished': 'A post is unpublished',
  'post.updated': 'A post is updated',
  'post.deleted': 'A post is deleted',
  'comment.created': 'A comment is written',
  'comment.hidden': 'A comment is hidden',
  'user.registered': 'Someone signs up',
  'user.banned': 'An account is banned',
  'tag.created': 'A tag is created',
  'tag.updated': 'A tag is updated',
};

export const INTEGRATIONS_ERRORS: ErrorTexts = { fallback: IntegrationsTexts.ACTION_FAILED, fieldErrors: [400] };
