import { BadRequestException, ConflictException, ForbiddenException, Injectable, NotFoundException, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, Repository } from 'typeorm';
import { AuditEntryPageDto } from '../audit/dto/audit-entry-response.dto';
import { AuditService } from '../audit/audit.service';
import { AuditLinks, AuditType } from '../audit/audit.types';
import { PasswordHasher } from '../auth/password-hasher';
import { SessionsService } from '../auth/sessions.service';
import type { AuthUser } from '../auth/auth-user';
import { ContentChange, ContentEvents } from '../common/content-events';
import { isUniqueViolation } from '../common/database-errors';
import { toPage } from '../common/pagination/page';
import type { SortDirection } from '../common/pagination/sort';
import { MicroCache } from '../common/micro-cache';
import { MailService } from '../mail/mail.service';
import { Role } from '../users/entities/role.entity';
import { RoleName } from '../auth/roles';
import { User, UserStatus } from '../users/entities/user.entity';
import { UserRole } from '../users/entities/user-role.entity';
import { AdminMessages } from './admin.messages';
import { toAdminUser, toBanStatus } from './admin-user.mapper';
import { AdminUserFilter, AdminUsersRepository } from './admin-users.repository';
import { AdminUserBanDto, AdminUserCreateDto, AdminUserSortField, AdminUserUpdateDto } from './dto/admin-user-input.dto';
import { AdminBanStatusDto, AdminGeneratedPasswordDto, AdminUserDto, AdminUserPageDto } from './dto/admin-user-response.dto';
import { UserBan } from './entities/user-ban.entity';
import { generatePassword } from './password-generator';

export interface AdminUserListOptions {
  page: number;
  size: number;
  sortBy?: AdminUserSortField;
  sortDir?: SortDirection;
}

function fieldError(field: string, message: string): BadRequestException {
  return new BadRequestException({ message, errors: { [field]: [message] } });
}

/** Whether the account can sign in as an administrator: holds ADMIN, verified and ACTIVE. */
const isActiveAdmin = (roles: readonly RoleName[], status: UserStatus, verified: boolean): boolean =>
  roles.includes(RoleName.ADMIN) && status === UserStatus.ACTIVE && verified;

/** How long a filter's total is reused by the list's pages (dropped at once on user changes). */
export const ADMIN_USER_TOTAL_TTL_MS = 5_000;
/** Distinct filters whose totals are held (searches make many; when full the cache starts over). */
const ADMIN_USER_TOTAL_ENTRIES = 256;

/** The ContentEvents kind of a user change (account created, edited, banned, unbanned). */
export const USER_CHANGE_KIND = 'user';

/** One key per filter, whatever order or absent fields it came with. */
function filterKey(filter: AdminUserFilter): string {
  return JSON.stringify([filter.search ?? null, filter.status ?? null, filter.isVerified ?? null, filter.role ?? null]);
}

/**
 * User administration (spec 001 §7 "User administration"): lists, details, create, edit, bans,
 * generated passwords. Every change is written with its audit entry in one transaction; changes
 * that may take ADMIN away from an active account first take the admin mutex (see
 * AdminUsersRepository.lockAdminChanges), so the last active administrator survives concurrent
 * demotions and bans. Nobody bans, deactivates or demotes their own account.
 */
@Injectable()
export class AdminUsersService implements OnModuleDestroy {
  /**
   * Each filter's total, held 5 s: counting a filter reads all its rows (10-20 ms at 100,000
   * users) while a page's ids cost a fraction of that. Dropped on every user change notice
   * (this module's writes, here and, through the Redis relay, on other instances) and on a
   * resync; a page that does not match its held total is read again with a fresh count.
   */
  private readonly totals = new MicroCache<number>(ADMIN_USER_TOTAL_TTL_MS, ADMIN_USER_TOTAL_ENTRIES);
  private readonly stopListening: () => void;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(UserBan) private readonly bans: Repository<UserBan>,
    private readonly repository: AdminUsersRepository,
    private readonly sessions: SessionsService,
    private readonly mail: MailService,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditService,
    private readonly contentEvents: ContentEvents,
  ) {
    this.stopListening = contentEvents.onChange((change: ContentChange) => {
      if (change.kind === USER_CHANGE_KIND || change.kind === 'resync') this.totals.clear();
    });
  }

  onModuleDestroy(): void {
    this.stopListening();
  }

  // ---- reading -------------------------------------------------------------------------------

  /** A filtered, sorted page (default: newest accounts first). */
  async list(filter: AdminUserFilter, options: AdminUserListOptions): Promise<AdminUserPageDto> {
    const { page, size } = options;
    const [ids, total] = await this.pageIds(filter, options.sortBy ?? 'createdAt', options.sortDir ?? 'desc', page * size, size);
    const content = await this.load(ids);
    const result = toPage(content, total, page, size);
    return { ...result, content, currentPage: result.number };
  }

  async get(id: number): Promise<AdminUserDto> {
    const [user] = await this.load([id]);
    if (!user) throw new NotFoundException(AdminMessages.USER_NOT_FOUND);
    return user;
  }

  /** The open ban's details; all null (isBanned false) when the user is not banned. */
  async banStatus(id: number): Promise<AdminBanStatusDto> {
    const user = await this.users.findOne({ where: { id }, select: { id: true, status: true } });
    if (!user) throw new NotFoundException(AdminMessages.USER_NOT_FOUND);
    const ban = await this.bans
      .createQueryBuilder('ban')
      .leftJoin('ban.bannedBy', 'bannedBy')
      .addSelect(['bannedBy.id', 'bannedBy.fullName'])
      .where('ban.userId = :id AND ban.unbannedAt IS NULL', { id })
      .getOne();
    return toBanStatus(user.status === UserStatus.BANNED, ban);
  }

  /** Audit entries about the user or by the user, newest first. */
  async auditLog(id: number, page: number, size: number): Promise<AuditEntryPageDto> {
    if (!(await this.users.exists({ where: { id } }))) throw new NotFoundException(AdminMessages.USER_NOT_FOUND);
    return this.audit.forUser(id, page, size);
  }

  // ---- changes -------------------------------------------------------------------------------

  /** 409 when the e-mail is taken. A BANNED account gets an open ban naming the creating admin. */
  async create(dto: AdminUserCreateDto, actor: AuthUser): Promise<AdminUserDto> {
    if (await this.users.exists({ where: { email: dto.email } })) throw this.emailTaken();
    const passwordHash = await this.passwords.hash(dto.password);
    const verified = dto.markEmailAsVerified === true;
    let id: number;
    try {
      id = await this.dataSource.transaction(async (manager) => {
        const user = await manager.save(
          User,
          manager.create(User, { fullName: dto.fullName, email: dto.email, passwordHash, status: dto.status, isVerified: verified, emailVerifiedAt: verified ? new Date() : null }),
        );
        const roles = await manager.find(Role, { where: { name: In(dto.roles) } });
        await manager.insert(UserRole, roles.map((role) => ({ userId: user.id, roleId: role.id, assignedBy: actor.id })));
        if (dto.status === UserStatus.BANNED) {
          await manager.insert(UserBan, { userId: user.id, reason: AdminMessages.CREATED_BANNED_REASON, adminNote: null, bannedById: actor.id });
        }
        await this.audit.record(manager, {
          type: AuditType.USER_CREATED,
          actorId: actor.id,
          targetType: 'user',
          targetId: user.id,
          title: 'User created',
          description: `${actor.fullName} created the account of ${user.fullName}`,
          link: AuditLinks.user(user.id),
          details: { email: user.email, roles: dto.roles, status: dto.status, isVerified: verified },
        });
        return user.id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw this.emailTaken();
      throw error;
    }
    await this.userChanged(id);
    return this.get(id);
  }

  /**
   * Partial edit of name, bio, roles, status and verification. BANNED is refused here (a ban
   * needs a reason: POST .../ban), and a banned user's status changes only through unban.
   * Losing access (status other than ACTIVE, or unverified) ends the user's sessions.
   */
  async update(id: number, dto: AdminUserUpdateDto, actor: AuthUser): Promise<AdminUserDto> {
    if (dto.status === UserStatus.BANNED) throw fieldError('status', AdminMessages.BAN_THROUGH_UPDATE);
    const changed = await this.dataSource.transaction(async (manager) => {
      const user = await this.lockForChange(manager, id);
      const held = user.userRoles.map((userRole) => userRole.role.name);
      const nextRoles = dto.roles ?? held;
      const nextStatus = dto.status ?? user.status;
      const nextVerified = dto.isVerified ?? user.isVerified;
      if (dto.status !== undefined && dto.status !== user.status && user.status === UserStatus.BANNED) {
        throw new ConflictException(AdminMessages.BANNED_STATUS_LOCKED);
      }
      if (id === actor.id) {
        if (nextStatus !== UserStatus.ACTIVE || !nextVerified) throw new ConflictException(AdminMessages.SELF_DEACTIVATE);
        if (held.includes(RoleName.ADMIN) && !nextRoles.includes(RoleName.ADMIN)) throw new ConflictException(AdminMessages.SELF_DEMOTE);
      }
      await this.assertAdminsRemain(manager, user, isActiveAdmin(nextRoles, nextStatus, nextVerified), actor);

      const changes: Record<string, { from: unknown; to: unknown }> = {};
      const values: Partial<User> = {};
      if (dto.fullName !== undefined && dto.fullName !== user.fullName) {
        values.fullName = dto.fullName;
        changes.fullName = { from: user.fullName, to: dto.fullName };
      }
      if (dto.bio !== undefined && (dto.bio ?? null) !== user.bio) {
        values.bio = dto.bio ?? null;
        changes.bio = { from: user.bio, to: dto.bio ?? null };
      }
      if (nextStatus !== user.status) {
        values.status = nextStatus;
        changes.status = { from: user.status, to: nextStatus };
      }
      if (nextVerified !== user.isVerified) {
        values.isVerified = nextVerified;
        values.emailVerifiedAt = nextVerified ? new Date() : null;
        changes.isVerified = { from: user.isVerified, to: nextVerified };
      }
      const removed = held.filter((role) => !nextRoles.includes(role));
      const added = nextRoles.filter((role) => !held.includes(role));
      if (removed.length || added.length) changes.roles = { from: held, to: nextRoles };
      if (!Object.keys(changes).length) return false;

      // updated_at moves for role changes too (the row is what the admin edited).
      await manager.update(User, { id }, { ...values, updatedAt: new Date() });
      if (removed.length) {
        const roleIds = user.userRoles.filter((userRole) => removed.includes(userRole.role.name)).map((userRole) => userRole.roleId);
        await manager.delete(UserRole, { userId: id, roleId: In(roleIds) });
      }
      if (added.length) {
        const roles = await manager.find(Role, { where: { name: In(added) } });
        await manager.insert(UserRole, roles.map((role) => ({ userId: id, roleId: role.id, assignedBy: actor.id })));
      }
      const hadAccess = user.status === UserStatus.ACTIVE && user.isVerified;
      if (hadAccess && !(nextStatus === UserStatus.ACTIVE && nextVerified)) await this.sessions.revokeAllOfUser(id, undefined, manager);
      await this.audit.record(manager, {
        type: AuditType.USER_UPDATED,
        actorId: actor.id,
        targetType: 'user',
        targetId: id,
        title: 'User updated',
        description: `${actor.fullName} updated ${values.fullName ?? user.fullName} (${Object.keys(changes).join(', ')})`,
        link: AuditLinks.user(id),
        details: { changes },
      });
      // The name and bio show beside the account's posts (cards, post pages, feed, authors).
      return changes.fullName || changes.bio ? ('profile' as const) : ('other' as const);
    });
    if (changed) await this.userChanged(id, changed === 'profile');
    return this.get(id);
  }

  /**
   * A strong random password (strict rule), stored as its bcrypt hash; every session of the user
   * ends in the same transaction; then it is e-mailed. The answer carries it once.
   */
  async generatePassword(id: number, actor: AuthUser): Promise<AdminGeneratedPasswordDto> {
    // The admin would lock themselves out (every session ends, and without SMTP the password is mailed nowhere).
    if (id === actor.id) throw new ConflictException(AdminMessages.SELF_GENERATE_PASSWORD);
    if (!(await this.users.exists({ where: { id } }))) throw new NotFoundException(AdminMessages.USER_NOT_FOUND);
    const newPassword = generatePassword();
    const passwordHash = await this.passwords.hash(newPassword);
    const user = await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.lockUser(manager, id))) throw new NotFoundException(AdminMessages.USER_NOT_FOUND);
      const row = await manager.findOneOrFail(User, { where: { id }, select: { id: true, email: true, fullName: true } });
      await manager.update(User, { id }, { passwordHash });
      await this.sessions.revokeAllOfUser(id, undefined, manager);
      await this.audit.record(manager, {
        type: AuditType.PASSWORD_GENERATED,
        actorId: actor.id,
        targetType: 'user',
        targetId: id,
        title: 'Password generated',
        description: `${actor.fullName} generated a new password for ${row.fullName}`,
        link: AuditLinks.user(id),
      });
      return row;
    });
    const emailed = await this.mail.sendGeneratedPassword(user.email, user.fullName, newPassword);
    return { newPassword, emailed };
  }

  /** BANNED with an open ban (reason, note, admin); the user's sessions end in the same transaction. */
  async ban(id: number, dto: AdminUserBanDto, actor: AuthUser): Promise<AdminUserDto> {
    if (id === actor.id) throw new ConflictException(AdminMessages.SELF_BAN);
    await this.dataSource.transaction(async (manager) => {
      const user = await this.lockForChange(manager, id);
      if (user.status === UserStatus.BANNED) throw new ConflictException(AdminMessages.ALREADY_BANNED);
      await this.assertAdminsRemain(manager, user, false, actor);
      await manager.update(User, { id }, { status: UserStatus.BANNED });
      // A ban left open by hand (status changed in the database) is closed, not doubled.
      await manager.update(UserBan, { userId: id, unbannedAt: IsNull() }, { unbannedAt: new Date() });
      await manager.insert(UserBan, { userId: id, reason: dto.reason, adminNote: dto.adminNote ?? null, bannedById: actor.id });
      await this.sessions.revokeAllOfUser(id, undefined, manager);
      await this.audit.record(manager, {
        type: AuditType.USER_BANNED,
        actorId: actor.id,
        targetType: 'user',
        targetId: id,
        title: 'User banned',
        description: `${user.fullName} was banned by ${actor.fullName}: ${dto.reason}`,
        link: AuditLinks.user(id),
        details: { reason: dto.reason, adminNote: dto.adminNote ?? null, previousStatus: user.status },
      });
    });
    await this.userChanged(id);
    return this.get(id);
  }

  /** BANNED → ACTIVE; the open ban is closed (kept as history with the unban's reason and note). */
  async unban(id: number, dto: AdminUserBanDto, actor: AuthUser): Promise<AdminUserDto> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.lockUser(manager, id))) throw new NotFoundException(AdminMessages.USER_NOT_FOUND);
      const user = await manager.findOneOrFail(User, { where: { id }, select: { id: true, fullName: true, status: true } });
      if (user.status !== UserStatus.BANNED) throw new ConflictException(AdminMessages.NOT_BANNED);
      await manager.update(User, { id }, { status: UserStatus.ACTIVE });
      await manager.update(
        UserBan,
        { userId: id, unbannedAt: IsNull() },
        { unbannedAt: new Date(), unbannedById: actor.id, unbanReason: dto.reason, unbanNote: dto.adminNote ?? null },
      );
      await this.audit.record(manager, {
        type: AuditType.USER_UNBANNED,
        actorId: actor.id,
        targetType: 'user',
        targetId: id,
        title: 'User unbanned',
        description: `${user.fullName} was unbanned by ${actor.fullName}: ${dto.reason}`,
        link: AuditLinks.user(id),
        details: { reason: dto.reason, adminNote: dto.adminNote ?? null },
      });
    });
    await this.userChanged(id);
    return this.get(id);
  }

  // ---- helpers -------------------------------------------------------------------------------

  /**
   * A page's ids and the total. The total is the filter's held count (see `totals`); the first
   * page reads its ids alongside it. Deeper pages read from the nearer end of the order: an
   * OFFSET costs the rows it skips, so the last pages are as cheap as the first and no page skips
   * more than half the list. A held total can be behind a change no notice announced (a sign-up):
   * a page whose row count does not fit it, or one at or past its end, is answered with a fresh
   * count (and read again when the count moved). A page read from the far end with a held total
   * that is too high (rows left the filter unannounced, e.g. an e-mail verified) can be off by
   * those rows until the total is dropped (5 s at most).
   */
  private async pageIds(filter: AdminUserFilter, sortBy: AdminUserSortField, direction: SortDirection, offset: number, size: number): Promise<[number[], number]> {
    const key = filterKey(filter);
    const expected = (total: number) => Math.max(0, Math.min(size, total - offset));
    let total: number;
    if (offset === 0) {
      const [ids, held] = await Promise.all([this.repository.pageIds(filter, sortBy, direction, 0, size), this.totals.remember(key, () => this.repository.count(filter))]);
      if (ids.length === expected(held)) return [ids, held];
      total = await this.recount(key, filter);
      if (ids.length === expected(total)) return [ids, total];
    } else {
      const held = await this.totals.remember(key, () => this.repository.count(filter));
      if (offset < held) {
        const ids = await this.readPage(filter, sortBy, direction, offset, size, held);
        if (ids.length === expected(held)) return [ids, held];
      }
      total = await this.recount(key, filter);
      if (offset >= total) return [[], total];
    }
    return [await this.readPage(filter, sortBy, direction, offset, size, total), total];
  }

  /** A fresh count of the filter, held from now on. */
  private recount(key: string, filter: AdminUserFilter): Promise<number> {
    this.totals.delete(key);
    return this.totals.remember(key, () => this.repository.count(filter));
  }

  /** Rows [offset, offset + size) of the order, read from its nearer end given the total (offset < total). */
  private async readPage(filter: AdminUserFilter, sortBy: AdminUserSortField, direction: SortDirection, offset: number, size: number, total: number): Promise<number[]> {
    const end = Math.min(offset + size, total);
    if (offset > 0 && total - offset <= offset + size) {
      // Rows [offset, end) of the order are rows [total - end, total - offset) of the reversed order.
      const reversed = await this.repository.pageIds(filter, sortBy, direction, total - end, end - offset, true);
      return reversed.reverse();
    }
    return this.repository.pageIds(filter, sortBy, direction, offset, size);
  }

  /**
   * After a committed change, before the answer: every instance drops its held totals and what
   * shows the account (`profileChanged`: its name or bio, which posts and lists show beside its
   * posts; otherwise only the authors page, which lists active authors, can change).
   */
  private async userChanged(id: number, profileChanged = false): Promise<void> {
    await this.contentEvents.changed({ kind: USER_CHANGE_KIND, userId: id, profileChanged });
  }

  /** Takes the admin mutex, then the user's row; answers the user with roles (404 when missing). */
  private async lockForChange(manager: EntityManager, id: number): Promise<User> {
    await this.repository.lockAdminChanges(manager);
    if (!(await this.repository.lockUser(manager, id))) throw new NotFoundException(AdminMessages.USER_NOT_FOUND);
    return manager.findOneOrFail(User, { where: { id }, relations: { userRoles: true } });
  }

  /**
   * Inside the mutex: an active administrator who stops being one must leave another behind
   * (409), and the caller must still be an active administrator (a concurrent change may have
   * demoted them after their request was authorised: 403).
   */
  private async assertAdminsRemain(manager: EntityManager, user: User, staysActiveAdmin: boolean, actor: AuthUser): Promise<void> {
    const held = user.userRoles.map((userRole) => userRole.role.name);
    if (isActiveAdmin(held, user.status, user.isVerified) && !staysActiveAdmin && (await this.repository.countActiveAdmins(manager, user.id)) === 0) {
      throw new ConflictException(AdminMessages.LAST_ADMIN);
    }
    if (!(await this.repository.isActiveAdmin(manager, actor.id))) throw new ForbiddenException(AdminMessages.FORBIDDEN);
  }

  /** AdminUsers in the order of `ids` (missing ids are skipped). */
  private async load(ids: number[]): Promise<AdminUserDto[]> {
    if (!ids.length) return [];
    const [users, totals] = await Promise.all([this.users.find({ where: { id: In(ids) }, relations: { userRoles: true } }), this.repository.totals(ids)]);
    const byId = new Map(users.map((user) => [user.id, user]));
    return ids.flatMap((id) => {
      const user = byId.get(id);
      return user ? [toAdminUser(user, totals.get(id))] : [];
    });
  }

  private emailTaken(): ConflictException {
    return new ConflictException({ message: AdminMessages.EMAIL_TAKEN, errors: { email: [AdminMessages.EMAIL_TAKEN] } });
  }
}
