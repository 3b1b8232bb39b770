/** Texts of the accounts area (spec 000 §5, §8; DESIGN.md §4), verbatim. */
export const AuthMessages = {
  AUTH_REQUIRED: 'Authentication required. Please log in to continue.',
  AUTH_FAILED: 'Authentication failed. Please log in again.',
  ACCOUNT_LOCKED: 'Account not verified or locked.',
  FORBIDDEN: 'You do not have permission to access this resource.',
  CSRF: 'Missing X-Request-Timestamp header: cookie-authenticated requests that change data must send it.',
} as const;
