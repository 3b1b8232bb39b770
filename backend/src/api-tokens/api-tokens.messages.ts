import { API_TOKEN_NAME_MAX, API_TOKEN_SCOPES } from '../../../isomorphic/api-tokens';

/** Texts of personal API tokens (beyond the spec, in its tone). */
export const ApiTokensMessages = {
  CREATED: 'API token created. Copy it now: it will not be shown again.',
  LISTED: 'API tokens',
  NOT_FOUND: 'API token not found.',
  ADMIN_SCOPE_FORBIDDEN: 'Only administrators can create tokens with the admin scope.',
  tooMany: (max: number) => `You can have at most ${max} API tokens. Revoke one to create another.`,

  NAME_REQUIRED: 'Token name is required',
  NAME_MAX: `Token name must be at most ${API_TOKEN_NAME_MAX} characters`,
  SCOPES_REQUIRED: 'Choose at least one scope',
  SCOPES_INVALID: `Scopes must be chosen from ${API_TOKEN_SCOPES.join(', ')}`,
  SCOPES_REPEATED: 'Each scope may be given once',
  EXPIRY_INVALID: 'Expiry must be 30, 90 or 365 days, or null for a token that does not expire',

  // Using a token (the guard)
  INVALID: 'Invalid or revoked API token.',
  EXPIRED: 'This API token has expired.',
  lacksScope: (scope: string) => `token lacks scope ${scope}`,
  SESSION_ONLY: 'API tokens cannot be used here: sign in to do this.',
} as const;
