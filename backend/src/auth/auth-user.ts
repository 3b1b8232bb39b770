import type { UserResponseDto } from '../users/dto/user-response.dto';
import type { ActiveMute } from '../users/active-mute';
import type { ApiTokenScope } from '../../../isomorphic/api-tokens';
import { RoleName } from '../users/roles';

/** Who is calling: loaded from the database on every authenticated request (`@CurrentUser()`). */
export interface AuthUser {
  id: number;
  email: string;
  fullName: string;
  roles: RoleName[];
  /** The highest-ranked held role (none = USER). */
  role: RoleName;
  /** The refresh session the access token belongs to (absent for tokens without one). */
  sessionId?: string;
  /**
   * The caller's profile as GET /users/profile answers it, read by the same query that checked
   * the session (SessionsService.resolveCaller), so a signed-in page's session costs one query.
   */
  profile?: UserResponseDto;
  /** The caller's commenting mute in force (null: none), read by the same query as `profile`. */
  commentingMute?: ActiveMute | null;
  /**
   * Set when the caller came with a personal API token instead of a session: its id and scopes.
   * Without the `admin` scope the caller acts without the ADMIN role (`roles`/`role` leave it out).
   */
  apiToken?: { id: number; scopes: ApiTokenScope[] };
  /** What the route asked to read along with the session (`@Auth({ alongside })`), by key; absent when not read. */
  alongside?: Record<string, unknown>;
}

/**
 * A value a route reads in the session's own query (`@Auth({ alongside: [read] })`), so that a
 * small signed-in read costs one round trip instead of two: an SQL expression over the caller's
 * row `users u`, from a constant of the feature that owns the data (the notifications' bell, say).
 * The route still reads it itself when `alongside[key]` is absent (a page's calls share one
 * session check, made by whichever call came first).
 */
export interface CallerRead {
  key: string;
  sql: string;
}

export const ACCESS_COOKIE = 'inkwell_access';
export const REFRESH_COOKIE = 'inkwell_refresh';

/** Access tokens live 15 minutes (docs/requirements.md#decision-tokens). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessTokenPayload {
  sub: number;
  sid?: string;
}
