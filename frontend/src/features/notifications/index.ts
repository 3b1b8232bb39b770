// notifications' public surface for other features (the account page's preferences form).
export { notificationActions } from './notification-actions';
export type { NotificationPreferences } from './notifications';
export { EVENT_LABELS, notificationErrorMessage, PreferenceTexts } from './texts';
