/**
 * Texts every feature shares: the client's own error texts (docs/requirements.md#texts) and the notice on
 * controls whose feature is not built yet.
 */
export const CommonTexts = {
  NETWORK_ERROR: 'Network error. Please check your connection and try again.',
  UNEXPECTED_ERROR: 'An unexpected error occurred',
  FEATURE_PENDING: 'Feature under development',
} as const;
