import type { DataSource } from 'typeorm';
import { preparedQuery } from '../database/prepared-query';
import { muteFromRow, PROFILE_SELECT, profileFromRow, type ProfileRow } from '../users/profile-query';
import { UserStatus } from '../users/entities/user.entity';
import type { AuthUser, CallerRead } from './auth-user';
import { effectiveRole } from '../users/roles';

/**
 * The one read behind every authenticated request, shared by a session's access token
 * (SessionsService.resolveCaller) and an API token (ApiTokensService.resolveCaller): the caller's
 * profile (PROFILE_SELECT over `users u`), what the credential adds (`columns`, over `from`), and
 * the route's `alongside` reads, in one prepared statement (planned once per pooled connection).
 * `name` must be unique to the text apart from the reads (it is suffixed with their keys).
 */
export async function readCaller<Extra extends object>(
  dataSource: DataSource,
  query: { name: string; columns: string; from: string },
  values: unknown[],
  reads: readonly CallerRead[],
): Promise<(ProfileRow & Extra & Record<string, unknown>) | undefined> {
  const text = `SELECT ${PROFILE_SELECT},
              ${query.columns}${reads.map((read, index) => `,\n              (${read.sql}) AS "alongside_${index}"`).join('')}
         ${query.from}`;
  const [row] = await preparedQuery<ProfileRow & Extra & Record<string, unknown>>(
    dataSource,
    `${query.name}${reads.map((read) => `_${read.key}`).join('')}`,
    text,
    values,
  );
  return row;
}

/** Only verified, ACTIVE accounts keep access: a ban or a deactivation locks every credential at once. */
export function keepsAccess(row: ProfileRow): boolean {
  return row.isVerified && row.status === UserStatus.ACTIVE;
}

/** The caller of a row of `readCaller`. */
export function callerOf(row: ProfileRow & Record<string, unknown>, reads: readonly CallerRead[]): AuthUser {
  const roles = [...row.roles].sort((a, b) => a.roleId - b.roleId).map((role) => role.name);
  const caller: AuthUser = {
    id: row.id,
    email: row.email,
    fullName: row.fullName,
    roles,
    role: effectiveRole(roles),
    profile: profileFromRow(row),
    commentingMute: muteFromRow(row),
  };
  if (reads.length) caller.alongside = Object.fromEntries(reads.map((read, index) => [read.key, row[`alongside_${index}`]]));
  return caller;
}
