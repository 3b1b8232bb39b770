import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { BackupFailureMailer } from './backup-failure-mailer';
import { BackupController } from './backup.controller';
import { BackupService } from './backup.service';

/**
 * Backups (docs/operations.md#backup): the schedule, the runs' state for /admin/settings, and the
 * e-mail to the administrators when a scheduled one fails. The archive itself is written and read
 * by backup-writer.ts and backup-restore.ts, shared with `npm run backup` and `npm run restore`.
 */
@Module({
  imports: [AuthModule, MailModule],
  controllers: [BackupController],
  providers: [BackupService, BackupFailureMailer],
  exports: [BackupService],
})
export class BackupModule {}
