import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RoleName } from '../../src/users/roles';
import type { TestApp } from './app';

export interface TestUser {
  id: number;
  email: string;
  fullName: string;
  /** The author page's slug the database gave it (migration AddUserSlugs). */
  slug: string;
  /** A signed access token for `Authorization: Bearer`. */
  token: string;
  /** `{ Authorization: 'Bearer ...' }` for supertest's `.set()`. */
  auth: { Authorization: string };
}

let counter = 0;

/**
 * A verified ACTIVE user with the given roles, written straight through the database (no sign-up
 * or login endpoints), with a live refresh-session row and an access token `{ sub, sid }` signed
 * by the app's JwtService.
 */
export async function createUser(
  t: TestApp,
  roles: RoleName[] = [],
  overrides: { fullName?: string; bio?: string; avatar?: string } = {},
): Promise<TestUser> {
  const dataSource = t.app.get(DataSource);
  counter += 1;
  const tag = `${Date.now().toString(36)}${process.pid}${counter}`;
  const email = `user-${tag}@test.inkwell.test`;
  const fullName = overrides.fullName ?? `Test User ${tag}`;
  const [{ id, slug }] = (await dataSource.query(
    `INSERT INTO users (full_name, email, password_hash, status, is_verified, email_verified_at, bio, avatar)
     VALUES ($1, $2, '!', 'ACTIVE', true, now(), $3, $4) RETURNING id, slug`,
    [fullName, email, overrides.bio ?? null, overrides.avatar ?? null],
  )) as { id: number; slug: string }[];
  for (const role of roles) {
    await dataSource.query(`INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = $2`, [id, role]);
  }
  const sid = randomUUID();
  await dataSource.query(
    `INSERT INTO refresh_sessions (id, user_id, token_hash, family_id, expires_at) VALUES ($1, $2, $3, $1, now() + interval '1 day')`,
    [sid, id, randomUUID().replace(/-/g, '').padEnd(64, '0')],
  );
  const token = await t.app.get(JwtService, { strict: false }).signAsync({ sub: id, sid });
  return { id, email, fullName, slug, token, auth: { Authorization: `Bearer ${token}` } };
}

export const createAdmin = (t: TestApp) => createUser(t, [RoleName.ADMIN]);
export const createAuthor = (t: TestApp, overrides?: { fullName?: string; bio?: string }) => createUser(t, [RoleName.AUTHOR], overrides);
export const createReader = (t: TestApp) => createUser(t, [RoleName.USER]);
