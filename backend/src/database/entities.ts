import { Role } from '../users/entities/role.entity';
import { User } from '../users/entities/user.entity';
import { UserRole } from '../users/entities/user-role.entity';

/**
 * Every TypeORM entity of the app, listed once: the app, the migration generator and the tests
 * all load this list (no path globs, so compiled and transpiled code behave the same).
 */
export const ENTITIES: Function[] = [User, Role, UserRole];
