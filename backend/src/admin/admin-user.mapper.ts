import { toUserResponse } from '../users/dto/user-response.dto';
import type { User } from '../users/entities/user.entity';
import type { AuditEntryDto } from '../audit/dto/audit-entry-response.dto';
import { activityTypeOfAudit } from '../dashboards/activity-type';
import type { AdminRecentActivityDto, AdminBanStatusDto, AdminUserDto } from './dto/admin-user-response.dto';
import type { AdminUserTotals } from './admin-users.repository';
import type { UserBan } from '../users/entities/user-ban.entity';

/** Entity (with `userRoles` loaded) → AdminUser. Fields are picked one by one: no hash can slip through. */
export function toAdminUser(user: User, totals: AdminUserTotals | undefined): AdminUserDto {
  const profile = toUserResponse(user);
  return {
    id: profile.id,
    fullName: profile.fullName,
    email: profile.email,
    avatar: profile.avatar,
    bio: profile.bio,
    status: profile.status,
    isVerified: profile.isVerified,
    emailVerifiedAt: profile.emailVerifiedAt,
    createdAt: profile.createdAt,
    updatedAt: profile.updatedAt,
    lastLoginAt: profile.lastLoginAt,
    totalPosts: totals?.totalPosts ?? 0,
    totalComments: totals?.totalComments ?? 0,
    roles: profile.roles,
    role: profile.role,
    mutedUntil: totals?.mute?.until ? totals.mute.until.toISOString() : null,
    mutedForever: !!totals?.mute && totals.mute.until === null,
    muteReason: totals?.mute?.reason ?? null,
  };
}

/** The open ban (with `bannedBy` loaded) → ban status; no open ban → all null. */
export function toBanStatus(isBanned: boolean, ban: UserBan | null): AdminBanStatusDto {
  return {
    isBanned,
    banReason: ban?.reason ?? null,
    bannedAt: ban ? ban.bannedAt.toISOString() : null,
    bannedBy: ban?.bannedBy?.fullName ?? null,
    bannedById: ban?.bannedById ?? null,
    adminNote: ban?.adminNote ?? null,
  };
}

export function toActivity(entry: AuditEntryDto): AdminRecentActivityDto {
  const type = activityTypeOfAudit(entry.type, entry.targetType);
  const activity: AdminRecentActivityDto = { id: entry.id, type, title: entry.title, description: entry.description, timestamp: entry.timestamp };
  if (entry.link) activity.link = entry.link;
  return activity;
}
