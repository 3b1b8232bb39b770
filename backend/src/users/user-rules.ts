import type { PasswordVia, UserChanges, UserFacts } from '../events/domain-events';
import { RoleName } from './roles';
import { UserStatus } from './entities/user.entity';

/**
 * The user lifecycle's rules, pure (user-rules.spec.ts walks them): who keeps access, who counts
 * as an active administrator, which changes are refused and why, and what an administrator's edit
 * changes. UserLifecycleService applies them inside its transactions; the refusals' texts and
 * statuses are its own.
 */

/** An account that may sign in and act: verified and ACTIVE. */
export function hasAccess(status: UserStatus | string, verified: boolean): boolean {
  return status === UserStatus.ACTIVE && verified;
}

/** Holds ADMIN and may sign in: what the last-administrator guard counts. */
export function isActiveAdmin(roles: readonly string[], status: UserStatus | string, verified: boolean): boolean {
  return roles.includes(RoleName.ADMIN) && hasAccess(status, verified);
}

/** An account as the rules see it. */
export interface UserState {
  id: number;
  fullName: string;
  bio: string | null;
  status: UserStatus;
  verified: boolean;
  roles: readonly RoleName[];
}

/** An administrator's edit: fields left out keep their values; `roles` replaces the roles held. */
export interface AdminUserEdit {
  fullName?: string;
  bio?: string | null;
  roles?: RoleName[];
  status?: UserStatus;
  isVerified?: boolean;
}

/** Why the lifecycle refuses a change; each has its answer (UserLifecycleService). */
export type UserRefusal =
  | 'self-ban'
  | 'self-mute'
  | 'self-deactivate'
  | 'self-demote'
  | 'ban-through-update'
  | 'banned-status-locked'
  | 'already-banned'
  | 'not-banned'
  | 'not-muted';

/** Nobody bans their own account (answered before the account is read). */
export function selfBanRefusal(targetId: number, actorId: number): UserRefusal | null {
  return targetId === actorId ? 'self-ban' : null;
}

/** Nobody mutes their own account (answered before the account is read). */
export function selfMuteRefusal(targetId: number, actorId: number): UserRefusal | null {
  return targetId === actorId ? 'self-mute' : null;
}

/** A ban is a separate action with a reason: an edit cannot set BANNED (answered before the account is read). */
export function banThroughEditRefusal(edit: AdminUserEdit): UserRefusal | null {
  return edit.status === UserStatus.BANNED ? 'ban-through-update' : null;
}

export function banRefusal(target: Pick<UserState, 'status'>): UserRefusal | null {
  return target.status === UserStatus.BANNED ? 'already-banned' : null;
}

export function unbanRefusal(target: Pick<UserState, 'status'>): UserRefusal | null {
  return target.status === UserStatus.BANNED ? null : 'not-banned';
}

/** The account after an edit. */
export function afterEdit(target: UserState, edit: AdminUserEdit): Pick<UserState, 'status' | 'verified' | 'roles'> {
  return { status: edit.status ?? target.status, verified: edit.isVerified ?? target.verified, roles: edit.roles ?? target.roles };
}

/**
 * An edit of the account as read: a banned account's status moves only through unban; nobody
 * takes their own access or their own ADMIN role away.
 */
export function editRefusal(target: UserState, edit: AdminUserEdit, actorId: number): UserRefusal | null {
  const banThroughEdit = banThroughEditRefusal(edit);
  if (banThroughEdit) return banThroughEdit;
  if (edit.status !== undefined && edit.status !== target.status && target.status === UserStatus.BANNED) return 'banned-status-locked';
  if (target.id === actorId) {
    const next = afterEdit(target, edit);
    if (!hasAccess(next.status, next.verified)) return 'self-deactivate';
    if (target.roles.includes(RoleName.ADMIN) && !next.roles.includes(RoleName.ADMIN)) return 'self-demote';
  }
  return null;
}

/** Whether an active administrator stops being one: then another must remain (the lifecycle counts them under its mutex). */
export function leavesActiveAdmins(
  before: Pick<UserState, 'status' | 'verified' | 'roles'>,
  after: Pick<UserState, 'status' | 'verified' | 'roles'>,
): boolean {
  return isActiveAdmin(before.roles, before.status, before.verified) && !isActiveAdmin(after.roles, after.status, after.verified);
}

/** What an edit changes, each field with its value before and after, in the order the audit log names them; empty when nothing. */
export function editChanges(target: UserState, edit: AdminUserEdit): UserChanges {
  const changes: UserChanges = {};
  const next = afterEdit(target, edit);
  if (edit.fullName !== undefined && edit.fullName !== target.fullName) changes.fullName = { from: target.fullName, to: edit.fullName };
  if (edit.bio !== undefined && (edit.bio ?? null) !== target.bio) changes.bio = { from: target.bio, to: edit.bio ?? null };
  if (next.status !== target.status) changes.status = { from: target.status, to: next.status };
  if (next.verified !== target.verified) changes.isVerified = { from: target.verified, to: next.verified };
  const removed = target.roles.filter((role) => !next.roles.includes(role));
  const added = next.roles.filter((role) => !target.roles.includes(role));
  if (removed.length || added.length) changes.roles = { from: [...target.roles], to: [...next.roles] };
  return changes;
}

/** Whether a `user.updated` took access away (the account's sessions end with it). */
export function lostAccess(facts: Pick<UserFacts, 'status' | 'verified'>, changes: UserChanges): boolean {
  const before = { status: changes.status?.from ?? facts.status, verified: changes.isVerified?.from ?? facts.verified };
  return hasAccess(before.status, before.verified) && !hasAccess(facts.status, facts.verified);
}

/** Whether a change shows beside the account's posts (cards, post pages, feeds, the authors page): its name, bio or avatar. */
export function changesProfile(changes: UserChanges): boolean {
  return changes.fullName !== undefined || changes.bio !== undefined || changes.avatar !== undefined;
}

/** Which of the account's sessions a new password ends: none, all, or all but the one that asked. */
export type PasswordSessionRule = 'none' | 'all' | 'all-but-current';

/**
 * Every way a password is written, and what follows it: the one table of these rules.
 *
 * | how | written by | sessions ended | event | audit entry |
 * |---|---|---|---|---|
 * | registration (and an account an administrator, the first start or an import creates) | `UsersService.create` (the account's INSERT) | none (there are none yet) | `user.registered` / `user.created` only | theirs |
 * | reset (a reset link from 'Forgot password' or an import's invitation) | `setPassword` | all | `user.password_changed` via reset | none |
 * | change (the owner, with the current password) | `setPassword` | all but the session that asked | `user.password_changed` via change | none |
 * | admin (an administrator generates one; it is e-mailed to the owner) | `setPassword` | all | `user.password_changed` via admin | PASSWORD_GENERATED |
 * | rehash (sign-in with a hash of the older scheme: the same password) | `upgradePasswordHash` | none | none | none |
 *
 * `UserLifecycleService.setPassword` records the event; the sessions subscriber
 * (sessions/user-sessions.subscriber.ts) ends the sessions this table names for its `via`, in the same
 * transaction; the audit subscriber (audit/account-security-audit.subscriber.ts, a layer below
 * users, so it keeps its own test of `via`) writes the entry.
 */
export const PASSWORD_RULES: Record<PasswordVia, { sessions: PasswordSessionRule }> = {
  reset: { sessions: 'all' },
  change: { sessions: 'all-but-current' },
  admin: { sessions: 'all' },
};

/** The session a password change keeps, for its event: the caller's own when the rule keeps it. */
export function keptSession(via: PasswordVia, currentSessionId: string | undefined): string | null {
  return PASSWORD_RULES[via].sessions === 'all-but-current' ? (currentSessionId ?? null) : null;
}
