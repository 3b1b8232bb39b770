import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SettingsModule } from '../settings/settings.module';
import { TwoFactorModule } from '../two-factor/two-factor.module';
import { AdminDashboardController } from './admin-dashboard.controller';
import { AdminSettingsController } from './admin-settings.controller';
import { AdminTwoFactorController } from './admin-two-factor.controller';
import { AdminStatsService } from './admin-stats.service';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersRepository } from './admin-users.repository';
import { AdminUsersService } from './admin-users.service';
import { UsersModule } from '../users/users.module';

/** The back-office's user administration, the admin dashboard's numbers and the site settings (all ADMIN only). */
@Module({
  imports: [UsersModule, AuthModule, SessionsModule, TwoFactorModule, MailModule, AuditModule, SettingsModule],
  controllers: [AdminUsersController, AdminDashboardController, AdminSettingsController, AdminTwoFactorController],
  providers: [AdminUsersService, AdminUsersRepository, AdminStatsService],
})
export class AdminModule {}
