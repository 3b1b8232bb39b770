/** Texts shared by every module (spec 000 §8, spec 001 §8, DESIGN.md §3), verbatim. */
export const CommonMessages = {
  OK: 'OK',
  CREATED: 'Created',
  UNEXPECTED: 'An unexpected error occurred',
  INVALID_REQUEST: 'Invalid request. Please check your input.',
  MALFORMED_JSON: 'Invalid request. Please check your input.',
  PAYLOAD_TOO_LARGE: 'Request body is too large.',
  NOT_FOUND: 'Not found.',
  TOO_MANY_ATTEMPTS: 'Too many attempts. Please wait before trying again.',
  AUTH_FAILED: 'Authentication failed. Please log in again.',
  FORBIDDEN: 'You do not have permission to access this resource.',
  INVALID_ID: 'Invalid id: it must be a positive whole number.',
  SERVICE_UNAVAILABLE: 'Service unavailable.',
} as const;
