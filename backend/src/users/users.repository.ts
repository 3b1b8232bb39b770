import type { EntityManager } from 'typeorm';
import { RoleName } from './roles';
import { UserStatus } from './entities/user.entity';

/**
 * The users module's SQL: the one function that writes new accounts (UsersService.create and the
 * demo seeder both call insertUsers), the locks of the administrators' guards, and the rows of
 * bans and mutes the user lifecycle writes. Plain functions over the caller's manager, so a
 * transaction holds all of a change and the seeder needs no application.
 */

/** One account to write, with its roles and, for an account created BANNED, its open ban. */
export interface NewUserRow {
  fullName: string;
  /** As stored: normalised (normalizeEmail). */
  email: string;
  passwordHash: string;
  status: UserStatus;
  isVerified: boolean;
  emailVerifiedAt: Date | null;
  bio?: string | null;
  /** Duplicates are dropped; none reads as USER. */
  roles: readonly RoleName[];
  /** The administrator who assigned the roles and opened the ban; null for sign-ups, the first start and the seeder. */
  by?: number | null;
  ban?: { reason: string; adminNote?: string | null; at?: Date };
  /** Backdated history (the demo seeder); now otherwise. */
  createdAt?: Date;
  updatedAt?: Date;
  lastLoginAt?: Date | null;
}

/**
 * Writes the accounts, their roles and their open bans in three statements, whatever their number
 * (the demo seeder passes 10,000 at a time); answers the new ids in the order of `rows`. Every
 * account, its roles and its ban are written here and nowhere else.
 */
export async function insertUsers(manager: EntityManager, rows: readonly NewUserRow[]): Promise<number[]> {
  if (!rows.length) return [];
  const inserted = (await manager.query(
    `INSERT INTO users (full_name, email, password_hash, status, is_verified, email_verified_at, bio, created_at, updated_at, last_login_at)
     SELECT v.full_name, v.email, v.password_hash, v.status, v.is_verified, v.verified_at, v.bio,
            coalesce(v.created_at, now()), coalesce(v.updated_at, v.created_at, now()), v.last_login_at
       FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::boolean[], $6::timestamptz[], $7::varchar[],
                   $8::timestamptz[], $9::timestamptz[], $10::timestamptz[])
            WITH ORDINALITY AS v(full_name, email, password_hash, status, is_verified, verified_at, bio, created_at, updated_at, last_login_at, ord)
      ORDER BY v.ord
     RETURNING id, email`,
    [
      rows.map((row) => row.fullName),
      rows.map((row) => row.email),
      rows.map((row) => row.passwordHash),
      rows.map((row) => row.status),
      rows.map((row) => row.isVerified),
      rows.map((row) => row.emailVerifiedAt),
      rows.map((row) => row.bio ?? null),
      rows.map((row) => row.createdAt ?? null),
      rows.map((row) => row.updatedAt ?? null),
      rows.map((row) => row.lastLoginAt ?? null),
    ],
  )) as { id: number; email: string }[];
  // RETURNING promises no order: the e-mail (unique) ties each id to its row.
  const idByEmail = new Map(inserted.map((row) => [row.email, row.id]));
  const ids = rows.map((row) => idByEmail.get(row.email) as number);

  const roles = rows.flatMap((row, i) =>
    [...new Set(row.roles)].map((role) => ({ userId: ids[i], role, by: row.by ?? null, at: row.createdAt ?? null })),
  );
  if (roles.length) {
    await manager.query(
      `INSERT INTO user_roles (user_id, role_id, assigned_by, assigned_at)
       SELECT v.user_id, r.id, v.assigned_by, coalesce(v.assigned_at, now())
         FROM unnest($1::int[], $2::varchar[], $3::int[], $4::timestamptz[]) AS v(user_id, role, assigned_by, assigned_at)
         JOIN roles r ON r.name = v.role`,
      [roles.map((row) => row.userId), roles.map((row) => row.role), roles.map((row) => row.by), roles.map((row) => row.at)],
    );
  }

  const bans = rows.flatMap((row, i) => (row.ban ? [{ userId: ids[i], by: row.by ?? null, ...row.ban, at: row.ban.at ?? null }] : []));
  if (bans.length) {
    await manager.query(
      `INSERT INTO user_bans (user_id, reason, admin_note, banned_by, banned_at)
       SELECT v.user_id, v.reason, v.admin_note, v.banned_by, coalesce(v.banned_at, now())
         FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::int[], $5::timestamptz[]) AS v(user_id, reason, admin_note, banned_by, banned_at)`,
      [
        bans.map((ban) => ban.userId),
        bans.map((ban) => ban.reason),
        bans.map((ban) => ban.adminNote ?? null),
        bans.map((ban) => ban.by),
        bans.map((ban) => ban.at),
      ],
    );
  }
  return ids;
}

/**
 * The administrators' mutex: every change that may take ADMIN away from an active account (role
 * edits, status changes, bans) locks the ADMIN role's row first, so two such changes run one
 * after the other and the second counts the admins the first left. FOR NO KEY UPDATE does not
 * block the KEY SHARE locks of foreign-key checks (assigning roles elsewhere goes on).
 */
export async function lockAdminChanges(manager: EntityManager): Promise<void> {
  await manager.query(`SELECT id FROM roles WHERE name = $1 FOR NO KEY UPDATE`, [RoleName.ADMIN]);
}

/** Locks the user's row for this transaction; false when there is no such user. */
export async function lockUser(manager: EntityManager, id: number): Promise<boolean> {
  const rows = (await manager.query(`SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE`, [id])) as unknown[];
  return rows.length > 0;
}

/** Verified ACTIVE accounts holding ADMIN, other than `exceptId`. */
export async function countActiveAdmins(manager: EntityManager, exceptId: number): Promise<number> {
  const [row] = (await manager.query(
    `SELECT count(*)::int AS total
       FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
      WHERE r.name = $1 AND u.status = $2 AND u.is_verified AND u.deletion_due_at IS NULL AND u.id <> $3`,
    [RoleName.ADMIN, UserStatus.ACTIVE, exceptId],
  )) as { total: number }[];
  return row.total;
}

/** Whether this account holds ADMIN and is verified and ACTIVE (read inside the mutex). */
export async function holdsActiveAdmin(manager: EntityManager, id: number): Promise<boolean> {
  const rows = (await manager.query(
    `SELECT 1 FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
      WHERE u.id = $1 AND r.name = $2 AND u.status = $3 AND u.is_verified AND u.deletion_due_at IS NULL`,
    [id, RoleName.ADMIN, UserStatus.ACTIVE],
  )) as unknown[];
  return rows.length > 0;
}

/** Replaces the roles held: `removed` go, `added` come, assigned by `by`. */
export async function changeRoles(
  manager: EntityManager,
  userId: number,
  removed: readonly RoleName[],
  added: readonly RoleName[],
  by: number | null,
): Promise<void> {
  if (removed.length) {
    await manager.query(
      `DELETE FROM user_roles ur USING roles r WHERE ur.user_id = $1 AND r.id = ur.role_id AND r.name = ANY($2::varchar[])`,
      [userId, removed],
    );
  }
  if (added.length) {
    await manager.query(
      `INSERT INTO user_roles (user_id, role_id, assigned_by) SELECT $1, r.id, $3 FROM roles r WHERE r.name = ANY($2::varchar[]) ORDER BY r.id`,
      [userId, added, by],
    );
  }
}

/** Opens a ban; one left open by hand (status changed in the database) is closed first, not doubled. */
export async function openBan(manager: EntityManager, userId: number, reason: string, adminNote: string | null, by: number): Promise<void> {
  await manager.query(`UPDATE user_bans SET unbanned_at = now() WHERE user_id = $1 AND unbanned_at IS NULL`, [userId]);
  await manager.query(`INSERT INTO user_bans (user_id, reason, admin_note, banned_by) VALUES ($1, $2, $3, $4)`, [
    userId,
    reason,
    adminNote,
    by,
  ]);
}

/** Closes the open ban, kept as history with the unban's reason and note. */
export async function closeBan(manager: EntityManager, userId: number, reason: string, note: string | null, by: number): Promise<void> {
  await manager.query(
    `UPDATE user_bans SET unbanned_at = now(), unbanned_by = $2, unban_reason = $3, unban_note = $4 WHERE user_id = $1 AND unbanned_at IS NULL`,
    [userId, by, reason, note],
  );
}

/** Sets the mute (replacing one in force). */
export async function upsertMute(manager: EntityManager, userId: number, until: Date | null, reason: string, by: number): Promise<void> {
  await manager.query(
    `INSERT INTO user_mutes (user_id, muted_until, reason, muted_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET muted_until = EXCLUDED.muted_until, reason = EXCLUDED.reason, muted_by = EXCLUDED.muted_by, muted_at = now()`,
    [userId, until, reason, by],
  );
}

export async function deleteMute(manager: EntityManager, userId: number): Promise<void> {
  await manager.query('DELETE FROM user_mutes WHERE user_id = $1', [userId]);
}
