/** Texts shared by every module (docs/requirements.md#texts, docs/requirements.md#envelope), verbatim. */
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
  /** While the database is unreachable or the server is stopping (with Retry-After). */
  TEMPORARILY_UNAVAILABLE: 'Service temporarily unavailable. Please try again later.',
  HEADERS_TOO_LARGE: 'Request headers are too large.',
  /** A write from a page of another origin (the cross-site request rule, auth/same-origin.ts). */
  CROSS_ORIGIN_WRITE: 'This request came from another site and was refused. Please use Inkwell itself.',
  REQUEST_TIMEOUT: 'The request took too long to arrive.',
  textHasNul: (field: string) => `${field} must not contain the NUL character (U+0000)`,
  textNotWellFormed: (field: string) => `${field} must be well-formed Unicode text (it contains a lone surrogate)`,
} as const;
