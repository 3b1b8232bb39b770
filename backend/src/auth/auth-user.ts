import type { UserResponseDto } from '../users/dto/user-response.dto';
import { RoleName } from './roles';

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
}

export const ACCESS_COOKIE = 'inkwell_access';
export const REFRESH_COOKIE = 'inkwell_refresh';

/** Access tokens live 15 minutes (DESIGN.md §4). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessTokenPayload {
  sub: number;
  sid?: string;
}
