/** Texts of the sessions list API (English, the spec's tone). */
export const AccountSessionsMessages = {
  LIST: 'Sessions retrieved successfully',
  NOT_FOUND: 'Session not found',
  INVALID_ID: 'Invalid session ID.',
  OTHERS_SIGNED_OUT: 'Signed out of all other sessions',
  ALERTS: 'Sign-in alert settings retrieved successfully',
  ALERTS_SAVED: 'Sign-in alert settings saved',
  BOOLEAN: 'must be true or false',
  NEW_DEVICE_EMAIL_REQUIRED: 'newDeviceEmail is required',
} as const;
