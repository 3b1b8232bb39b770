import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the app sent, decoded enough to read its text. */
export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface MailCatcher {
  /** SMTP_URL for createTestApp({ env }). */
  url: string;
  messages: CapturedMail[];
  /** Waits for the first message to `to` (case-insensitive) after `since` messages. */
  waitFor(to: string, options?: { since?: number; timeoutMs?: number }): Promise<CapturedMail>;
  /** The messages sent to `to` so far. */
  to(address: string): CapturedMail[];
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeBody(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function decodeHeaderWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
    kind.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** Splits a MIME message into its leaf parts (headers + decoded body). */
function parts(headers: string, body: string): { headers: string; body: string }[] {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (!/content-type:\s*multipart\//i.test(headers) || !boundary) return [{ headers, body: decodeBody(headers, body) }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .flatMap((chunk) => {
      const trimmed = chunk.replace(/^\r?\n/, '');
      const split = trimmed.search(/\r?\n\r?\n/);
      if (split < 0) return [];
      const partHeaders = trimmed.slice(0, split);
      const partBody = trimmed
        .slice(split)
        .replace(/^\r?\n\r?\n/, '')
        .replace(/\r?\n$/, '');
      return parts(partHeaders, partBody);
    });
}

function parse(raw: string, to: string[]): CapturedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const leaves = parts(headers, body);
  const text = leaves.find((p) => /content-type:\s*text\/plain/i.test(p.headers))?.body ?? '';
  const html = leaves.find((p) => /content-type:\s*text\/html/i.test(p.headers))?.body ?? '';
  const subject = decodeHeaderWords(/^subject:\s*(.*)$/im.exec(headers)?.[1] ?? '');
  return { to, subject, text, html, raw };
}

/** An in-process SMTP server on a free loopback port that keeps every message it receives. */
export async function startMailCatcher(options: { refuse?: (to: string) => boolean | number } = {}): Promise<MailCatcher> {
  const messages: CapturedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A recipient the test wants refused gets a temporary failure (the sender retries it), or the SMTP code `refuse` answers.
    onRcptTo(address, _session, callback) {
      const refused = options.refuse?.(address.address.toLowerCase());
      if (refused) {
        const code = refused === true ? 451 : refused;
        const text = code >= 500 ? 'No such user here' : 'Mailbox busy, try again later';
        return callback(Object.assign(new Error(text), { responseCode: code }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        messages.push(parse(Buffer.concat(chunks).toString('utf8'), to));
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  const find = (to: string, since: number) => messages.slice(since).find((m) => m.to.includes(to.toLowerCase()));

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) => messages.filter((m) => m.to.includes(address.toLowerCase())),
    waitFor(to, { since = 0, timeoutMs = 10_000 } = {}) {
      const found = find(to, since);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const wake = () => {
          const message = find(to, since);
          if (!message) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(message);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no e-mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code of a verification e-mail. */
export function codeOf(mail: CapturedMail): string {
  const match = /verification code is:\s*(\d{6})/.exec(mail.text);
  if (!match) throw new Error(`no code in: ${mail.text}`);
  return match[1];
}

/** The token of a password reset e-mail's link. */
export function resetTokenOf(mail: CapturedMail): { link: string; token: string } {
  const match = /(https?:\/\/\S+\/reset-password\?token=([\w%-]+))/.exec(mail.text);
  if (!match) throw new Error(`no reset link in: ${mail.text}`);
  return { link: match[1], token: decodeURIComponent(match[2]) };
}
