import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { basename } from 'node:path';
import { AdminMessages } from '../admin/admin.messages';
import { Auth } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RoleName } from '../users/roles';
import { BackupService } from './backup.service';
import { BackupStatusDto } from './dto/backup-status.dto';

/** The backups' state for /admin/settings (beyond the spec): the last run's time, size and result. */
@ApiTags('Admin backups')
@Controller('admin/backups')
export class BackupController {
  constructor(
    private readonly backups: BackupService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('status')
  @Auth({ role: RoleName.ADMIN, forbidden: AdminMessages.SETTINGS_FORBIDDEN, unauthenticated: AdminMessages.SETTINGS_AUTH_REQUIRED })
  @ApiOperation({ summary: 'The last backup (time, size, result) and the backup schedule (admin)' })
  @ApiEnvelope(BackupStatusDto)
  async backupStatus(): Promise<BackupStatusDto> {
    const last = await this.backups.lastRun();
    return {
      last: last && {
        startedAt: new Date(last.startedAt).toISOString(),
        finishedAt: last.finishedAt && new Date(last.finishedAt).toISOString(),
        trigger: last.trigger,
        ok: last.ok,
        file: last.file && basename(last.file),
        bytes: last.bytes,
        error: last.error,
      },
      schedule: this.config.backup.schedule ?? null,
      nextRunAt: this.backups.nextRunAt()?.toISOString() ?? null,
      keep: this.config.backup.keep,
    };
  }
}
