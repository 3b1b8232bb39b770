import { Global, Injectable, Module } from '@nestjs/common';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { IsNull, Not, Repository } from 'typeorm';
import { SettingsModule } from '../settings/settings.module';
import { SettingsService } from '../settings/settings.service';
import { UserTwoFactor } from './entities/user-two-factor.entity';
import { RoleName } from '../users/roles';

/**
 * The site setting 'Require 2FA for administrators': an administrator without two-factor sign-in
 * must set it up before any ADMIN route answers (the session guard asks this on those routes
 * only, so other requests pay nothing), and the sign-in answer and /admin pages send them to the
 * set-up.
 */
@Injectable()
export class AdminTwoFactorPolicy {
  constructor(
    private readonly settings: SettingsService,
    @InjectRepository(UserTwoFactor) private readonly factors: Repository<UserTwoFactor>,
  ) {}

  async requiresSetUp(userId: number, role: RoleName): Promise<boolean> {
    if (role !== RoleName.ADMIN) return false;
    if (!(await this.settings.get('requireAdminTwoFactor'))) return false;
    return !(await this.hasTwoFactor(userId));
  }

  /**
   * Whether an administrator may turn the requirement on: only with two-factor sign-in on
   * themself, or the switch would shut them out of every ADMIN route, the switch back included.
   */
  mayRequire(adminId: number): Promise<boolean> {
    return this.hasTwoFactor(adminId);
  }

  private hasTwoFactor(userId: number): Promise<boolean> {
    return this.factors.exists({ where: { userId, enabledAt: Not(IsNull()) } });
  }
}

/**
 * Global, because the session guard (`@Auth()`, used by modules that do not import AuthModule)
 * asks the policy on ADMIN routes and Nest resolves a guard's dependencies in the module that uses it.
 */
@Global()
@Module({
  imports: [SettingsModule, TypeOrmModule.forFeature([UserTwoFactor])],
  providers: [AdminTwoFactorPolicy],
  exports: [AdminTwoFactorPolicy],
})
export class AdminTwoFactorPolicyModule {}
