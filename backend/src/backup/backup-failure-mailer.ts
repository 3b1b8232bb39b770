import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import type { BackupFacts, DomainEvent } from '../events/domain-events';
import { DomainEvents } from '../events/domain-events.service';
import { escapeHtml } from '../mail/mail.templates';
import { MailService } from '../mail/mail.service';

/** The e-mail an administrator gets when a scheduled backup fails. */
export function backupFailedMail(fullName: string, facts: BackupFacts, link: string) {
  const subject = 'An Inkwell backup failed';
  const text =
    `Hello ${fullName},\n\n` +
    `The scheduled backup started at ${facts.startedAt} failed: ${facts.error}\n\n` +
    `Until a backup succeeds, the latest good one is older than planned. Check the disk and the server's log, or run "npm run backup" by hand. The last backup's result: ${link}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#18181b">
<p>Hello ${escapeHtml(fullName)},</p>
<p>The scheduled backup started at ${escapeHtml(facts.startedAt)} failed: <strong>${escapeHtml(facts.error)}</strong></p>
<p>Until a backup succeeds, the latest good one is older than planned. Check the disk and the server's log, or run <code>npm run backup</code> by hand.</p>
<p><a href="${escapeHtml(link)}">Open site settings</a></p>
<p style="color:#71717a;font-size:12px">You receive this because you administer this site.</p></body></html>`;
  return { subject, text, html, gist: `backup failed: ${facts.error}; ${link}` };
}

/** Subscribes to `backup.failed`: every active administrator is e-mailed (after the event is stored). */
@Injectable()
export class BackupFailureMailer implements OnModuleInit {
  private readonly logger = new Logger('BackupFailureMailer');

  constructor(
    private readonly events: DomainEvents,
    private readonly mail: MailService,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.events.onCommitted('backup.failed', (event) => this.tell(event));
  }

  private async tell(event: DomainEvent<'backup.failed'>): Promise<void> {
    const admins = (await this.dataSource.query(
      `SELECT u.email, u.full_name FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
        WHERE r.name = 'ADMIN' AND u.status = 'ACTIVE' ORDER BY u.id`,
    )) as { email: string; full_name: string }[];
    const host = new URL(this.config.publicUrl).hostname;
    for (const admin of admins) {
      const content = backupFailedMail(admin.full_name, event.data, `${this.config.publicUrl}/admin/settings`);
      await this.mail
        .sendSecurityAlert(admin.email, content, `<backup-failed-${event.data.backupId}-${admin.email}@${host}>`)
        .catch((error: unknown) => this.logger.error(`could not e-mail ${admin.email} about the failed backup: ${String(error)}`));
    }
  }
}
