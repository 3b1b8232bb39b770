import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import { MailModule } from '../mail/mail.module';
import { UsersModule } from '../users/users.module';
import { AccountInvitations } from './account-invitations';
import { AdminSeedService } from './admin-seed.service';
import { AttemptCounter } from './attempts/attempt-counter';
import { DatabaseAttemptCounter } from './attempts/database-attempt-counter';
import { AccountSessionsController } from './account-sessions.controller';
import { AccountSessionsService } from './account-sessions.service';
import { AuthController } from './auth.controller';
import { ACCESS_TOKEN_TTL_SECONDS } from './auth-user';
import { AuthService } from './auth.service';
import { EmailVerificationCode } from './entities/email-verification-code.entity';
import { PasswordResetToken } from './entities/password-reset-token.entity';
import { KnownDevice } from './entities/known-device.entity';
import { RefreshSession } from './entities/refresh-session.entity';
import { SignInAlertSetting } from './entities/sign-in-alert-setting.entity';
import { ApiToken } from './entities/api-token.entity';
import { ApiTokensController } from './tokens/api-tokens.controller';
import { ApiTokensService } from './tokens/api-tokens.service';
import { JwtAuthGuard } from './guards/jwt-auth.guard';
import { JwtStrategy } from './guards/jwt.strategy';
import { NewDeviceAlerts } from './new-device-alerts';
import { PasswordController } from './password.controller';
import { PasswordHasher } from './password-hasher';
import { SessionsService } from './sessions.service';
import { UserSessionsSubscriber } from './user-sessions.subscriber';
import { TwoFactorChallenge } from './entities/two-factor-challenge.entity';
import { TwoFactorRecoveryCode } from './entities/two-factor-recovery-code.entity';
import { UserTwoFactor } from './entities/user-two-factor.entity';
import { AdminTwoFactorPolicyModule } from './two-factor/admin-two-factor.policy';
import { TwoFactorController } from './two-factor/two-factor.controller';
import { TwoFactorService } from './two-factor/two-factor.service';

@Module({
  imports: [
    UsersModule,
    MailModule,
    PassportModule,
    AdminTwoFactorPolicyModule,
    TypeOrmModule.forFeature([RefreshSession, EmailVerificationCode, PasswordResetToken, KnownDevice, SignInAlertSetting, ApiToken, UserTwoFactor, TwoFactorRecoveryCode, TwoFactorChallenge]),
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        secret: config.jwtSecret,
        signOptions: { algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL_SECONDS },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  controllers: [AuthController, PasswordController, AccountSessionsController, ApiTokensController, TwoFactorController],
  providers: [JwtStrategy, JwtAuthGuard, SessionsService, { provide: AttemptCounter, useClass: DatabaseAttemptCounter }, AuthService, AdminSeedService, PasswordHasher, UserSessionsSubscriber, NewDeviceAlerts, AccountSessionsService, ApiTokensService, TwoFactorService, AccountInvitations],
  exports: [JwtModule, JwtAuthGuard, UsersModule, SessionsService, PasswordHasher, ApiTokensService, TwoFactorService, AccountInvitations],
})
export class AuthModule {}
