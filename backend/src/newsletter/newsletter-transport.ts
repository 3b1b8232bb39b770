import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { isTerminal, mailLine } from '../common/console-output';
import { APP_CONFIG, AppConfig } from '../config/env';
import { personalise, RECIPIENT_SLOTS, type RenderedEmail } from './newsletter-email/post-email';

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

/** One subscriber's values for a prepared message's slots. */
export interface RecipientValues {
  to: string;
  messageId: string;
  unsubscribe: { url: string; mailto: string };
  slots: { unsubscribe: string; preferences: string; reason: string };
}

/**
 * A post's message built once as MIME (RFC 5322, quoted-printable parts) with stand-ins where each
 * subscriber's values go. Building the MIME of a 20 KB e-mail costs nodemailer about 4 ms of CPU;
 * 100,000 of them were the send's main cost and slowed the pages served meanwhile. The stand-ins
 * are found once, when the message is prepared: `parts` is the text around them and `slots` what
 * goes between `parts[i]` and `parts[i + 1]`, so a copy is one concatenation (`fill`), with no
 * search through the 40 KB per e-mail.
 */
export interface PreparedMessage {
  parts: string[];
  slots: SlotName[];
}

type SlotKey = keyof typeof RECIPIENT_SLOTS;
type SlotName = 'to' | 'messageId' | 'url' | 'mailto' | 'date' | `text:${SlotKey}` | `html:${SlotKey}`;

const TO_SLOT = 'nlslot-to@nlslot.invalid';
const MESSAGE_ID_SLOT = '<nlslot-message-id@nlslot.invalid>';
const HEADER_SLOTS = { url: 'NLSLOTHEADERURL', mailto: 'NLSLOTHEADERMAILTO' } as const;
/** The text part's own stand-ins (the HTML part's are RECIPIENT_SLOTS): the two are filled differently (HTML-escaped or not). */
const textSlot = (slot: string) => `T${slot}`;

/** A stand-in in a quoted-printable body, which may have been cut by soft line breaks (`=\r\n`) anywhere. */
const slotPattern = (slot: string) => new RegExp(slot.split('').join('(?:=\\r\\n)?'), 'g');

/** A value as quoted-printable (UTF-8), set on lines of its own with soft breaks around it, so no line exceeds 76 characters. */
export function quotedPrintableInline(value: string): string {
  const tokens = [...Buffer.from(value, 'utf8')].map((byte) =>
    byte >= 33 && byte <= 126 && byte !== 61 ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`,
  );
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (line.length + token.length > 72) {
      lines.push(line);
      line = '';
    }
    line += token;
  }
  lines.push(line);
  return `=\r\n${lines.join('=\r\n')}=\r\n`;
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
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
  /** MAIL_FROM's bare address: the SMTP envelope's sender of a prepared message. */
  private readonly envelopeFrom: string;

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
    this.envelopeFrom = (/<([^<>\s]+@[^<>\s]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom).trim();
  }

  /** After the job queue's onModuleDestroy: the sends it let finish are done. */
  onApplicationShutdown(): void {
    this.transport?.close();
  }

  /**
   * The post's message as prepared MIME; undefined when the stand-ins cannot be found again in it
   * (then `sendPrepared` builds each copy the ordinary way). Without SMTP_URL: undefined too.
   */
  async prepare(email: RenderedEmail): Promise<PreparedMessage | undefined> {
    if (!this.transport) return undefined;
    let text = email.text;
    for (const slot of Object.values(RECIPIENT_SLOTS)) text = text.split(slot).join(textSlot(slot));
    const composer = new MailComposer({
      from: this.config.mailFrom,
      to: TO_SLOT,
      subject: email.subject,
      text,
      html: email.html,
      messageId: MESSAGE_ID_SLOT,
      textEncoding: 'quoted-printable',
      headers: {
        'List-Unsubscribe': `<${HEADER_SLOTS.url}>, <${HEADER_SLOTS.mailto}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    const raw = (
      await new Promise<Buffer>((resolve, reject) =>
        composer.compile().build((error, message) => (error ? reject(error) : resolve(message))),
      )
    ).toString('latin1');
    // Plain ASCII only (a copy is filled as latin1 text).
    if (/[^\t\r\n\x20-\x7e]/.test(raw)) return undefined;
    const split = raw.search(/\r\n\r\n/);
    const head = raw.slice(0, split);
    const body = raw.slice(split);
    const found: { at: number; length: number; slot: SlotName }[] = [];
    for (const [text, slot] of [
      [TO_SLOT, 'to'],
      [MESSAGE_ID_SLOT, 'messageId'],
      [HEADER_SLOTS.url, 'url'],
      [HEADER_SLOTS.mailto, 'mailto'],
    ] as const) {
      const at = head.indexOf(text);
      if (at === -1 || head.indexOf(text, at + 1) !== -1) return undefined;
      found.push({ at, length: text.length, slot });
    }
    const date = /^Date: (.*)$/m.exec(head);
    if (!date) return undefined;
    found.push({ at: date.index + 'Date: '.length, length: date[1].length, slot: 'date' });
    // One pass over the body; each text slot is tried before the HTML slot whose letters end it.
    const keys = Object.keys(RECIPIENT_SLOTS) as SlotKey[];
    const names: SlotName[] = [...keys.map((key) => `text:${key}` as const), ...keys.map((key) => `html:${key}` as const)];
    const pattern = new RegExp(
      [...keys.map((key) => textSlot(RECIPIENT_SLOTS[key])), ...keys.map((key) => RECIPIENT_SLOTS[key])]
        .map((slot) => `(${slotPattern(slot).source})`)
        .join('|'),
      'g',
    );
    const seen = new Set<SlotName>();
    for (const match of body.matchAll(pattern)) {
      const slot = names[match.slice(1).findIndex((group) => group !== undefined)];
      seen.add(slot);
      found.push({ at: split + match.index, length: match[0].length, slot });
    }
    // Every stand-in must be there (the HTML and text slots, the headers').
    if (seen.size !== names.length) return undefined;
    found.sort((a, b) => a.at - b.at);
    const parts: string[] = [];
    let from = 0;
    for (const { at, length } of found) {
      parts.push(raw.slice(from, at));
      from = at + length;
    }
    parts.push(raw.slice(from));
    return { parts, slots: found.map((one) => one.slot) };
  }

  /** One subscriber's copy of a prepared message: the parts with the subscriber's values between them. */
  static fill(prepared: PreparedMessage, values: RecipientValues): Buffer {
    const text = (key: SlotKey) => quotedPrintableInline(values.slots[key]);
    const html = (key: SlotKey) => quotedPrintableInline(escapeHtml(values.slots[key]));
    const value: Record<SlotName, string> = {
      to: values.to,
      messageId: values.messageId,
      url: values.unsubscribe.url,
      mailto: values.unsubscribe.mailto,
      date: new Date().toUTCString(),
      'text:unsubscribe': text('unsubscribe'),
      'text:preferences': text('preferences'),
      'text:reason': text('reason'),
      'html:unsubscribe': html('unsubscribe'),
      'html:preferences': html('preferences'),
      'html:reason': html('reason'),
    };
    let out = prepared.parts[0];
    for (let i = 0; i < prepared.slots.length; i++) out += value[prepared.slots[i]] + prepared.parts[i + 1];
    return Buffer.from(out, 'latin1');
  }

  /** One subscriber's copy of a prepared message (the ordinary way when it could not be prepared, or for an address that is not ASCII). */
  async sendPrepared(prepared: PreparedMessage | undefined, email: RenderedEmail, values: RecipientValues): Promise<void> {
    if (!prepared || !this.transport || !/^[\x21-\x7e]+$/.test(values.to)) {
      return this.send({
        to: values.to,
        email: personalise(email, values.slots),
        messageId: values.messageId,
        unsubscribe: values.unsubscribe,
      });
    }
    await this.transport.sendMail({
      envelope: { from: this.envelopeFrom, to: [values.to] },
      raw: NewsletterTransport.fill(prepared, values),
    });
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
