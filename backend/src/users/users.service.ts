import { ContentEvents } from '../common/content-events';
import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { isUniqueViolation } from '../common/database-errors';
import { canonicalEmail } from '../../../shared/text';
import { ImageStorageService, NotAnImageError } from '../images/image-storage.service';
import type { UploadedImage } from '../images/upload-receiver';
import { activeMute, type ActiveMute } from './active-mute';
import { AvatarResponseDto, UserResponseDto } from './dto/user-response.dto';
import { PROFILE_SELECT, profileFromRow, type ProfileRow } from './profile-query';
import { UserProfileUpdateDto } from './dto/user-profile-update.dto';
import { effectiveRole, RoleName } from '../auth/roles';
import { User, UserStatus } from './entities/user.entity';
import { UsersMessages } from './users.messages';

/** E-mails are stored NFKC-normalised, trimmed and lower-cased, so the unique key is case-insensitive. */
export function normalizeEmail(email: string): string {
  return canonicalEmail(email);
}

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly images: ImageStorageService,
    private readonly contentEvents: ContentEvents,
  ) {}

  /** The name, bio or avatar changed: they show beside the account's posts; the caches drop those pages before the answer. */
  private async profileChanged(id: number): Promise<void> {
    await this.contentEvents.changed({ kind: 'user', userId: id, profileChanged: true });
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

  /** The commenting mute in force (issue 19), for the profile. */
  commentingMute(id: number): Promise<ActiveMute | undefined> {
    return activeMute(this.users.manager, id);
  }

  /** Partial update; a new e-mail must not belong to another account (409). */
  async updateProfile(id: number, dto: UserProfileUpdateDto): Promise<UserResponseDto> {
    const user = await this.require(id);
    if (dto.email !== undefined && dto.email !== user.email) {
      const other = await this.users.exists({ where: { email: dto.email } });
      if (other) throw new ConflictException(UsersMessages.EMAIL_IN_USE);
      user.email = dto.email;
    }
    const shown = (dto.fullName !== undefined && dto.fullName !== user.fullName) || (dto.bio !== undefined && dto.bio !== user.bio);
    if (dto.fullName !== undefined) user.fullName = dto.fullName;
    if (dto.bio !== undefined) user.bio = dto.bio;
    if (dto.website !== undefined) user.website = dto.website;
    if (dto.location !== undefined) user.location = dto.location;
    try {
      await this.users.save(user);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException(UsersMessages.EMAIL_IN_USE);
      throw error;
    }
    if (shown) await this.profileChanged(id);
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
    await this.profileChanged(id);
    if (replaced.previous) await this.images.delete('avatars', replaced.previous);
    return { avatarUrl };
  }

  async removeAvatar(id: number): Promise<UserResponseDto> {
    const user = await this.require(id);
    if (user.avatar) {
      const replaced = await this.swapAvatar(id, null);
      await this.profileChanged(id);
      if (replaced?.previous) await this.images.delete('avatars', replaced.previous);
    }
    return this.getProfile(id);
  }

  /**
   * Sets the avatar and answers the one it replaced, read under the row's lock: of concurrent
   * uploads each removes exactly the file it replaced, so no stored avatar is left without a row.
   */
  private async swapAvatar(id: number, avatar: string | null): Promise<{ previous: string | null } | undefined> {
    const [rows] = (await this.users.query(
      `UPDATE users u SET avatar = $2, updated_at = now()
         FROM (SELECT id, avatar FROM users WHERE id = $1 FOR UPDATE) old
        WHERE u.id = old.id
        RETURNING old.avatar AS previous`,
      [id, avatar],
    )) as [{ previous: string | null }[], number];
    return rows[0];
  }

  private async require(id: number): Promise<User> {
    const user = await this.findById(id);
    if (!user) throw new NotFoundException(UsersMessages.USER_NOT_FOUND);
    return user;
  }
}
