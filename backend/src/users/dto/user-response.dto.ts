import { ApiProperty } from '@nestjs/swagger';
import { effectiveRole, RoleName } from '../roles';
import type { User } from '../entities/user.entity';
import { UserStatus } from '../entities/user.entity';

export class UserRoleResponseDto {
  @ApiProperty({ enum: RoleName, enumName: 'RoleName', example: RoleName.USER }) name: RoleName;
  @ApiProperty({ example: 'User' }) displayName: string;
  @ApiProperty({ example: 'Reads, likes and comments' }) description: string;
  @ApiProperty({ format: 'date-time', type: String }) assignedAt: string;
}

/** The signed-in user's profile (docs/requirements.md#data-user "User profile"). */
export class UserResponseDto {
  @ApiProperty({ example: 1 }) id: number;
  @ApiProperty({ example: 'Ann Lee' }) fullName: string;
  @ApiProperty({ example: 'ann@example.com' }) email: string;
  @ApiProperty({ type: [UserRoleResponseDto] }) roles: UserRoleResponseDto[];
  @ApiProperty({ enum: RoleName, enumName: 'RoleName', description: 'The highest-ranked held role (none = USER)' }) role: RoleName;
  @ApiProperty({ type: String, nullable: true, example: '/images/avatars/0123456789abcdef0123456789abcdef.webp' }) avatar: string | null;
  @ApiProperty({ type: String, nullable: true }) bio: string | null;
  @ApiProperty({ type: String, nullable: true }) website: string | null;
  @ApiProperty({ type: String, nullable: true }) location: string | null;
  @ApiProperty() isVerified: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) emailVerifiedAt: string | null;
  @ApiProperty({ enum: UserStatus, enumName: 'UserStatus' }) status: UserStatus;
  @ApiProperty({ format: 'date-time', type: String }) createdAt: string;
  @ApiProperty({ format: 'date-time', type: String }) updatedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastLoginAt: string | null;
}

/** GET /users/profile: the profile, and whether the user may comment, so the comment form can say why before they type. */
export class UserProfileResponseDto extends UserResponseDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Commenting muted until then (null: not muted, or for good)',
  })
  commentingMutedUntil: string | null;
  @ApiProperty({ description: 'Commenting muted for good' }) commentingMutedForever: boolean;
  @ApiProperty({ type: String, nullable: true, description: "The mute's reason (null when not muted)" }) commentingMutedReason:
    string | null;
}

export class AvatarResponseDto {
  @ApiProperty({ example: '/images/avatars/0123456789abcdef0123456789abcdef.webp' }) avatarUrl: string;
}

const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

/** The user's own columns a profile shows (the entity has them, and so has UsersService.getProfile's row). */
export type ProfileFields = Pick<
  User,
  | 'id'
  | 'fullName'
  | 'email'
  | 'avatar'
  | 'bio'
  | 'website'
  | 'location'
  | 'isVerified'
  | 'emailVerifiedAt'
  | 'status'
  | 'createdAt'
  | 'updatedAt'
  | 'lastLoginAt'
>;

/** The profile answer from the user's columns and their roles, in the order they were assigned. */
export function toProfileResponse(user: ProfileFields, roles: UserRoleResponseDto[]): UserResponseDto {
  return {
    id: user.id,
    fullName: user.fullName,
    email: user.email,
    roles,
    role: effectiveRole(roles.map((role) => role.name)),
    avatar: user.avatar,
    bio: user.bio,
    website: user.website,
    location: user.location,
    isVerified: user.isVerified,
    emailVerifiedAt: iso(user.emailVerifiedAt),
    status: user.status,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    lastLoginAt: iso(user.lastLoginAt),
  };
}

/** Entity → response; `user.userRoles` (with their eager role) must be loaded. */
export function toUserResponse(user: User): UserResponseDto {
  const userRoles = [...(user.userRoles ?? [])].sort((a, b) => a.assignedAt.getTime() - b.assignedAt.getTime() || a.roleId - b.roleId);
  const roles = userRoles.map((userRole) => ({
    name: userRole.role.name,
    displayName: userRole.role.displayName,
    description: userRole.role.description,
    assignedAt: userRole.assignedAt.toISOString(),
  }));
  return toProfileResponse(user, roles);
}
