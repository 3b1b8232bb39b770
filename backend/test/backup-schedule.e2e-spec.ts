import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackupService } from '../src/backup/backup.service';
import { RoleName } from '../src/users/roles';
import { createTestApp, TestApp } from './helpers/app';
import { api } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { MailCatcher, startMailCatcher } from './helpers/mail';
import { createUser, TestUser } from './helpers/users';

/**
 * Scheduled backups (docs/operations.md#scheduled-backups): a run on the lock holder writes an
 * archive, recorded for /admin/settings, keeping BACKUP_KEEP; a failed run is recorded and
 * e-mails every administrator (event backup.failed, after commit).
 */
describe('Scheduled backups', () => {
  let t: TestApp;
  let mail: MailCatcher;
  let admin: TestUser;
  let backupDir: string;

  beforeAll(async () => {
    mail = await startMailCatcher();
    backupDir = mkdtempSync(join(tmpdir(), 'inkwell-scheduled-'));
    t = await createTestApp({
      databaseUrl: await createFreshDatabase('inkwell_backup_schedule'),
      env: {
        SMTP_URL: mail.url,
        BACKUP_SCHEDULE: '0 3 * * *',
        BACKUP_PASSPHRASE: 'a passphrase of ours',
        BACKUP_DIR: backupDir,
        BACKUP_KEEP: '1',
      },
    });
    admin = await createUser(t, [RoleName.ADMIN]);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await mail.close();
    rmSync(backupDir, { recursive: true, force: true });
  });

  const status = async (user = admin) => (await t.http.get(api('/admin/backups/status')).set(user.auth).expect(200)).body.data;

  it('shows no backup yet, the schedule and its next run (site time zone)', async () => {
    const before = await status();
    expect(before).toEqual({ last: null, schedule: '0 3 * * *', nextRunAt: expect.any(String), keep: 1 });
    // 03:00 in Asia/Ho_Chi_Minh (UTC+7) is 20:00 UTC.
    expect(new Date(before.nextRunAt as string).getUTCHours()).toBe(20);
    const reader = await createUser(t, []);
    await t.http.get(api('/admin/backups/status')).set(reader.auth).expect(403);
    await t.http.get(api('/admin/backups/status')).expect(401);
  });

  it('a scheduled run writes an archive, keeps BACKUP_KEEP of them, and /admin/backups/status shows it', async () => {
    const service = t.app.get(BackupService);
    const first = await service.scheduled();
    const second = await service.scheduled();
    expect(first && second).toBeTruthy();
    expect(existsSync(first!.file)).toBe(false); // BACKUP_KEEP=1: the older one went
    expect(existsSync(second!.file)).toBe(true);
    const now = await status();
    expect(now.last).toEqual(
      expect.objectContaining({ trigger: 'schedule', ok: true, bytes: second!.bytes, file: second!.file.split('/').pop(), error: null }),
    );
  }, 30_000);

  it('a failed run is recorded and e-mails the administrators', async () => {
    // BACKUP_DIR becomes a file: the next run cannot write there.
    rmSync(backupDir, { recursive: true, force: true });
    writeFileSync(backupDir, 'not a folder');
    const since = mail.messages.length;
    expect(await t.app.get(BackupService).scheduled()).toBeUndefined();
    const message = await mail.waitFor(admin.email, { since });
    expect(message.subject).toBe('An Inkwell backup failed');
    expect(message.text).toMatch(/failed: .*(EEXIST|ENOTDIR)/);
    const now = await status();
    expect(now.last).toEqual(expect.objectContaining({ ok: false, file: null, error: expect.stringMatching(/EEXIST|ENOTDIR/) }));
    rmSync(backupDir, { force: true });
  }, 30_000);
});
