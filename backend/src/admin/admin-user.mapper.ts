import { profileFromRow } from '../users/profile-query';
import type { AuditEntryDto } from '../audit/dto/audit-entry-response.dto';
import { activityTypeOfAudit } from '../dashboards/activity-type';
import type { AdminRecentActivityDto, AdminBanStatusDto, AdminUserDto } from './dto/admin-user-response.dto';
import type { AdminUserRow } from './admin-users.repository';
import type { UserBan } from '../users/entities/user-ban.entity';

/** A row of the admin user query → AdminUser. Fields are picked one by one: no hash can slip through. */
export function toAdminUser(row: AdminUserRow): AdminUserDto {
  const profile = profileFromRow(row);
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
    totalPosts: row.totalPosts,
    totalComments: row.totalComments,
    roles: profile.roles,
    role: profile.role,
    mutedUntil: row.muted && row.mutedUntil ? row.mutedUntil.toISOString() : null,
    mutedForever: row.muted && row.mutedUntil === null,
    muteReason: row.muted ? (row.muteReason ?? '') : null,
    twoFactorEnabled: row.twoFactorEnabled,
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
  const activity: AdminRecentActivityDto = {
    id: entry.id,
    type,
    title: entry.title,
    description: entry.description,
    timestamp: entry.timestamp,
  };
  if (entry.link) activity.link = entry.link;
  return activity;
}
