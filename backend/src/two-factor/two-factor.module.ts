import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { PasswordHasherModule } from '../auth/password-hasher';
import { MailModule } from '../mail/mail.module';
import { AdminTwoFactorPolicyModule } from './admin-two-factor.policy';
import { TwoFactorChallenge } from './entities/two-factor-challenge.entity';
import { TwoFactorRecoveryCode } from './entities/two-factor-recovery-code.entity';
import { UserTwoFactor } from './entities/user-two-factor.entity';
import { TwoFactorController } from './two-factor.controller';
import { TwoFactorService } from './two-factor.service';

/**
 * Two-factor sign-in: the account's own set-up (/account/two-factor), the sign-in challenges that
 * auth's sign-in asks for, an administrator's reset, and the site's policy for administrators
 * (AdminTwoFactorPolicyModule, global: the session guard asks it on ADMIN routes).
 */
@Module({
  imports: [
    AdminTwoFactorPolicyModule,
    PasswordHasherModule,
    AuditModule,
    MailModule,
    TypeOrmModule.forFeature([UserTwoFactor, TwoFactorRecoveryCode, TwoFactorChallenge]),
  ],
  controllers: [TwoFactorController],
  providers: [TwoFactorService],
  exports: [TwoFactorService],
})
export class TwoFactorModule {}
