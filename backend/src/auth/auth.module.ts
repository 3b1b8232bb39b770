import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiTokensModule } from '../api-tokens/api-tokens.module';
import { APP_CONFIG, AppConfig } from '../config/env';
import { MailModule } from '../mail/mail.module';
import { SessionsModule } from '../sessions/sessions.module';
import { TwoFactorModule } from '../two-factor/two-factor.module';
import { UsersModule } from '../users/users.module';
import { AdminSeedService } from './admin-seed.service';
import { AttemptCounter } from './attempts/attempt-counter';
import { DatabaseAttemptCounter } from './attempts/database-attempt-counter';
import { AuthController } from './auth.controller';
import { ACCESS_TOKEN_TTL_SECONDS } from './auth-user';
import { AuthService } from './auth.service';
import { EmailVerificationCode } from './entities/email-verification-code.entity';
import { PasswordResetToken } from './entities/password-reset-token.entity';
import { JwtAuthGuard } from './guards/jwt-auth.guard';
import { JwtStrategy } from './guards/jwt.strategy';
import { PasswordController } from './password.controller';
import { PasswordHasherModule } from './password-hasher';

/**
 * Sign-up, sign-in, refresh, sign-out and passwords, and the session guard (`@Auth()`). Built on
 * sessions (a sign-in starts one; the guard reads it), two-factor (the sign-in's second step) and
 * API tokens (the guard admits them); those modules import none of this one.
 */
@Module({
  imports: [
    UsersModule,
    MailModule,
    PassportModule,
    PasswordHasherModule,
    SessionsModule,
    TwoFactorModule,
    ApiTokensModule,
    TypeOrmModule.forFeature([EmailVerificationCode, PasswordResetToken]),
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        secret: config.jwtSecret,
        signOptions: { algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL_SECONDS },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  controllers: [AuthController, PasswordController],
  providers: [JwtStrategy, JwtAuthGuard, { provide: AttemptCounter, useClass: DatabaseAttemptCounter }, AuthService, AdminSeedService],
  exports: [JwtModule, JwtAuthGuard, UsersModule, PasswordHasherModule, AuthService],
})
export class AuthModule {}
