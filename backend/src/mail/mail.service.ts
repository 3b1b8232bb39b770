import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { isTerminal, mailLine } from '../common/console-output';
import { APP_CONFIG, AppConfig } from '../config/env';
import {
  dataExportReadyMail,
  generatedPasswordMail,
  importInvitationMail,
  MailContent,
  passwordResetMail,
  twoFactorResetMail,
  verificationCodeMail,
  webhookDisabledMail,
} from './mail.templates';

/** A stuck SMTP server must not hold a sign-up for minutes (nodemailer reads these from the query). */
function withTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [key, value] of [
    ['connectionTimeout', '10000'],
    ['greetingTimeout', '10000'],
    ['socketTimeout', '20000'],
  ]) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  }
  return url.toString();
}

/** What a notification e-mail's terminal line shows: its gist (the link to open), then its unsubscribe link. */
export function notificationGist(content: MailContent, unsubscribeUrl: string): string {
  return `${content.gist}; unsubscribe ${unsubscribeUrl}`;
}

/**
 * Sends the account e-mails over SMTP_URL; without it, writes them (to, subject, text) to the app
 * log, or, when stdout is a terminal, as one readable line (to, subject, the code or link).
 * Sending never throws: it answers whether the message went out and logs a failure.
 */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter | undefined;
  /** No SMTP and a person at the terminal: mails are printed as one line each instead of a JSON log line. */
  private readonly printToTerminal: boolean;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.transport = config.smtpUrl ? createTransport(withTimeouts(config.smtpUrl)) : undefined;
    this.printToTerminal = !this.transport && isTerminal();
  }

  /** After every onModuleDestroy: the job queue stops (and lets a running send finish) first. */
  onApplicationShutdown(): void {
    this.transport?.close();
  }

  sendVerificationCode(to: string, fullName: string, code: string, minutes: number): Promise<boolean> {
    return this.send(to, verificationCodeMail(fullName, code, minutes));
  }

  sendPasswordReset(to: string, fullName: string, link: string, minutes: number): Promise<boolean> {
    return this.send(to, passwordResetMail(fullName, link, minutes));
  }

  /** The data export is ready (`link` is site-relative; `expiresAt` as the site shows times). */
  sendDataExportReady(to: string, fullName: string, link: string, expiresAt: string): Promise<boolean> {
    return this.send(to, dataExportReadyMail(fullName, `${this.config.publicUrl}${link}`, expiresAt));
  }

  /**
   * The password an administrator generated, with a sign-in link. Without SMTP_URL it is not
   * written to the log (a password must not sit in log files): answers false, the admin who
   * generated it has it on screen.
   */
  async sendGeneratedPassword(to: string, fullName: string, password: string): Promise<boolean> {
    const content = generatedPasswordMail(fullName, password, `${this.config.publicUrl}/login`);
    if (!this.transport) {
      if (this.printToTerminal)
        process.stdout.write(`${mailLine(to, content.subject, 'not sent (no SMTP_URL) and not shown: it holds a password')}\n`);
      else this.logger.log({ to, subject: content.subject }, `E-mail to ${to} not sent (no SMTP_URL) and not logged: it holds a password`);
      return false;
    }
    return this.send(to, content);
  }

  /** Two-factor sign-in was reset by an administrator (sent by the job queue: false means try again). */
  sendTwoFactorReset(to: string, fullName: string): Promise<boolean> {
    return this.send(to, twoFactorResetMail(fullName, `${this.config.publicUrl}/account`));
  }

  /** Webhooks: the admin of a webhook turned off after failing for its whole window. */
  sendWebhookDisabled(to: string, fullName: string, url: string, reason: string, link: string): Promise<boolean> {
    return this.send(to, webhookDisabledMail(fullName, url, reason, link));
  }

  /** An author account an import created is invited to choose its password (sent by the job queue: false means try again). */
  sendImportInvitation(to: string, fullName: string, invitedBy: string, link: string, days: number): Promise<boolean> {
    return this.send(to, importInvitationMail(fullName, invitedBy, link, days, this.config.publicUrl));
  }

  /** The newsletter's double opt-in link (sent by the job queue: false means try again). */
  sendNewsletterConfirmation(to: string, content: MailContent): Promise<boolean> {
    return this.send(to, content);
  }

  /**
   * A notification e-mail (sent by the job queue): with the RFC 8058 one-click unsubscribe
   * headers and a Message-ID of the delivery's own, so a copy sent twice (an instance died between
   * the SMTP answer and recording it) is recognisably the same message. Throws when the SMTP
   * server refuses or cannot be reached: the job is retried. Without SMTP_URL the printed line (or
   * the log entry) carries the unsubscribe link beside the main one, so the one-click unsubscribe
   * can be tried on a local set-up.
   */
  async sendNotification(to: string, content: MailContent, unsubscribeUrl: string, messageId: string): Promise<void> {
    if (!this.transport) {
      if (this.printToTerminal) process.stdout.write(`${mailLine(to, content.subject, notificationGist(content, unsubscribeUrl))}\n`);
      else
        this.logger.log(
          { to, subject: content.subject, text: content.text, unsubscribeUrl },
          `E-mail (no SMTP_URL, logged only) to ${to}: ${content.subject}`,
        );
      return;
    }
    await this.transport.sendMail({
      from: this.config.mailFrom,
      to,
      subject: content.subject,
      text: content.text,
      html: content.html,
      messageId,
      headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
  }

  /**
   * A security alert sent by the job queue (the new-device e-mail): throws when the SMTP server
   * refuses or cannot be reached, so the job is retried; the Message-ID names the cause, so a
   * copy sent twice is recognisably the same message. Without SMTP_URL it is logged or printed.
   */
  async sendSecurityAlert(to: string, content: MailContent, messageId: string): Promise<void> {
    if (!this.transport) {
      if (this.printToTerminal) process.stdout.write(`${mailLine(to, content.subject, content.gist)}\n`);
      else
        this.logger.log(
          { to, subject: content.subject, text: content.text },
          `E-mail (no SMTP_URL, logged only) to ${to}: ${content.subject}`,
        );
      return;
    }
    await this.transport.sendMail({
      from: this.config.mailFrom,
      to,
      subject: content.subject,
      text: content.text,
      html: content.html,
      messageId,
    });
  }

  private async send(to: string, content: MailContent): Promise<boolean> {
    if (!this.transport) {
      if (this.printToTerminal) process.stdout.write(`${mailLine(to, content.subject, content.gist)}\n`);
      else
        this.logger.log(
          { to, subject: content.subject, text: content.text },
          `E-mail (no SMTP_URL, logged only) to ${to}: ${content.subject}`,
        );
      return true;
    }
    try {
      await this.transport.sendMail({ from: this.config.mailFrom, to, subject: content.subject, text: content.text, html: content.html });
      return true;
    } catch (error) {
      this.logger.error(
        { to, subject: content.subject, err: error },
        `E-mail to ${to} could not be sent: ${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    }
  }
}
