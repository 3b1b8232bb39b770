/** Texts of the 'Backups' card on /admin/settings (docs/operations.md#backup). */
export const BackupTexts = {
  TITLE: 'Backups',
  NONE: 'No backup has run yet. Run "npm run backup" on the server, or set BACKUP_SCHEDULE.',
  LAST: 'Last backup',
  OK: 'Succeeded',
  FAILED: 'Failed',
  RUNNING: 'Running or interrupted',
  SIZE: 'Size',
  FILE: 'File',
  ERROR: 'Error',
  BY_SCHEDULE: 'scheduled',
  BY_COMMAND: 'npm run backup',
  SCHEDULE: 'Schedule',
  NO_SCHEDULE: 'Not scheduled (BACKUP_SCHEDULE is not set)',
  NEXT: 'next',
  KEEP: (keep: number) => `keeps the newest ${keep}`,
  LOAD_FAILED: 'The backup status could not be loaded.',
} as const;

/** 1.2 MB, 840 KB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
