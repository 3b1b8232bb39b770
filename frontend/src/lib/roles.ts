import type { RoleName } from './api/schema';

/** Roles ranked ADMIN (3) > AUTHOR (2) > USER (1); the highest held role counts; none = USER. */
export type { RoleName };

const RANK: Record<RoleName, number> = { ADMIN: 3, AUTHOR: 2, USER: 1 };

export function effectiveRole(roles: readonly (string | { name: string })[] | undefined): RoleName {
  let best: RoleName = 'USER';
  for (const role of roles ?? []) {
    const name = (typeof role === 'string' ? role : role.name).toUpperCase() as RoleName;
    if (RANK[name] && RANK[name] > RANK[best]) best = name;
  }
  return best;
}

/** The header's Dashboard link: /admin for ADMIN, /author for AUTHOR, else /dashboard. */
export function dashboardPath(role: RoleName): string {
  return role === 'ADMIN' ? '/admin' : role === 'AUTHOR' ? '/author' : '/dashboard';
}

/** A role string with a capital first letter and the rest lower-case ('ADMIN' → 'Admin'). */
export function roleLabel(role: string): string {
  return role ? role.charAt(0).toUpperCase() + role.slice(1).toLowerCase() : '';
}

export interface NavItem {
  label: string;
  href: string;
}

/** Each role's own side-panel links, between its Dashboard (dashboardPath) and Account. */
const ROLE_NAV: Record<RoleName, NavItem[]> = {
  ADMIN: [
    { label: 'Users', href: '/admin/users' },
    { label: 'Posts', href: '/admin/posts' },
    { label: 'Comments', href: '/admin/comments' },
    { label: 'Tags', href: '/admin/tags' },
    { label: 'Subscribers', href: '/admin/subscribers' },
    { label: 'Settings', href: '/admin/settings' },
    { label: 'Integrations', href: '/admin/integrations' },
    { label: 'Federation', href: '/admin/federation' },
    { label: 'Import & Export', href: '/admin/import' },
    { label: 'Stats', href: '/admin/stats' },
  ],
  AUTHOR: [
    { label: 'My Posts', href: '/author/posts' },
    { label: 'New Post', href: '/author/posts/new' },
    { label: 'Drafts', href: '/author/drafts' },
    { label: 'Stats', href: '/author/stats' },
  ],
  USER: [
    { label: 'Liked Posts', href: '/liked-posts' },
    { label: 'My Comments', href: '/my-comments' },
  ],
};

/** The side panel's links by role (docs/requirements.md#shell-side-panel): Dashboard, the role's own links, Account. */
export function sideNav(role: RoleName): NavItem[] {
  return [{ label: 'Dashboard', href: dashboardPath(role) }, ...(ROLE_NAV[role] ?? ROLE_NAV.USER), { label: 'Account', href: '/account' }];
}
