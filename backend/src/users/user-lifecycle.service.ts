import { BadRequestException, ConflictException, ForbiddenException, HttpException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import type { EventActor, PasswordVia, UserErasedFacts, UserFacts } from '../events/domain-events';
import { JobsService } from '../jobs/jobs.service';
import { DomainEvents, EventTransaction } from '../events/domain-events.service';
import { activeMute } from './active-mute';
import { RoleName } from './roles';
import { User, UserStatus } from './entities/user.entity';
import { UserLifecycleMessages } from './user-lifecycle.messages';
import {
  AdminUserEdit,
  banRefusal,
  banThroughEditRefusal,
  editChanges,
  editRefusal,
  keptSession,
  leavesActiveAdmins,
  selfBanRefusal,
  selfMuteRefusal,
  unbanRefusal,
  UserRefusal,
  UserState,
} from './user-rules';
import {
  changeRoles,
  closeBan,
  countActiveAdmins,
  deleteMute,
  holdsActiveAdmin,
  lockAdminChanges,
  lockUser,
  openBan,
  upsertMute,
} from './users.repository';
import { readUserFacts } from './user-facts';

/** The erasure job's queue: the user lifecycle enqueues it, account-data runs it. */
export const ACCOUNT_ERASURE_QUEUE = 'account-erasure';
export interface AccountErasureJob {
  userId: number;
}

/** The answer to each refusal. */
const REFUSALS: Record<UserRefusal, () => HttpException> = {
  'self-ban': () => new ConflictException(UserLifecycleMessages.SELF_BAN),
  'self-mute': () => new ForbiddenException(UserLifecycleMessages.MUTE_SELF),
  'self-deactivate': () => new ConflictException(UserLifecycleMessages.SELF_DEACTIVATE),
  'self-demote': () => new ConflictException(UserLifecycleMessages.SELF_DEMOTE),
  'ban-through-update': () =>
    new BadRequestException({
      message: UserLifecycleMessages.BAN_THROUGH_UPDATE,
      errors: { status: [UserLifecycleMessages.BAN_THROUGH_UPDATE] },
    }),
  'banned-status-locked': () => new ConflictException(UserLifecycleMessages.BANNED_STATUS_LOCKED),
  'already-banned': () => new ConflictException(UserLifecycleMessages.ALREADY_BANNED),
  'not-banned': () => new ConflictException(UserLifecycleMessages.NOT_BANNED),
  'not-muted': () => new ConflictException(UserLifecycleMessages.NOT_MUTED),
};

function refuse(refusal: UserRefusal | null): void {
  if (refusal) throw REFUSALS[refusal]();
}

const actorOf = (user: AuthUser): EventActor => ({ id: user.id, name: user.fullName });

/**
 * How a password is set on an existing account, with what its rule needs (PASSWORD_RULES in
 * user-rules.ts): the session that asked (a change keeps it), the administrator who generated it.
 */
export type PasswordSetting = { via: 'reset' } | { via: 'change'; sessionId?: string } | { via: 'admin'; actor: AuthUser };

/** A reason and the administrators' own note (bans and unbans). */
export interface BanInput {
  reason: string;
  adminNote?: string | null;
}

/**
 * The user lifecycle (docs/architecture.md#one-owner): verification, administrators' edits of status, verification
 * and roles, bans, unbans, mutes and unmutes, passwords (setPassword), and deletion (scheduled, cancelled, the erasure's end). Each runs in one transaction that writes the rows
 * (users' status, verification and password, user_roles, user_bans, user_mutes: written nowhere else after
 * the account is created by UsersService.create) and records its event; the audit log, the
 * sessions and the caches follow the events. Changes that may take ADMIN away from an active
 * account first take the administrators' mutex (lockAdminChanges), so the last active
 * administrator survives concurrent demotions and bans.
 */
@Injectable()
export class UserLifecycleService {
  constructor(
    private readonly events: DomainEvents,
    private readonly jobs: JobsService,
    @InjectRepository(User) private readonly users: Repository<User>,
  ) {}

  // ---- Deletion ----------------------------------------------------------------

  /**
   * Schedules the account's erasure at `dueAt` (now for an administrator's deletion): from this
   * commit on it cannot be used (`user.deletion_scheduled` ends its sessions; sign-in answers the
   * pending deletion), and the erasure job, enqueued in this transaction, runs at `dueAt`. The last
   * active administrator cannot go (409). Already pending: 409.
   */
  async scheduleDeletion(id: number, dueAt: Date, via: 'self' | 'admin', actor: AuthUser): Promise<void> {
    await this.events.transaction(async ({ manager, record }) => {
      const user = await this.lockForAdminChange(manager, id);
      const row = await manager.findOneOrFail(User, { where: { id }, select: { id: true, deletionDueAt: true, placeholder: true } });
      if (row.placeholder) throw new ConflictException(UserLifecycleMessages.PLACEHOLDER_ACCOUNT);
      if (row.deletionDueAt) throw new ConflictException(UserLifecycleMessages.DELETION_ALREADY_SCHEDULED);
      if (leavesActiveAdmins(user, { ...user, status: UserStatus.INACTIVE }) && (await countActiveAdmins(manager, id)) === 0) {
        throw new ConflictException(UserLifecycleMessages.LAST_ADMIN_DELETION);
      }
      if (via === 'admin' && !(await holdsActiveAdmin(manager, actor.id))) throw new ForbiddenException(UserLifecycleMessages.FORBIDDEN);
      await manager.update(User, { id }, { deletionDueAt: dueAt, deletionVia: via });
      await this.jobs.enqueue(manager, ACCOUNT_ERASURE_QUEUE, { userId: id } satisfies AccountErasureJob, { startAfter: dueAt });
      await record({
        name: 'user.deletion_scheduled',
        actor: actorOf(actor),
        data: { ...(await this.facts(manager, id)), via, dueAt: dueAt.toISOString() },
      });
    });
  }

  /**
   * The owner, signed in again with their password, cancels the pending deletion: the account is
   * usable again. The waiting erasure job finds nothing due and ends. Nothing pending: 409.
   * `prove` runs first in the same transaction (the two-factor code, used up only when the
   * cancellation commits): false when it fails, and nothing is written.
   */
  async cancelDeletion(id: number, prove?: (manager: EntityManager) => Promise<boolean>): Promise<boolean> {
    return this.events.transaction(async ({ manager, record }) => {
      if (!(await lockUser(manager, id))) throw new NotFoundException(UserLifecycleMessages.USER_NOT_FOUND);
      if (prove && !(await prove(manager))) return false;
      const row = await manager.findOneOrFail(User, { where: { id }, select: { id: true, deletionDueAt: true, deletionVia: true } });
      if (!row.deletionDueAt || row.deletionVia !== 'self') throw new ConflictException(UserLifecycleMessages.NO_DELETION_PENDING);
      await manager.update(User, { id }, { deletionDueAt: null, deletionVia: null });
      const facts = await this.facts(manager, id);
      await record({
        name: 'user.deletion_cancelled',
        actor: { id, name: facts.fullName },
        data: { ...facts, dueAt: row.deletionDueAt.toISOString() },
      });
      return true;
    });
  }

  /**
   * The account whose deletion is due, locked for the erasure (the caller's transaction), or
   * undefined when there is nothing to erase now (cancelled, not yet due, or gone).
   */
  async lockDueErasure(
    tx: EventTransaction,
    id: number,
    now: Date,
  ): Promise<{ roles: string[]; via: 'self' | 'admin'; avatar: string | null } | undefined> {
    if (!(await lockUser(tx.manager, id))) return undefined;
    const row = await tx.manager.findOne(User, {
      where: { id },
      select: { id: true, deletionDueAt: true, deletionVia: true, avatar: true },
    });
    if (!row?.deletionDueAt || row.deletionDueAt.getTime() > now.getTime()) return undefined;
    const facts = await this.facts(tx.manager, id);
    return { roles: facts.roles, via: row.deletionVia ?? 'self', avatar: row.avatar };
  }

  /**
   * The end of an erasure, after the other owners moved the account's content away (in the same
   * transaction): `user.deleted` is recorded (no personal data), then the row goes, and with it
   * everything that is only the account's (sessions, roles, notifications, exports, ...).
   */
  async erase(tx: EventTransaction, facts: UserErasedFacts): Promise<void> {
    await tx.record({ name: 'user.deleted', actor: null, data: facts });
    await this.events.forgetUser(tx.manager, facts.userId);
    await tx.manager.delete(User, { id: facts.userId });
  }

  /** BANNED with an open ban (reason, note, admin); the account's sessions end with it. */
  async ban(id: number, input: BanInput, actor: AuthUser): Promise<void> {
    refuse(selfBanRefusal(id, actor.id));
    await this.events.transaction(async ({ manager, record }) => {
      const user = await this.lockForAdminChange(manager, id);
      refuse(banRefusal(user));
      await this.assertAdminsRemain(manager, user, { ...user, status: UserStatus.BANNED }, actor);
      await manager.update(User, { id }, { status: UserStatus.BANNED });
      const adminNote = input.adminNote ?? null;
      await openBan(manager, id, input.reason, adminNote, actor.id);
      await record({
        name: 'user.banned',
        actor: actorOf(actor),
        data: { ...(await this.facts(manager, id)), reason: input.reason, adminNote, previousStatus: user.status },
      });
    });
  }

  /** BANNED → ACTIVE; the open ban is closed (kept as history with the unban's reason and note). */
  async unban(id: number, input: BanInput, actor: AuthUser): Promise<void> {
    await this.events.transaction(async ({ manager, record }) => {
      if (!(await lockUser(manager, id))) throw new NotFoundException(UserLifecycleMessages.USER_NOT_FOUND);
      const user = await manager.findOneOrFail(User, { where: { id }, select: { id: true, status: true } });
      refuse(unbanRefusal(user));
      await manager.update(User, { id }, { status: UserStatus.ACTIVE });
      const adminNote = input.adminNote ?? null;
      await closeBan(manager, id, input.reason, adminNote, actor.id);
      await record({
        name: 'user.unbanned',
        actor: actorOf(actor),
        data: { ...(await this.facts(manager, id)), reason: input.reason, adminNote },
      });
    });
  }

  /**
   * An administrator's partial edit of name, bio, roles, status and verification. BANNED is
   * refused here (a ban needs a reason), and a banned account's status changes only through
   * unban. Losing access (a status other than ACTIVE, or unverified) ends the account's sessions.
   * Nothing changed: nothing is written or recorded.
   */
  async update(id: number, edit: AdminUserEdit, actor: AuthUser): Promise<void> {
    refuse(banThroughEditRefusal(edit));
    await this.events.transaction(async ({ manager, record }) => {
      const user = await this.lockForAdminChange(manager, id);
      refuse(editRefusal(user, edit, actor.id));
      const next = { status: edit.status ?? user.status, verified: edit.isVerified ?? user.verified, roles: edit.roles ?? user.roles };
      await this.assertAdminsRemain(manager, user, next, actor);
      const changes = editChanges(user, edit);
      if (!Object.keys(changes).length) return;

      const values: Partial<User> = {};
      if (changes.fullName) values.fullName = changes.fullName.to;
      if (changes.bio) values.bio = changes.bio.to;
      if (changes.status) values.status = next.status;
      if (changes.isVerified) {
        values.isVerified = next.verified;
        values.emailVerifiedAt = next.verified ? new Date() : null;
      }
      // updated_at moves for role changes too (the row is what the admin edited).
      await manager.update(User, { id }, { ...values, updatedAt: new Date() });
      if (changes.roles) {
        const removed = user.roles.filter((role) => !next.roles.includes(role));
        const added = next.roles.filter((role) => !user.roles.includes(role));
        await changeRoles(manager, id, removed, added, actor.id);
      }
      const facts = await this.facts(manager, id);
      await record({ name: 'user.updated', actor: actorOf(actor), data: { ...facts, via: 'admin', changes } });
      if (changes.roles)
        await record({ name: 'user.roles_changed', actor: actorOf(actor), data: { ...facts, previousRoles: [...user.roles] } });
    });
  }

  /** Stops the account commenting until `until` (null: for good), replacing a mute in force. */
  async mute(id: number, input: { until: Date | null; reason: string }, actor: AuthUser): Promise<void> {
    refuse(selfMuteRefusal(id, actor.id));
    await this.events.transaction(async ({ manager, record }) => {
      const facts = await this.facts(manager, id);
      await upsertMute(manager, id, input.until, input.reason, actor.id);
      await record({
        name: 'user.muted',
        actor: actorOf(actor),
        data: { ...facts, reason: input.reason, until: input.until?.toISOString() ?? null },
      });
    });
  }

  /** Lifts the mute in force; an expired mute is no mute (409 like none). */
  async unmute(id: number, actor: AuthUser): Promise<void> {
    await this.events.transaction(async ({ manager, record }) => {
      const facts = await this.facts(manager, id);
      const active = await activeMute(manager, id);
      await deleteMute(manager, id);
      if (!active) throw REFUSALS['not-muted']();
      await record({
        name: 'user.unmuted',
        actor: actorOf(actor),
        data: { ...facts, reason: active.reason, until: active.mutedUntil?.toISOString() ?? null },
      });
    });
  }

  /** The owner proved the address (auth's verify-email, in its transaction): verified and ACTIVE. */
  async markVerified(tx: EventTransaction, id: number): Promise<void> {
    await tx.manager.update(User, { id }, { isVerified: true, emailVerifiedAt: new Date(), status: UserStatus.ACTIVE });
    const facts = await this.facts(tx.manager, id);
    await tx.record({ name: 'user.verified', actor: { id, name: facts.fullName }, data: facts });
  }

  /**
   * The one writer of an existing account's password (PASSWORD_RULES in user-rules.ts is the
   * table of every way a password is written and what follows): writes the hash and records
   * `user.password_changed` in the caller's transaction; the sessions the rule names end with the
   * event (auth's sessions subscriber), the audit entry too (an administrator's). Answers the
   * account's facts (404 when it is gone).
   */
  async setPassword(tx: EventTransaction, id: number, passwordHash: string, setting: PasswordSetting): Promise<UserFacts> {
    if (!(await lockUser(tx.manager, id))) throw new NotFoundException(UserLifecycleMessages.USER_NOT_FOUND);
    await tx.manager.update(User, { id }, { passwordHash });
    const facts = await this.facts(tx.manager, id);
    const via: PasswordVia = setting.via;
    const actor = setting.via === 'admin' ? actorOf(setting.actor) : { id, name: facts.fullName };
    const keptSessionId = keptSession(via, setting.via === 'change' ? setting.sessionId : undefined);
    await tx.record({ name: 'user.password_changed', actor, data: { ...facts, via, keptSessionId } });
    return facts;
  }

  /**
   * A sign-in with a hash of the older scheme: the same password, hashed anew. Not a change (no
   * session ends, no event); written only while the stored hash is still `previousHash`.
   */
  async upgradePasswordHash(id: number, previousHash: string, passwordHash: string): Promise<void> {
    await this.users.update({ id, passwordHash: previousHash }, { passwordHash });
  }

  /** A sign-in started a session: the account's last sign-in time. */
  async recordSignIn(id: number): Promise<void> {
    await this.users.update({ id }, { lastLoginAt: new Date() });
  }

  /**
   * First start, when the configured administrator's address already has an account: it becomes
   * the administrator (verified, ACTIVE, ADMIN added), keeping its password. In the caller's transaction.
   */
  async makeFirstAdmin(tx: EventTransaction, id: number): Promise<void> {
    const { manager } = tx;
    const before = await this.facts(manager, id);
    const user = await manager.findOneOrFail(User, { where: { id }, select: { id: true, emailVerifiedAt: true } });
    await manager.update(
      User,
      { id },
      { status: UserStatus.ACTIVE, isVerified: true, emailVerifiedAt: user.emailVerifiedAt ?? new Date() },
    );
    await changeRoles(manager, id, [], [RoleName.ADMIN], null);
    await tx.record({ name: 'user.roles_changed', actor: null, data: { ...(await this.facts(manager, id)), previousRoles: before.roles } });
  }

  /** The account as its events name it (404 when it is gone). */
  private async facts(manager: EntityManager, id: number): Promise<UserFacts> {
    const facts = await readUserFacts(manager, id);
    if (!facts) throw new NotFoundException(UserLifecycleMessages.USER_NOT_FOUND);
    return facts;
  }

  /** Takes the administrators' mutex, then the account's row; answers the account as the rules see it (404 when missing). */
  private async lockForAdminChange(manager: EntityManager, id: number): Promise<UserState> {
    await lockAdminChanges(manager);
    if (!(await lockUser(manager, id))) throw new NotFoundException(UserLifecycleMessages.USER_NOT_FOUND);
    const user = await manager.findOneOrFail(User, { where: { id }, relations: { userRoles: true } });
    return {
      id,
      fullName: user.fullName,
      bio: user.bio,
      status: user.status,
      verified: user.isVerified,
      roles: user.userRoles.map((userRole) => userRole.role.name),
    };
  }

  /**
   * Inside the mutex: an active administrator who stops being one must leave another behind
   * (409), and the caller must still be an active administrator (a concurrent change may have
   * demoted them after their request was authorised: 403).
   */
  private async assertAdminsRemain(
    manager: EntityManager,
    before: UserState,
    after: Pick<UserState, 'status' | 'verified' | 'roles'>,
    actor: AuthUser,
  ): Promise<void> {
    if (leavesActiveAdmins(before, after) && (await countActiveAdmins(manager, before.id)) === 0)
      throw new ConflictException(UserLifecycleMessages.LAST_ADMIN);
    if (!(await holdsActiveAdmin(manager, actor.id))) throw new ForbiddenException(UserLifecycleMessages.FORBIDDEN);
  }
}
