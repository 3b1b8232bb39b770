/** Texts of the notifications API (English, the spec's tone). */
export const NotificationsMessages = {
  LIST: 'Notifications retrieved successfully',
  UNREAD: 'Unread count retrieved successfully',
  READ: 'Notification marked as read',
  READ_ALL: 'All notifications marked as read',
  NOT_FOUND: 'Notification not found',
  INVALID_ID: 'Invalid notification ID.',
  PREFERENCES: 'Notification preferences retrieved successfully',
  PREFERENCES_SAVED: 'Notification preferences saved',
  TYPE_INVALID: 'type must be one of the notification types',
  TYPE_NOT_FOR_ROLE: 'This notification type does not apply to your account',
  BOOLEAN: 'must be true or false',
  EVENTS_ARRAY: 'events must be a list of { type, inApp, email }',
  TOKEN_INVALID: 'This unsubscribe link is not valid',
  UNSUBSCRIBE_PREVIEW: 'Unsubscribe link checked',
  UNSUBSCRIBED: 'You have been unsubscribed',
} as const;
