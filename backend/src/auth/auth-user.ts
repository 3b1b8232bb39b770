export type { AuthUser } from '../common/auth-user';

export const ACCESS_COOKIE = 'inkwell_access';
export const REFRESH_COOKIE = 'inkwell_refresh';

/** Access tokens live 15 minutes (DESIGN.md §4). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessTokenPayload {
  sub: number;
  sid?: string;
}
