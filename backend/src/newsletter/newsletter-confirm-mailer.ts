import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { JobRun, JobsService } from '../jobs/jobs.service';
import { escapeHtml, layout, MailContent } from '../mail/mail.templates';
import { MailService } from '../mail/mail.service';
import type { FollowKind } from './entities/newsletter-follow.entity';
import { describeFollow, followTarget } from './newsletter-follows';
import { confirmTokenHash, NewsletterLinks, newConfirmToken } from './newsletter-links';

export const CONFIRM_QUEUE = 'newsletter-confirm-email';
/** A confirmation link lives this long. */
export const CONFIRM_TTL_HOURS = 48;

export interface ConfirmJob {
  subscriberId: number;
  kind: FollowKind;
  targetId: number;
}

const KIND_LETTER: Record<FollowKind, string> = { publication: 'p', author: 'a', tag: 't' };
const LETTER_KIND: Record<string, FollowKind> = { p: 'publication', a: 'author', t: 'tag' };

/**
 * A confirmation token names what it confirms: `<43 random base64url>.<p|a|t><target id>`. Its
 * SHA-256 (the whole token, the follow included, so that part cannot be changed) is what the
 * subscriber row keeps.
 */
export function parseConfirmToken(token: string): { kind: FollowKind; targetId: number; hash: string } | undefined {
  const match = /^[A-Za-z0-9_-]{43}\.([pat])(\d{1,10})$/.exec(token);
  if (!match || Number(match[2]) > 2_147_483_647) return undefined;
  return { kind: LETTER_KIND[match[1]], targetId: Number(match[2]), hash: confirmTokenHash(token) };
}

export function newsletterConfirmMail(name: string | null, what: string, link: string, hours: number): MailContent {
  const subject = 'Confirm your e-mail to get new posts';
  const hello = name ? `Hello ${name},` : 'Hello,';
  const text =
    `${hello}\n\n` +
    `Someone, probably you, asked to get ${what} from Inkwell at this address.\n\n` +
    `Open this link to confirm (it expires in ${hours} hours):\n\n${link}\n\n` +
    `If it was not you, ignore this e-mail: nothing will be sent without the confirmation.\n`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">${escapeHtml(hello)}</p>
<p style="margin:0 0 16px">Someone, probably you, asked to get ${escapeHtml(what)} from Inkwell at this address.</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">Confirm my subscription</a></p>
<p style="margin:0;font-size:13px;color:#52525b;word-break:break-all">The link expires in ${hours} hours. Or paste this address into your browser: ${escapeHtml(link)}</p>`,
    'If it was not you, ignore this e-mail: nothing will be sent without the confirmation.',
  );
  return { subject, text, html, gist: `link ${link}` };
}

/**
 * The double opt-in e-mail, through the job queue: the request enqueues it in its transaction;
 * the job makes the token (never stored in the queue; a retry makes a new one), stores its hash
 * and expiry on the subscriber row and sends the link.
 */
@Injectable()
export class NewsletterConfirmMailer implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly mail: MailService,
    private readonly links: NewsletterLinks,
  ) {}

  onModuleInit(): void {
    this.jobs.register<ConfirmJob>(CONFIRM_QUEUE, (job) => this.send(job));
  }

  enqueue(manager: EntityManager, job: ConfirmJob): Promise<void> {
    return this.jobs.enqueue(manager, CONFIRM_QUEUE, job).then(() => undefined);
  }

  private async send({ data, lastAttempt }: JobRun<ConfirmJob>): Promise<void> {
    const [row]: { email: string; name: string | null; suppressed: boolean }[] = await this.dataSource.query(
      `SELECT s.email, s.name, EXISTS (SELECT 1 FROM newsletter_suppressions x WHERE x.email = s.email) AS suppressed
         FROM newsletter_subscribers s WHERE s.id = $1`,
      [data.subscriberId],
    );
    if (!row || row.suppressed) return;
    let what: string;
    try {
      what = describeFollow(await followTarget(this.dataSource, data.kind, data.targetId));
    } catch {
      return; // the author or tag is gone meanwhile: nothing to confirm
    }
    const { token: random } = newConfirmToken();
    const token = `${random}.${KIND_LETTER[data.kind]}${data.targetId}`;
    await this.dataSource.query(
      `UPDATE newsletter_subscribers SET confirm_token_hash = $2, confirm_expires_at = now() + make_interval(hours => $3) WHERE id = $1`,
      [data.subscriberId, confirmTokenHash(token), CONFIRM_TTL_HOURS],
    );
    const sent = await this.mail.sendNewsletterConfirmation(
      row.email,
      newsletterConfirmMail(row.name, what, this.links.confirmUrl(token), CONFIRM_TTL_HOURS),
    );
    if (!sent && !lastAttempt) throw new Error('newsletter confirmation e-mail not sent; retrying');
  }
}
