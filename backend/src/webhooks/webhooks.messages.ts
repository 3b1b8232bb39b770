import { WEBHOOK_EVENTS } from './webhook-events';

/** Texts of the webhook administration (docs/integrations.md, 'Webhooks'), in the tone of the admin screens. */
export const WebhooksMessages = {
  AUTH_REQUIRED: 'Authentication required. Please log in to manage webhooks.',
  FORBIDDEN: 'You do not have permission to manage webhooks.',
  INVALID_ID: 'Invalid webhook ID.',
  INVALID_DELIVERY_ID: 'Invalid delivery ID.',
  NOT_FOUND: 'Webhook not found.',
  DELIVERY_NOT_FOUND: 'Delivery not found.',

  URL_REQUIRED: 'URL is required',
  URL_MAX: 'URL must be at most 2000 characters',
  EVENTS_REQUIRED: 'Choose at least one event',
  EVENTS_INVALID: `Each event must be one of ${WEBHOOK_EVENTS.join(', ')}`,
  ACTIVE_INVALID: 'active must be true or false',
  INCLUDE_EMAILS_INVALID: 'includeEmails must be true or false',
  ROTATE_SECRET_INVALID: 'rotateSecret must be true or false',

  CREATED: 'Webhook created. Copy its secret to verify the signatures.',
  UPDATED: 'Webhook saved.',
  SECRET_ROTATED: 'Webhook saved with a new secret. Update your receiver.',
  TEST_DELIVERED: 'Test event delivered.',
  TEST_FAILED: 'Test event not delivered.',
  REDELIVERY_QUEUED: 'Redelivery queued.',
  INACTIVE_REDELIVER: 'This webhook is turned off: turn it on to redeliver.',
  INACTIVE_TEST: 'This webhook is turned off: turn it on to send a test event.',

  /** Delivery log entries written by the worker rather than a receiver. */
  TURNED_OFF: 'Not sent: the webhook is turned off.',
  disabledReason: (hours: string) => `Turned off after ${hours} of failed deliveries.`,
} as const;
