import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AdminPageFieldsDto } from '../../common/pagination/page';
import { DashboardActivityType } from '../../dashboards/dto/dashboard.dto';
import { UserRoleResponseDto } from '../../users/dto/user-response.dto';
import { RoleName } from '../../users/roles';
import { UserStatus } from '../../users/entities/user.entity';

/** A user as the back-office sees it (docs/requirements.md#data-admin-user). Never carries the password hash. */
export class AdminUserDto {
  @ApiProperty({ example: 7 }) id: number;
  @ApiProperty({ example: 'Ann Lee' }) fullName: string;
  @ApiProperty({ example: 'ann@example.com' }) email: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ type: String, nullable: true }) bio: string | null;
  @ApiProperty({ enum: UserStatus, enumName: 'UserStatus' }) status: UserStatus;
  @ApiProperty() isVerified: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) emailVerifiedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastLoginAt: string | null;
  @ApiProperty({ description: 'Posts written, any status' }) totalPosts: number;
  @ApiProperty({ description: 'Comments written (deleted ones not counted)' }) totalComments: number;
  @ApiProperty({ type: [UserRoleResponseDto], description: 'Held roles, oldest assignment first; none is shown as USER' })
  roles: UserRoleResponseDto[];
  @ApiProperty({ enum: RoleName, enumName: 'RoleName', description: 'The highest-ranked held role (none = USER)' }) role: RoleName;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Commenting muted until then (null: not muted, or muted for good)',
  })
  mutedUntil: string | null;
  @ApiProperty({ description: 'Commenting muted for good' }) mutedForever: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Why the mute in force was set (null when not muted)' }) muteReason:
    string | null;
  @ApiProperty({ description: 'The user signs in with two-factor authentication (an admin can reset it)' }) twoFactorEnabled: boolean;
}

/** A page of users: `content` plus the spec's page fields. */
export class AdminUserPageDto extends AdminPageFieldsDto {
  @ApiProperty({ type: [AdminUserDto] }) content: AdminUserDto[];
}

/** GET /admin/users/{id}/ban-status: the open ban's details (all null when not banned). */
export class AdminBanStatusDto {
  @ApiProperty() isBanned: boolean;
  @ApiProperty({ type: String, nullable: true }) banReason: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) bannedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The banning admin's full name (null when unknown or deleted)" }) bannedBy:
    string | null;
  @ApiProperty({ type: Number, nullable: true }) bannedById: number | null;
  @ApiProperty({ type: String, nullable: true }) adminNote: string | null;
}

/** POST /admin/users/{id}/generate-password. */
export class AdminGeneratedPasswordDto {
  @ApiProperty({ example: 'k7#Qm9!vTz2@Lp4x', description: 'Shown once; only its hash is stored' }) newPassword: string;
  @ApiProperty({ description: 'Whether the e-mail with the password went out' }) emailed: boolean;
}

/** One entry of the admin dashboard's Recent Activity (from the audit log). */
export class AdminRecentActivityDto {
  @ApiProperty({ example: 42 }) id: number;
  @ApiProperty({
    enum: DashboardActivityType,
    enumName: 'DashboardActivityType',
    example: DashboardActivityType.USER_REGISTERED,
    description:
      'One of the six activity types of docs/requirements.md#activity-types, the nearest to the audit entry `id` (whose own type keeps the detail: a created account is USER_REGISTERED, an unban or a new password USER_UPDATED, a rejection, archive or deletion POST_CREATED, any tag change TAG_CREATED)',
  })
  type: DashboardActivityType;
  @ApiProperty({ example: 'New user registered' }) title: string;
  @ApiProperty({ example: 'Ann Lee signed up' }) description: string;
  @ApiProperty({ type: String, format: 'date-time' }) timestamp: string;
  @ApiPropertyOptional({ example: '/admin/users/7', description: 'A site-relative page about it, when there is one' }) link?: string;
}

/** GET /admin/stats and /dashboard/admin/stats (docs/requirements.md#data-admin-stats). */
export class AdminStatsDto {
  @ApiProperty() totalUsers: number;
  @ApiProperty({ description: 'All posts, any status' }) totalPosts: number;
  @ApiProperty() totalTags: number;
  @ApiProperty() activeUsers: number;
  @ApiProperty() pendingUsers: number;
  @ApiProperty() bannedUsers: number;
  @ApiProperty() inactiveUsers: number;
  @ApiProperty() publishedPosts: number;
  @ApiProperty({ description: "The caller's own posts" }) myPosts: number;
  @ApiProperty({ description: "The caller's own drafts" }) myDrafts: number;
  @ApiProperty() totalViews: number;
  @ApiProperty() totalLikes: number;
  @ApiProperty({ description: 'Comments not deleted' }) totalComments: number;
  @ApiProperty({ type: [AdminRecentActivityDto], description: 'The latest 10 audit log entries, newest first' })
  recentActivities: AdminRecentActivityDto[];
  @ApiProperty({ type: String, format: 'date-time' }) lastUpdated: string;
}
