import type { EntityManager } from 'typeorm';
import type { UserFacts } from '../events/domain-events';

/**
 * An account as its events name it (UserFacts), read in the caller's transaction; undefined when
 * there is none. A read only: owners of other account data (two-factor sign-in, API tokens) name
 * the account in their `user.*` events with it; the users table is written in users/ alone.
 */
export async function readUserFacts(manager: EntityManager, id: number): Promise<UserFacts | undefined> {
  const [row] = (await manager.query(
    `SELECT u.id AS "userId", u.email, u.full_name AS "fullName", u.status, u.is_verified AS verified,
            ARRAY(SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id ORDER BY ur.assigned_at, ur.role_id)::text[] AS roles
       FROM users u WHERE u.id = $1`,
    [id],
  )) as UserFacts[];
  return row;
}
