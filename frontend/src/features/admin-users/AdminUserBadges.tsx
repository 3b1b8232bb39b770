/**
 * Badges of the user administration (not hydrated on their own): role badges (docs/requirements.md#screen-admin-users styles;
 * docs/requirements.md#role-badges: up to 3 in the list, up to 10 in details, then '+n more'; with several roles a
 * tooltip lists them all with their assignment dates), the status pill and the verified mark.
 */
import { badgeStyle, ROLE_BADGE_STYLES, roleTooltip, sortedRoles } from '../../lib/role-badges';
import { roleLabel } from '../../lib/roles';
import type { SessionRole } from '../../lib/session';
import { STATUS_LABELS, type UserStatus } from './texts';

const PILL = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset';

export function AdminUserRoleBadges({ roles: input, max }: { roles: readonly SessionRole[] | undefined; max: number }) {
  const roles = sortedRoles(input);
  const shown = roles.slice(0, max);
  const hidden = roles.slice(max);
  const tooltip = roles.length > 1 ? roleTooltip(roles) : undefined;
  return (
    <span className="inline-flex flex-wrap items-center gap-1" title={tooltip} data-role-badges>
      {shown.map((role) => (
        <span key={role.name} className={`${PILL} ${badgeStyle(role.name)}`}>
          {roleLabel(role.name)}
        </span>
      ))}
      {hidden.length > 0 && (
        <span className={`${PILL} ${ROLE_BADGE_STYLES.MULTIPLE}`}>
          +{hidden.length} more<span className="sr-only">: {hidden.map((role) => roleLabel(role.name)).join(', ')}</span>
        </span>
      )}
    </span>
  );
}

const STATUS_STYLES: Record<UserStatus, string> = {
  ACTIVE: 'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-900',
  PENDING: 'bg-amber-50 text-amber-800 ring-amber-200 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-900',
  INACTIVE: 'bg-slate-100 text-slate-700 ring-slate-200 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-700',
  BANNED: 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-950 dark:text-red-200 dark:ring-red-900',
};

export function AdminUserStatusBadge({ status }: { status: string }) {
  const known = status in STATUS_STYLES ? (status as UserStatus) : undefined;
  return (
    <span className={`${PILL} ${known ? STATUS_STYLES[known] : STATUS_STYLES.INACTIVE}`} data-status={status}>
      {known ? STATUS_LABELS[known] : roleLabel(status)}
    </span>
  );
}

export function AdminUserVerifiedBadge({ verified }: { verified: boolean }) {
  return verified ? (
    <span className={`${PILL} bg-sky-50 text-sky-800 ring-sky-200 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-900`}>Verified</span>
  ) : (
    <span className={`${PILL} bg-slate-100 text-slate-700 ring-slate-200 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-700`}>
      Unverified
    </span>
  );
}
