import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { CreatedAdmin } from '../common/console-output';
import { APP_CONFIG, AppConfig } from '../config/env';
import { DomainEvents } from '../events/domain-events.service';
import { Role } from '../users/entities/role.entity';
import { RoleName } from '../users/roles';
import { User, UserStatus } from '../users/entities/user.entity';
import { UserRole } from '../users/entities/user-role.entity';
import { UserLifecycleService } from '../users/user-lifecycle.service';
import { UsersService } from '../users/users.service';
import { isUniqueViolation } from '../common/database-errors';
import { PasswordHasher } from './password-hasher';

export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

/**
 * First start: when no user holds ADMIN, creates ADMIN_EMAIL / ADMIN_PASSWORD (or
 * admin@example.com with a random password printed once), verified and ACTIVE. Idempotent; a
 * concurrent start loses on the unique e-mail and leaves the other's admin in place.
 */
@Injectable()
export class AdminSeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminSeed');
  /** The administrator this start created (for the terminal's start-up summary); unset otherwise. */
  createdAdmin?: CreatedAdmin;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly passwords: PasswordHasher,
    private readonly events: DomainEvents,
    private readonly users: UsersService,
    private readonly lifecycle: UserLifecycleService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.dataSource.isInitialized) return; // OpenAPI generation runs without a database
    await this.seed();
  }

  /** Answers the created admin's e-mail, or null when an admin exists already. */
  async seed(): Promise<string | null> {
    const email = this.config.adminEmail ?? DEFAULT_ADMIN_EMAIL;
    const generated = this.config.adminPassword === undefined;
    const password = this.config.adminPassword ?? randomBytes(12).toString('base64url');
    const passwordHash = await this.passwords.hash(password);
    let created: 'created' | 'promoted' | null;
    try {
      created = await this.events.transaction(async (tx) => {
        const { manager } = tx;
        const adminRole = await manager.getRepository(Role).findOneByOrFail({ name: RoleName.ADMIN });
        const hasAdmin = await manager.getRepository(UserRole).exists({ where: { roleId: adminRole.id } });
        if (hasAdmin) return null;
        const existing = await manager.getRepository(User).findOne({ where: { email } });
        if (existing) {
          // The configured address already has an account: make it the admin, keep its password.
          await this.lifecycle.makeFirstAdmin(tx, existing.id);
          return 'promoted';
        }
        await this.users.create(
          { fullName: 'Administrator', email, passwordHash, status: UserStatus.ACTIVE, verified: true, roles: [RoleName.ADMIN] },
          { via: 'first-admin' },
          tx,
        );
        return 'created';
      });
    } catch (error) {
      if (isUniqueViolation(error)) return null; // another process seeded at the same moment
      throw error;
    }
    if (created === 'promoted') {
      this.logger.log(`Existing account ${email} was made the first administrator`);
    } else if (created === 'created') {
      this.createdAdmin = { email, password: generated ? password : undefined };
      if (generated) process.stdout.write(`Admin account created: ${email} / ${password}\n`);
      else process.stdout.write(`Admin account created: ${email} (password from ADMIN_PASSWORD)\n`);
    }
    return created ? email : null;
  }
}
