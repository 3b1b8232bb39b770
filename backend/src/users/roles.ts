// The caller's roles, as @Auth({ role }) and AuthUser speak of them: every feature may import this (users stores them).
/** Ranked ADMIN (3) > AUTHOR (2) > USER (1); a user holds several, the highest counts. */
export enum RoleName {
  ADMIN = 'ADMIN',
  AUTHOR = 'AUTHOR',
  USER = 'USER',
}

export const ROLE_RANK: Record<RoleName, number> = { ADMIN: 3, AUTHOR: 2, USER: 1 };

/** The highest-ranked role of a list; none = USER. */
export function effectiveRole(roles: readonly RoleName[]): RoleName {
  return roles.reduce<RoleName>((best, role) => (ROLE_RANK[role] > ROLE_RANK[best] ? role : best), RoleName.USER);
}
