import { ApiProperty } from '@nestjs/swagger';

/** One backup run (scheduled or `npm run backup`). */
export class BackupRunDto {
  @ApiProperty({ description: 'When it started (ISO 8601)' })
  startedAt: string;

  @ApiProperty({ type: String, nullable: true, description: 'When it ended; null while it runs (or when its process died)' })
  finishedAt: string | null;

  @ApiProperty({ enum: ['schedule', 'command'], description: "'schedule': BACKUP_SCHEDULE; 'command': npm run backup" })
  trigger: 'schedule' | 'command';

  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'true: the archive is complete; false: it failed (see error); null: not finished',
  })
  ok: boolean | null;

  @ApiProperty({ type: String, nullable: true, description: "The archive's file name (in BACKUP_DIR)" })
  file: string | null;

  @ApiProperty({ type: Number, nullable: true, description: "The archive's size in bytes" })
  bytes: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why it failed' })
  error: string | null;
}

/** GET /admin/backups/status: the last backup and the schedule. */
export class BackupStatusDto {
  @ApiProperty({ type: BackupRunDto, nullable: true, description: 'The latest backup run; null when none ran yet' })
  last: BackupRunDto | null;

  @ApiProperty({ type: String, nullable: true, description: 'BACKUP_SCHEDULE (cron, in the site time zone); null: no scheduled backups' })
  schedule: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'When the schedule runs next (ISO 8601)' })
  nextRunAt: string | null;

  @ApiProperty({ description: 'BACKUP_KEEP: scheduled archives kept' })
  keep: number;
}
