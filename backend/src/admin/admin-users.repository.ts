import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SortDirection } from '../common/pagination/sort';
import { containsPattern, countRows } from '../common/sql-patterns';
import { RoleName } from '../users/roles';
import { UserStatus } from '../users/entities/user.entity';
import type { AdminUserSortField } from './dto/admin-user-input.dto';
import { countedComment } from '../comments/visibility/counted-comment';
import { PROFILE_SELECT, type ProfileRow } from '../users/profile-query';

export interface AdminUserFilter {
  /** Part of the full name or e-mail, case-insensitive. */
  search?: string;
  status?: UserStatus;
  isVerified?: boolean;
  /** Users whose role that counts (the highest held; none = USER) is this one. */
  role?: RoleName;
}

/**
 * Sort keys (each order is total: id breaks ties), each with an index in that order:
 * IDX_users_created_at (IDX_users_status_created under a status filter), IDX_users_updated_at,
 * IDX_users_name_lower (names sort case-insensitively), UQ_users_email (stored lower-cased),
 * IDX_users_last_login. A user who never signed in counts as the earliest sign-in: first
 * ascending, last descending.
 */
const SORT_KEYS: Record<AdminUserSortField, { expr: string; nullsFirstAscending?: boolean }[]> = {
  createdAt: [{ expr: 'u.created_at' }, { expr: 'u.id' }],
  updatedAt: [{ expr: 'u.updated_at' }, { expr: 'u.id' }],
  fullName: [{ expr: 'lower(u.full_name)' }, { expr: 'u.id' }],
  email: [{ expr: 'u.email' }],
  lastLoginAt: [{ expr: 'u.last_login_at', nullsFirstAscending: true }, { expr: 'u.id' }],
};

/** ORDER BY for a sort, or for the same order read from its far end (`reversed`). */
function orderBy(sortBy: AdminUserSortField, direction: SortDirection, reversed: boolean): string {
  const descending = (direction === 'desc') !== reversed;
  return SORT_KEYS[sortBy]
    .map(
      ({ expr, nullsFirstAscending }) =>
        `${expr} ${descending ? 'DESC' : 'ASC'}${nullsFirstAscending ? (descending ? ' NULLS LAST' : ' NULLS FIRST') : ''}`,
    )
    .join(', ');
}

/**
 * An admin user's columns over `users u` joined to a page's ids: the profile (PROFILE_SELECT, the
 * users module's), its posts (any status), its counted comments (not deleted, VISIBLE:
 * IDX_comments_user_counted alone) and the mute in force.
 */
const ADMIN_USER_SELECT = `${PROFILE_SELECT},
       (SELECT count(*)::int FROM posts p WHERE p.author_id = u.id) AS "totalPosts",
       (SELECT count(*)::int FROM comments c WHERE c.user_id = u.id AND ${countedComment('c')}) AS "totalComments",
       m.user_id IS NOT NULL AS muted, m.muted_until AS "mutedUntil", m.reason AS "muteReason",
       EXISTS (SELECT 1 FROM user_two_factor tf WHERE tf.user_id = u.id AND tf.enabled_at IS NOT NULL) AS "twoFactorEnabled"`;
const ADMIN_USER_JOINS = `JOIN users u ON u.id = page.id
         LEFT JOIN user_mutes m ON m.user_id = u.id AND (m.muted_until IS NULL OR m.muted_until > now())`;

/** A row of ADMIN_USER_SELECT. */
export interface AdminUserRow extends ProfileRow {
  totalPosts: number;
  totalComments: number;
  muted: boolean;
  mutedUntil: Date | null;
  muteReason: string | null;
  twoFactorEnabled: boolean;
}

/** The user administration's SQL: filtered pages of users, counts, and the row lock of a generated password. */
@Injectable()
export class AdminUsersRepository {
  /** Role name → id, read once (the roles are seeded by a migration and never change). */
  private roleIds?: Promise<Map<RoleName, number>>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One page of users, in order, each with its counts and mute, in one round trip. The page's ids
   * come from the filter's index alone (an OFFSET walks index entries, not wide rows); only those
   * rows are read and joined. `reversed` reads the same order from its far end (the caller turns
   * the offset around and the rows back).
   */
  async pageUsers(
    filter: AdminUserFilter,
    sortBy: AdminUserSortField,
    direction: SortDirection,
    offset: number,
    limit: number,
    reversed = false,
  ): Promise<AdminUserRow[]> {
    const params: unknown[] = [];
    const where = await this.where(filter, params);
    params.push(offset, limit);
    const order = orderBy(sortBy, direction, reversed);
    return this.dataSource.query(
      `SELECT ${ADMIN_USER_SELECT}
         FROM (SELECT u.id FROM users u ${where} ORDER BY ${order} OFFSET $${params.length - 1} LIMIT $${params.length}) page
         ${ADMIN_USER_JOINS}
        ORDER BY ${order}`,
      params,
    ) as Promise<AdminUserRow[]>;
  }

  /** These users (any order; unknown ids are left out), each with its counts and mute. */
  usersByIds(ids: number[]): Promise<AdminUserRow[]> {
    return this.dataSource.query(`SELECT ${ADMIN_USER_SELECT} FROM unnest($1::int[]) AS page(id) ${ADMIN_USER_JOINS}`, [ids]) as Promise<
      AdminUserRow[]
    >;
  }

  async count(filter: AdminUserFilter): Promise<number> {
    const params: unknown[] = [];
    const where = await this.where(filter, params);
    return countRows(this.dataSource, `FROM users u ${where}`, params);
  }

  /**
   * The filters as SQL. The role filter is by the role that counts (docs/requirements.md#decision-roles: the highest held,
   * none = USER), with the role ids as literals so the planner knows how common each is: USER
   * filters out the few AUTHOR/ADMIN holders (a hashed NOT IN, which keeps the ordered index scan),
   * AUTHOR and ADMIN start from their role's rows.
   */
  private async where(filter: AdminUserFilter, params: unknown[]): Promise<string> {
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const clauses: string[] = [];
    if (filter.status) clauses.push(`u.status = ${add(filter.status)}`);
    if (filter.isVerified !== undefined) clauses.push(`u.is_verified = ${add(filter.isVerified)}`);
    if (filter.role) {
      const ids = await this.roleIdMap();
      const holds = (roles: RoleName[], alias = 'ur') =>
        `SELECT ${alias}.user_id FROM user_roles ${alias} WHERE ${alias}.role_id IN (${roles.map((role) => Number(ids.get(role) ?? 0)).join(', ')})`;
      if (filter.role === RoleName.ADMIN) clauses.push(`u.id IN (${holds([RoleName.ADMIN])})`);
      // The few ADMIN rows are taken out of the AUTHOR rows, not out of every user.
      else if (filter.role === RoleName.AUTHOR)
        clauses.push(`u.id IN (${holds([RoleName.AUTHOR])} AND ur.user_id NOT IN (${holds([RoleName.ADMIN], 'ua')}))`);
      else clauses.push(`u.id NOT IN (${holds([RoleName.AUTHOR, RoleName.ADMIN])})`);
    }
    if (filter.search) {
      // Both sides of the OR can use their trigram GIN index (a BitmapOr), for fragments of 3+ characters.
      const pattern = add(containsPattern(filter.search));
      clauses.push(`(u.full_name ILIKE ${pattern} OR u.email ILIKE ${pattern})`);
    }
    return clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
  }

  private roleIdMap(): Promise<Map<RoleName, number>> {
    if (!this.roleIds) {
      const loading = (this.dataSource.query(`SELECT id, name FROM roles`) as Promise<{ id: number; name: RoleName }[]>).then(
        (rows) => new Map(rows.map((row) => [row.name, row.id])),
      );
      loading.catch(() => {
        if (this.roleIds === loading) this.roleIds = undefined; // a failed read is retried next time
      });
      this.roleIds = loading;
    }
    return this.roleIds;
  }
}
