import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { isUniqueViolation } from '../common/database-errors';
import { mixesScripts } from '../../../isomorphic/email-scripts';
import { canonicalEmail } from '../../../isomorphic/text';
import type { UserChanges, UserFacts } from '../events/domain-events';
import { DomainEvents, EventTransaction } from '../events/domain-events.service';
import { ImageStorageService, NotAnImageError } from '../images/image-storage.service';
import type { UploadedImage } from '../images/upload-receiver';
import { activeMute, type ActiveMute } from './active-mute';
import { AvatarResponseDto, UserResponseDto } from './dto/user-response.dto';
import { PROFILE_SELECT, profileFromRow, type ProfileRow } from './profile-query';
import { UserProfileUpdateDto } from './dto/user-profile-update.dto';
import { effectiveRole, RoleName } from './roles';
import { User, UserStatus } from './entities/user.entity';
import { UsersMessages } from './users.messages';
import { readUserFacts } from './user-facts';
import { insertUsers } from './users.repository';

/** E-mails are stored NFKC-normalised, trimmed and lower-cased, so the unique key is case-insensitive. */
export function normalizeEmail(email: string): string {
  return canonicalEmail(email);
}

/** A new account: its roles, and an open ban when it is created BANNED. The password comes hashed. */
export interface UserCreateInput {
  fullName: string;
  email: string;
  passwordHash: string;
  status: UserStatus;
  verified: boolean;
  roles: RoleName[];
  /** The open ban's reason, for an account created BANNED. */
  banReason?: string;
}

/** Who creates the account: the person signing up, an administrator, the first start, a site import run by an administrator, or an erasure needing a placeholder. */
export type UserOrigin =
  | { via: 'register' }
  | { via: 'admin'; actor: AuthUser }
  | { via: 'first-admin' }
  | { via: 'placeholder' }
  | { via: 'import'; actor: AuthUser };

/** The site's stand-in accounts: who they are shown as; they cannot sign in (INACTIVE, unverified, no password). */
const PLACEHOLDERS = {
  'former-author': { fullName: 'Former author', email: 'former-author@placeholder.invalid', roles: [RoleName.AUTHOR] },
  'deleted-user': { fullName: '[deleted user]', email: 'deleted-user@placeholder.invalid', roles: [RoleName.USER] },
} as const;
export type PlaceholderKind = keyof typeof PLACEHOLDERS;

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly images: ImageStorageService,
    private readonly events: DomainEvents,
  ) {}

  /**
   * The one writer of new accounts (sign-up, the back office, the first start; the demo seeder
   * writes through the same insertUsers): the account, its roles and its open ban, and its event
   * (`user.registered`, or `user.created` with `via`). In the caller's transaction when given
   * (sign-up writes the verification code with it), else in its own. A taken e-mail fails with
   * the unique violation (the caller answers 409).
   */
  async create(input: UserCreateInput, origin: UserOrigin, tx?: EventTransaction): Promise<UserFacts> {
    if (!tx) return this.events.transaction((own) => this.create(input, origin, own));
    const email = normalizeEmail(input.email);
    const roles = [...new Set(input.roles)];
    const [userId] = await insertUsers(tx.manager, [
      {
        fullName: input.fullName,
        email,
        passwordHash: input.passwordHash,
        status: input.status,
        isVerified: input.verified,
        emailVerifiedAt: input.verified ? new Date() : null,
        roles,
        by: origin.via === 'admin' || origin.via === 'import' ? origin.actor.id : null,
        ban: input.banReason === undefined ? undefined : { reason: input.banReason },
      },
    ]);
    const facts: UserFacts = { userId, email, fullName: input.fullName, status: input.status, verified: input.verified, roles };
    if (origin.via === 'register') await tx.record({ name: 'user.registered', actor: { id: userId, name: input.fullName }, data: facts });
    else
      await tx.record({
        name: 'user.created',
        actor: origin.via === 'admin' || origin.via === 'import' ? { id: origin.actor.id, name: origin.actor.fullName } : null,
        data: { ...facts, via: origin.via },
      });
    return facts;
  }

  /**
   * The id of a placeholder account, created the first time it is needed (through `create`, so it
   * is born like any account). Two erasures creating it at once: the unique index keeps one, the
   * other reads it. Its password hash '!' matches no password, and it is INACTIVE: it cannot sign in.
   */
  async placeholder(kind: PlaceholderKind): Promise<number> {
    const find = async () => (await this.users.findOne({ where: { placeholder: kind }, select: { id: true } }))?.id;
    const existing = await find();
    if (existing) return existing;
    const { fullName, email, roles } = PLACEHOLDERS[kind];
    try {
      await this.events.transaction(async (tx) => {
        const facts = await this.create(
          { fullName, email, passwordHash: '!', status: UserStatus.INACTIVE, verified: false, roles: [...roles] },
          { via: 'placeholder' },
          tx,
        );
        await tx.manager.update(User, { id: facts.userId }, { placeholder: kind });
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const id = await find();
    if (!id) throw new Error(`placeholder account ${kind} could not be created`);
    return id;
  }

  /** A user with their roles, or null. */
  findById(id: number): Promise<User | null> {
    return this.users.findOne({ where: { id }, relations: { userRoles: true } });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.findOne({ where: { email: normalizeEmail(email) }, relations: { userRoles: true } });
  }

  /**
   * The caller behind an access token: only verified, ACTIVE accounts keep access
   * ('locked' otherwise), checked on every request.
   */
  async findAuthUser(id: number): Promise<AuthUser | 'not-found' | 'locked'> {
    const user = await this.findById(id);
    if (!user) return 'not-found';
    if (!user.isVerified || user.status !== UserStatus.ACTIVE) return 'locked';
    const roles = user.userRoles.map((userRole) => userRole.role.name);
    return { id: user.id, email: user.email, fullName: user.fullName, roles, role: effectiveRole(roles) };
  }

  /**
   * The profile in one query, without entity hydration: every signed-in page reads it (the
   * session middleware), so it is the floor of a signed-in page. Same answer as
   * toUserResponse(findById(id)) (users.e2e-spec compares them).
   */
  async getProfile(id: number): Promise<UserResponseDto> {
    const [row] = (await this.users.query(`SELECT ${PROFILE_SELECT} FROM users u WHERE u.id = $1`, [id])) as ProfileRow[];
    if (!row) throw new NotFoundException(UsersMessages.USER_NOT_FOUND);
    return profileFromRow(row);
  }

  /** The commenting mute in force, for the profile and the moderation answers. */
  commentingMute(id: number): Promise<ActiveMute | undefined> {
    return activeMute(this.users.manager, id);
  }

  /** Partial update; a new e-mail must not mix scripts (400) nor belong to another account (409). Records `user.updated` when something changed. */
  async updateProfile(id: number, dto: UserProfileUpdateDto): Promise<UserResponseDto> {
    try {
      await this.events.transaction(async ({ manager, record }) => {
        const user = await manager.findOne(User, { where: { id } });
        if (!user) throw new NotFoundException(UsersMessages.USER_NOT_FOUND);
        const changes: UserChanges = {};
        if (dto.fullName !== undefined && dto.fullName !== user.fullName) changes.fullName = { from: user.fullName, to: dto.fullName };
        if (dto.bio !== undefined && dto.bio !== user.bio) changes.bio = { from: user.bio, to: dto.bio };
        if (dto.email !== undefined && dto.email !== user.email) {
          if (mixesScripts(dto.email))
            throw new BadRequestException({
              message: UsersMessages.EMAIL_MIXED_SCRIPTS,
              errors: { email: [UsersMessages.EMAIL_MIXED_SCRIPTS] },
            });
          if (await manager.exists(User, { where: { email: dto.email } })) throw new ConflictException(UsersMessages.EMAIL_IN_USE);
          changes.email = { from: user.email, to: dto.email };
        }
        if (dto.website !== undefined && dto.website !== user.website) changes.website = { from: user.website, to: dto.website };
        if (dto.location !== undefined && dto.location !== user.location) changes.location = { from: user.location, to: dto.location };
        if (!Object.keys(changes).length) return;
        const values: Partial<User> = {};
        if (changes.fullName) values.fullName = changes.fullName.to;
        if (changes.bio) values.bio = changes.bio.to;
        if (changes.email) values.email = changes.email.to;
        if (changes.website) values.website = changes.website.to;
        if (changes.location) values.location = changes.location.to;
        await manager.update(User, { id }, values);
        await this.recordOwnChange(manager, record, id, changes);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException(UsersMessages.EMAIL_IN_USE);
      throw error;
    }
    return this.getProfile(id);
  }

  /** Stores the new avatar (512x512 WebP), then deletes the previous file. */
  async setAvatar(id: number, file: UploadedImage | undefined): Promise<AvatarResponseDto> {
    if (!file?.size) throw new BadRequestException(UsersMessages.AVATAR_NOT_IMAGE);
    const user = await this.require(id);
    let avatarUrl: string;
    try {
      avatarUrl = await this.images.saveAvatar(file.path);
    } catch (error) {
      if (error instanceof NotAnImageError) throw new BadRequestException(UsersMessages.AVATAR_NOT_IMAGE);
      throw error;
    }
    let replaced: { previous: string | null } | undefined;
    try {
      replaced = await this.swapAvatar(user.id, avatarUrl);
    } catch (error) {
      await this.images.delete('avatars', avatarUrl);
      throw error;
    }
    if (!replaced) {
      await this.images.delete('avatars', avatarUrl);
      throw new NotFoundException(UsersMessages.USER_NOT_FOUND);
    }
    if (replaced.previous) await this.images.delete('avatars', replaced.previous);
    return { avatarUrl };
  }

  async removeAvatar(id: number): Promise<UserResponseDto> {
    const user = await this.require(id);
    if (user.avatar) {
      const replaced = await this.swapAvatar(id, null);
      if (replaced?.previous) await this.images.delete('avatars', replaced.previous);
    }
    return this.getProfile(id);
  }

  /**
   * Sets the avatar and answers the one it replaced, read under the row's lock: of concurrent
   * uploads each removes exactly the file it replaced, so no stored avatar is left without a row.
   * Records `user.updated` (the caches showing the account drop before this answers).
   */
  private swapAvatar(id: number, avatar: string | null): Promise<{ previous: string | null } | undefined> {
    return this.events.transaction(async ({ manager, record }) => {
      const [rows] = (await manager.query(
        `UPDATE users u SET avatar = $2, updated_at = now()
           FROM (SELECT id, avatar FROM users WHERE id = $1 FOR UPDATE) old
          WHERE u.id = old.id
          RETURNING old.avatar AS previous`,
        [id, avatar],
      )) as [{ previous: string | null }[], number];
      const replaced = rows[0];
      if (replaced && replaced.previous !== avatar)
        await this.recordOwnChange(manager, record, id, { avatar: { from: replaced.previous, to: avatar } });
      return replaced;
    });
  }

  /** The owner changed their own profile: `user.updated` via self. */
  private async recordOwnChange(
    manager: EntityManager,
    record: EventTransaction['record'],
    id: number,
    changes: UserChanges,
  ): Promise<void> {
    const facts = (await readUserFacts(manager, id)) as UserFacts;
    await record({ name: 'user.updated', actor: { id, name: facts.fullName }, data: { ...facts, via: 'self', changes } });
  }

  private async require(id: number): Promise<User> {
    const user = await this.findById(id);
    if (!user) throw new NotFoundException(UsersMessages.USER_NOT_FOUND);
    return user;
  }
}
