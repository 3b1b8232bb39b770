/**
 * Personal API tokens: the scopes a token may carry, the lifetimes a user may pick,
 * and which scope a route asks of a token. One pure module for the API (the guard, the OpenAPI
 * document) and the /account page, so the three never disagree.
 */

/** What a token may do. `admin` is offered to administrators only. */
export const API_TOKEN_SCOPES = ['read', 'posts:write', 'comments:write', 'admin'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  read: 'Read: everything you can see, through GET requests',
  'posts:write': 'Write posts: create, edit, submit and delete your posts',
  'comments:write': 'Write comments: comment, reply, edit and delete your comments',
  admin: 'Administration: the administrator routes (administrators only)',
};

/** Lifetimes in days; null: the token does not expire. */
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365, null] as const;
export type ApiTokenExpiryDays = (typeof API_TOKEN_EXPIRY_DAYS)[number];

/** Every token starts with this, so secret scanners and people recognise one. */
export const API_TOKEN_PREFIX = 'inkw_';
/** `inkw_` + 32 random bytes in base64url (43 characters). */
export const API_TOKEN_PATTERN = /^inkw_[A-Za-z0-9_-]{43}$/;

export const API_TOKEN_NAME_MAX = 100;

/** What a route is, as far as tokens are concerned. */
export interface TokenRoute {
  method: string;
  /** The route's path with its prefix: /api/v1/account/tokens/{id} or /api/v1/account/tokens/:id. */
  path: string;
  /** The lowest role the route admits (from `@Auth({ role })`). */
  role?: 'ADMIN' | 'AUTHOR' | 'USER';
  /** The scope the route declares for writes (`@TokenScope()`). */
  declaredScope?: ApiTokenScope;
  /** The route declared itself session-only (`@SessionOnly()`). */
  sessionOnly?: boolean;
}

/** A token reaches the route with this scope, or never ('session'). */
export type TokenAccess = ApiTokenScope | 'session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Paths no token reaches whatever their decorators: signing in, passwords, two-factor, the
 * tokens themselves and every other part of the account.
 */
export const SESSION_ONLY_PATHS = /^\/api\/v1\/(auth|account)(\/|$)/;

/**
 * The scope a token needs for a route (default deny):
 * - the account and sign-in paths, and routes marked session-only: none will do;
 * - administrator routes: `admin`, whatever the method;
 * - a declared scope: that one;
 * - other safe methods: `read`;
 * - any other write: none (a write route must declare its scope to admit tokens).
 */
export function tokenAccessOf(route: TokenRoute): TokenAccess {
  if (route.sessionOnly || SESSION_ONLY_PATHS.test(route.path)) return 'session';
  if (route.role === 'ADMIN') return 'admin';
  if (route.declaredScope) return route.declaredScope;
  if (SAFE_METHODS.has(route.method.toUpperCase())) return 'read';
  return 'session';
}

/** The scopes a user of these roles may put on a token. */
export function grantableScopes(isAdmin: boolean): ApiTokenScope[] {
  return API_TOKEN_SCOPES.filter((scope) => scope !== 'admin' || isAdmin);
}
