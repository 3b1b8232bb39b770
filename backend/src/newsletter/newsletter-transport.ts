import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { isTerminal, mailLine } from '../common/console-output';
import { APP_CONFIG, AppConfig } from '../config/env';
import type { RenderedEmail } from './newsletter-email/post-email';

/** SMTP connections the newsletter keeps open per instance (its sends run this many at once). */
export const NEWSLETTER_SMTP_CONNECTIONS = 4;

export interface NewsletterMessage {
  to: string;
  email: RenderedEmail;
  /** Names the delivery: a copy sent twice (a crash after the SMTP answer) is recognisably the same message. */
  messageId: string;
  /** The RFC 8058 headers; absent on an admin's test e-mail. */
  unsubscribe?: { url: string; mailto: string };
}

/** What an SMTP answer means for a delivery. */
export type SmtpOutcome = 'sent' | 'soft' | 'hard' | 'network';

/**
 * How a refused send is read: a 5xx answer is permanent (the address is bounced and suppressed),
 * a 4xx answer is temporary (a soft bounce: retried with backoff), anything without an SMTP code
 * (refused connection, timeout) is the network's fault, retried without counting against the address.
 */
export function smtpOutcome(error: unknown): Exclude<SmtpOutcome, 'sent'> {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  if (typeof code === 'number' && code >= 500 && code < 600) return 'hard';
  if (typeof code === 'number' && code >= 400 && code < 500) return 'soft';
  return 'network';
}

/** One line of what the SMTP server answered (the delivery's `last_error`). */
export function smtpError(error: unknown): string {
  const e = error as { responseCode?: number; response?: string; message?: string } | null;
  return (e?.response ?? e?.message ?? String(error)).slice(0, 1000);
}

/**
 * The newsletter's own SMTP transport: pooled (NEWSLETTER_SMTP_CONNECTIONS connections kept open,
 * each sending message after message) where the account e-mails open one connection per message:
 * 100,000 e-mails must not mean 100,000 TLS handshakes. Without SMTP_URL the e-mails are written
 * to the log (one line each in a terminal, with the unsubscribe link), as every Inkwell e-mail.
 * `send` throws what nodemailer throws (its `responseCode` read by `smtpOutcome`).
 */
@Injectable()
export class NewsletterTransport implements OnApplicationShutdown {
  private readonly logger = new Logger('Newsletter');
  private readonly transport: Transporter | undefined;
  private readonly printToTerminal: boolean;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    if (config.smtpUrl) {
      const url = new URL(config.smtpUrl);
      for (const [key, value] of [
        ['connectionTimeout', '10000'],
        ['greetingTimeout', '10000'],
        ['socketTimeout', '20000'],
        ['pool', 'true'],
        ['maxConnections', String(NEWSLETTER_SMTP_CONNECTIONS)],
        ['maxMessages', 'Infinity'],
      ])
        if (!url.searchParams.has(key)) url.searchParams.set(key, value);
      this.transport = createTransport(url.toString());
    }
    this.printToTerminal = !this.transport && isTerminal();
  }

  /** After the job queue's onModuleDestroy: the sends it let finish are done. */
  onApplicationShutdown(): void {
    this.transport?.close();
  }

  async send(message: NewsletterMessage): Promise<void> {
    const { email, to } = message;
    if (!this.transport) {
      const gist = message.unsubscribe ? `newsletter; unsubscribe ${message.unsubscribe.url}` : 'newsletter test';
      if (this.printToTerminal) process.stdout.write(`${mailLine(to, email.subject, gist)}\n`);
      else
        this.logger.log(
          { to, subject: email.subject, unsubscribeUrl: message.unsubscribe?.url },
          `E-mail (no SMTP_URL, logged only) to ${to}: ${email.subject}`,
        );
      return;
    }
    await this.transport.sendMail({
      from: this.config.mailFrom,
      to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: message.messageId,
      headers: message.unsubscribe
        ? {
            'List-Unsubscribe': `<${message.unsubscribe.url}>, <${message.unsubscribe.mailto}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          }
        : {},
    });
  }
}
