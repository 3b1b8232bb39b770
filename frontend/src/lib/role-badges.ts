/** Role badge styles and ordering shared by the Astro component and the islands (docs/requirements.md#role-badges). */
import { roleLabel } from './roles';
import { type SessionRole } from './session';
import { formatDate } from './dates';

export const ROLE_BADGE_STYLES: Record<'ADMIN' | 'AUTHOR' | 'USER' | 'MULTIPLE', string> = {
  ADMIN: 'bg-red-100 text-red-800 ring-red-200 dark:bg-red-950 dark:text-red-200 dark:ring-red-900',
  AUTHOR: 'bg-blue-100 text-blue-800 ring-blue-200 dark:bg-blue-950 dark:text-blue-200 dark:ring-blue-900',
  USER: 'bg-emerald-100 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-900',
  MULTIPLE: 'bg-violet-100 text-violet-800 ring-violet-200 dark:bg-violet-950 dark:text-violet-200 dark:ring-violet-900',
};

const RANK: Record<string, number> = { ADMIN: 3, AUTHOR: 2, USER: 1 };

export function badgeStyle(role: string): string {
  return ROLE_BADGE_STYLES[role.toUpperCase() as keyof typeof ROLE_BADGE_STYLES] ?? ROLE_BADGE_STYLES.USER;
}

/** Roles, highest first; none = USER. */
export function sortedRoles(roles: readonly (SessionRole | string)[] | undefined): SessionRole[] {
  const list = (roles ?? []).map((role) => (typeof role === 'string' ? { name: role } : role));
  if (list.length === 0) return [{ name: 'USER' }];
  return [...list].sort((a, b) => (RANK[b.name.toUpperCase()] ?? 0) - (RANK[a.name.toUpperCase()] ?? 0));
}

/** One tooltip line per role: 'Admin — assigned January 5, 2026'. */
export function roleTooltip(roles: SessionRole[]): string {
  return roles
    .map((role) => (role.assignedAt ? `${roleLabel(role.name)} — assigned ${formatDate(role.assignedAt)}` : roleLabel(role.name)))
    .join('\n');
}
