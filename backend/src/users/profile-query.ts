import { toProfileResponse, type ProfileFields, type UserResponseDto } from './dto/user-response.dto';
import type { RoleName } from './roles';
import { muteInForce, type ActiveMute } from './active-mute';

/**
 * The profile's columns as SQL select items over `users u` (aliased to the entity's names), its
 * roles as JSON in the order they were assigned, and the commenting mute in force (as JSON, or
 * null). Shared by the profile read (UsersService.getProfile) and the session check
 * (SessionsService.resolveCaller), which reads the profile in the same query, so a signed-in
 * page's session, and GET /users/profile whole, cost one query.
 */
export const PROFILE_SELECT = `u.id, u.full_name AS "fullName", u.email, u.avatar, u.bio, u.website, u.location,
       u.is_verified AS "isVerified", u.email_verified_at AS "emailVerifiedAt", u.status,
       u.created_at AS "createdAt", u.updated_at AS "updatedAt", u.last_login_at AS "lastLoginAt",
       COALESCE((SELECT json_agg(json_build_object('roleId', r.id, 'name', r.name, 'displayName', r.display_name, 'description', r.description,
                                                   'assignedAt', floor(extract(epoch FROM ur.assigned_at) * 1000))
                                 ORDER BY ur.assigned_at, ur.role_id)
                   FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id), '[]') AS roles,
       (SELECT json_build_object('mutedUntil', floor(extract(epoch FROM m.muted_until) * 1000), 'reason', m.reason) FROM user_mutes m WHERE m.user_id = u.id AND ${muteInForce('m')}) AS mute`;

/** A row of PROFILE_SELECT: the profile's columns, the roles with the time assigned in ms since the epoch, the mute in force (its end in ms since the epoch). */
export interface ProfileRow extends ProfileFields {
  roles: { roleId: number; name: RoleName; displayName: string; description: string; assignedAt: number }[];
  mute: { mutedUntil: number | null; reason: string } | null;
}

/** The row's commenting mute in force, as activeMute() gives it (null: none). */
export function muteFromRow(row: ProfileRow): ActiveMute | null {
  return row.mute ? { mutedUntil: row.mute.mutedUntil === null ? null : new Date(row.mute.mutedUntil), reason: row.mute.reason } : null;
}

export function profileFromRow(row: ProfileRow): UserResponseDto {
  return toProfileResponse(
    row,
    row.roles.map(({ name, displayName, description, assignedAt }) => ({
      name,
      displayName,
      description,
      assignedAt: new Date(assignedAt).toISOString(),
    })),
  );
}
