import { ConflictException, Injectable, NotFoundException, OnModuleDestroy } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuditEntryPageDto } from '../audit/dto/audit-entry-response.dto';
import { AuditReader } from '../audit/audit-reader';
import { PasswordHasher } from '../auth/password-hasher';
import type { AuthUser } from '../auth/auth-user';
import { ContentChange, ContentEvents } from '../common/content-events';
import { DomainEvents } from '../events/domain-events.service';
import { isUniqueViolation } from '../common/database-errors';
import { toPage } from '../common/pagination/page';
import type { SortDirection } from '../common/pagination/sort';
import { MicroCache } from '../common/micro-cache';
import { MailService } from '../mail/mail.service';
import { UserBan } from '../users/entities/user-ban.entity';
import { User, UserStatus } from '../users/entities/user.entity';
import { UserLifecycleService } from '../users/user-lifecycle.service';
import { UsersService } from '../users/users.service';
import { AdminMessages } from './admin.messages';
import { toAdminUser, toBanStatus } from './admin-user.mapper';
import { AdminUserFilter, AdminUserRow, AdminUsersRepository } from './admin-users.repository';
import { AdminUserBanDto, AdminUserCreateDto, AdminUserSortField, AdminUserUpdateDto } from './dto/admin-user-input.dto';
import { AdminBanStatusDto, AdminGeneratedPasswordDto, AdminUserDto, AdminUserPageDto } from './dto/admin-user-response.dto';
import { generatePassword } from './password-generator';

export interface AdminUserListOptions {
  page: number;
  size: number;
  sortBy?: AdminUserSortField;
  sortDir?: SortDirection;
}

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
 * User administration (docs/requirements.md#api-admin-users "User administration"): lists, details, create, edit, bans,
 * generated passwords. Accounts are created by UsersService.create and changed by the user
 * lifecycle (its rules: nobody bans, deactivates or demotes their own account, the last active
 * administrator stays); the audit log and the caches follow their events.
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
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(UserBan) private readonly bans: Repository<UserBan>,
    private readonly repository: AdminUsersRepository,
    private readonly mail: MailService,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditReader,
    private readonly events: DomainEvents,
    private readonly usersService: UsersService,
    private readonly lifecycle: UserLifecycleService,
    contentEvents: ContentEvents,
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
    const [rows, total] = await this.pageRows(filter, options.sortBy ?? 'createdAt', options.sortDir ?? 'desc', page * size, size);
    const content = rows.map(toAdminUser);
    const result = toPage(content, total, page, size);
    return { ...result, content, currentPage: result.number };
  }

  async get(id: number): Promise<AdminUserDto> {
    const [row] = await this.repository.usersByIds([id]);
    const user = row ? toAdminUser(row) : undefined;
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
    let id: number;
    try {
      const created = await this.usersService.create(
        {
          fullName: dto.fullName,
          email: dto.email,
          passwordHash,
          status: dto.status,
          verified: dto.markEmailAsVerified === true,
          roles: dto.roles,
          banReason: dto.status === UserStatus.BANNED ? AdminMessages.CREATED_BANNED_REASON : undefined,
        },
        { via: 'admin', actor },
      );
      id = created.userId;
    } catch (error) {
      if (isUniqueViolation(error)) throw this.emailTaken();
      throw error;
    }
    return this.get(id);
  }

  /** Partial edit of name, bio, roles, status and verification (the user lifecycle's rules). */
  async update(id: number, dto: AdminUserUpdateDto, actor: AuthUser): Promise<AdminUserDto> {
    await this.lifecycle.update(id, dto, actor);
    return this.get(id);
  }

  /**
   * A strong random password (strict rule), stored as its bcrypt hash through the user lifecycle
   * (`setPassword` via admin: every session of the user ends and the audit entry is written with
   * its event, in one transaction); then it is e-mailed from here (the event carries no password).
   * The answer carries it once.
   */
  async generatePassword(id: number, actor: AuthUser): Promise<AdminGeneratedPasswordDto> {
    // The admin would lock themselves out (every session ends, and without SMTP the password is mailed nowhere).
    if (id === actor.id) throw new ConflictException(AdminMessages.SELF_GENERATE_PASSWORD);
    if (!(await this.users.exists({ where: { id } }))) throw new NotFoundException(AdminMessages.USER_NOT_FOUND);
    const newPassword = generatePassword();
    const passwordHash = await this.passwords.hash(newPassword);
    const user = await this.events.transaction((tx) => this.lifecycle.setPassword(tx, id, passwordHash, { via: 'admin', actor }));
    const emailed = await this.mail.sendGeneratedPassword(user.email, user.fullName, newPassword);
    return { newPassword, emailed };
  }

  /** BANNED with an open ban (reason, note, admin); the user's sessions end with it. */
  async ban(id: number, dto: AdminUserBanDto, actor: AuthUser): Promise<AdminUserDto> {
    await this.lifecycle.ban(id, dto, actor);
    return this.get(id);
  }

  /** BANNED → ACTIVE; the open ban is closed (kept as history with the unban's reason and note). */
  async unban(id: number, dto: AdminUserBanDto, actor: AuthUser): Promise<AdminUserDto> {
    await this.lifecycle.unban(id, dto, actor);
    return this.get(id);
  }

  // ---- helpers -------------------------------------------------------------------------------

  /**
   * A page's rows and the total. The total is the filter's held count (see `totals`); the first
   * page reads its rows alongside it. Deeper pages read from the nearer end of the order: an
   * OFFSET costs the rows it skips, so the last pages are as cheap as the first and no page skips
   * more than half the list. A held total can be behind a change no notice announced (a sign-up):
   * a page whose row count does not fit it, or one at or past its end, is answered with a fresh
   * count (and read again when the count moved). A page read from the far end with a held total
   * that is too high (rows left the filter unannounced, e.g. an e-mail verified) can be off by
   * those rows until the total is dropped (5 s at most).
   */
  private async pageRows(
    filter: AdminUserFilter,
    sortBy: AdminUserSortField,
    direction: SortDirection,
    offset: number,
    size: number,
  ): Promise<[AdminUserRow[], number]> {
    const key = filterKey(filter);
    const expected = (total: number) => Math.max(0, Math.min(size, total - offset));
    let total: number;
    if (offset === 0) {
      const [rows, held] = await Promise.all([
        this.repository.pageUsers(filter, sortBy, direction, 0, size),
        this.totals.remember(key, () => this.repository.count(filter)),
      ]);
      if (rows.length === expected(held)) return [rows, held];
      total = await this.recount(key, filter);
      if (rows.length === expected(total)) return [rows, total];
    } else {
      const held = await this.totals.remember(key, () => this.repository.count(filter));
      if (offset < held) {
        const rows = await this.readPage(filter, sortBy, direction, offset, size, held);
        if (rows.length === expected(held)) return [rows, held];
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
  private async readPage(
    filter: AdminUserFilter,
    sortBy: AdminUserSortField,
    direction: SortDirection,
    offset: number,
    size: number,
    total: number,
  ): Promise<AdminUserRow[]> {
    const end = Math.min(offset + size, total);
    if (offset > 0 && total - offset <= offset + size) {
      // Rows [offset, end) of the order are rows [total - end, total - offset) of the reversed order.
      const reversed = await this.repository.pageUsers(filter, sortBy, direction, total - end, end - offset, true);
      return reversed.reverse();
    }
    return this.repository.pageUsers(filter, sortBy, direction, offset, size);
  }

  private emailTaken(): ConflictException {
    return new ConflictException({ message: AdminMessages.EMAIL_TAKEN, errors: { email: [AdminMessages.EMAIL_TAKEN] } });
  }
}
