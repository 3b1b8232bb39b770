import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { canonicalEmail } from '../../../isomorphic/text';
import { APP_CONFIG, AppConfig } from '../config/env';
import { softBounce, suppress } from './bounces';
import { BounceEventDto, BounceResultDto } from './dto/bounces.dto';
import { NewsletterSendsMessages } from './newsletter-sends.messages';

/** The bounce endpoint's signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>` (as Inkwell's own webhooks sign). */
export const BOUNCE_SIGNATURE_HEADER = 'x-inkwell-signature';
/** A signature older (or further ahead) than this is refused: a captured report cannot be replayed later. */
export const BOUNCE_SIGNATURE_TOLERANCE_SECONDS = 300;

/** `t=…,v1=…` for a body (the relay's side; the tests sign with it too). */
export function signBounceReport(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

/**
 * The bounce and complaint endpoint's rules (docs/newsletter.md#the-bounce-and-complaint-endpoint):
 * the signature is checked against the raw body before anything is read (no secret configured,
 * a missing, wrong or stale signature: 401, nothing changed); then, in one transaction, a hard
 * bounce or a complaint suppresses the address, a soft bounce counts towards
 * NEWSLETTER_SOFT_BOUNCE_LIMIT.
 */
@Injectable()
export class BouncesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  verify(rawBody: Buffer | undefined, header: string | undefined, now = Date.now()): void {
    const secret = this.config.newsletter.webhookSecret;
    const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header?.trim() ?? '');
    if (!secret || !rawBody || !match) throw new UnauthorizedException(NewsletterSendsMessages.SIGNATURE_INVALID);
    const timestamp = Number(match[1]);
    if (Math.abs(now / 1000 - timestamp) > BOUNCE_SIGNATURE_TOLERANCE_SECONDS)
      throw new UnauthorizedException(NewsletterSendsMessages.SIGNATURE_INVALID);
    const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
    const given = Buffer.from(match[2], 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new UnauthorizedException(NewsletterSendsMessages.SIGNATURE_INVALID);
  }

  async record(events: BounceEventDto[]): Promise<BounceResultDto> {
    const result: BounceResultDto = { received: events.length, suppressed: 0, softBouncesCounted: 0, unknown: 0 };
    await this.dataSource.transaction(async (manager) => {
      const query = (sql: string, params: unknown[]) => manager.query(sql, params) as Promise<unknown[]>;
      for (const event of events) {
        const email = canonicalEmail(event.email);
        const detail = event.detail ?? null;
        const known = ((await query(`SELECT 1 FROM newsletter_subscribers WHERE email = $1`, [email])) as unknown[]).length > 0;
        if (!known) result.unknown++;
        if (event.type === 'soft_bounce') {
          const outcome = await softBounce(query, email, this.config.newsletter.softBounceLimit, detail);
          if (outcome === 'suppressed') result.suppressed++;
          if (outcome === 'counted') result.softBouncesCounted++;
        } else if (await suppress(query, email, event.type, detail)) result.suppressed++;
      }
    });
    return result;
  }
}
