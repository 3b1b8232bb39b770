import { ConflictException, Inject, Injectable, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RenderedEmail } from './newsletter-email/post-email';
import { NewsletterPostEmail } from './newsletter-post-email';
import { NewsletterSender } from './newsletter-sender';
import { NewsletterSendsMessages } from './newsletter-sends.messages';
import { NewsletterTransport } from './newsletter-transport';
import {
  DELIVERY_STATES,
  DeliveryState,
  NewsletterDeliveryPageDto,
  NewsletterSendDto,
  NewsletterSendCountsDto,
} from './dto/newsletter-sends.dto';

/**
 * The admin's side of a post's e-mail (docs/newsletter.md#sending): 'Publish without e-mail'
 * before publishing, the send's counts and rows, 'Retry failed', the preview and a test to oneself.
 */
@Injectable()
export class NewsletterSendsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly posts: NewsletterPostEmail,
    private readonly sender: NewsletterSender,
    private readonly transport: NewsletterTransport,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async status(postId: number): Promise<NewsletterSendDto> {
    await this.existing(postId);
    const [send]: { send_email: boolean; state: string; recipients: number; finished_at: Date | null }[] = await this.dataSource.query(
      `SELECT send_email, state, recipients, finished_at FROM newsletter_post_sends WHERE post_id = $1`,
      [postId],
    );
    const rows: { state: DeliveryState; count: string }[] = await this.dataSource.query(
      `SELECT state, count(*) AS count FROM newsletter_deliveries WHERE post_id = $1 GROUP BY state`,
      [postId],
    );
    const counts = Object.fromEntries(DELIVERY_STATES.map((state) => [state, 0])) as unknown as NewsletterSendCountsDto;
    for (const row of rows) if (row.state in counts) counts[row.state as keyof NewsletterSendCountsDto] = Number(row.count);
    return {
      postId,
      sendEmail: send?.send_email ?? true,
      state: send?.state ?? 'none',
      recipients: send?.recipients ?? 0,
      counts,
      finishedAt: send?.finished_at?.toISOString() ?? null,
    };
  }

  /** 'Publish without e-mail' (false) or back (true): only while the post has not been e-mailed. */
  async setSendEmail(postId: number, sendEmail: boolean): Promise<NewsletterSendDto> {
    await this.existing(postId);
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO newsletter_post_sends (post_id, send_email, state) VALUES ($1, $2, 'pending')
       ON CONFLICT (post_id) DO UPDATE SET send_email = $2 WHERE newsletter_post_sends.state = 'pending'
       RETURNING post_id`,
      [postId, sendEmail],
    );
    if (!rows.length) throw new ConflictException(NewsletterSendsMessages.SEND_ALREADY_STARTED);
    return this.status(postId);
  }

  async deliveries(postId: number, state: DeliveryState | undefined, page = 0, size = 20): Promise<NewsletterDeliveryPageDto> {
    await this.existing(postId);
    const [{ total }]: { total: string }[] = await this.dataSource.query(
      `SELECT count(*) AS total FROM newsletter_deliveries WHERE post_id = $1 AND ($2::text IS NULL OR state = $2)`,
      [postId, state ?? null],
    );
    const items: NewsletterDeliveryPageDto['items'] = await this.dataSource.query(
      `SELECT d.id::int AS id, d.subscriber_id AS "subscriberId", s.email, d.state, d.attempts, d.last_error AS "lastError",
              to_char(d.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "sentAt"
         FROM newsletter_deliveries d JOIN newsletter_subscribers s ON s.id = d.subscriber_id
        WHERE d.post_id = $1 AND ($2::text IS NULL OR d.state = $2)
        ORDER BY CASE d.state WHEN 'failed' THEN 0 WHEN 'bounced' THEN 1 ELSE 2 END, d.id
        LIMIT $3 OFFSET $4`,
      [postId, state ?? null, size, page * size],
    );
    return { items, total: Number(total), page, size };
  }

  /** 'Retry failed': the failed rows are queued again (attempts kept) with their send jobs, in one transaction. */
  async retryFailed(postId: number): Promise<number> {
    await this.existing(postId);
    return this.dataSource.transaction(async (manager) => {
      const [{ requeued }]: { requeued: number }[] = await manager.query(
        `WITH requeued AS (UPDATE newsletter_deliveries SET state = 'queued' WHERE post_id = $1 AND state = 'failed' RETURNING id)
         SELECT count(*)::int AS requeued FROM requeued`,
        [postId],
      );
      if (requeued) {
        await manager.query(`UPDATE newsletter_post_sends SET state = 'sending', finished_at = NULL WHERE post_id = $1`, [postId]);
        await this.sender.enqueueSends(manager, postId);
      }
      return requeued;
    });
  }

  /** The e-mail as subscribers will get it (the test footer in place of their own links). */
  async preview(postId: number): Promise<RenderedEmail> {
    const post = await this.posts.post(postId);
    if (!post) throw new NotFoundException(NewsletterSendsMessages.POST_NOT_FOUND);
    return this.posts.render(post, 'test');
  }

  /** 'Send a test to me': the e-mail to the caller's own address, now (not a delivery row). */
  async sendTest(postId: number, user: AuthUser): Promise<string> {
    const email = await this.preview(postId);
    try {
      await this.transport.send({
        to: user.email,
        email: { ...email, subject: `[Test] ${email.subject}` },
        messageId: `<newsletter-test-${postId}-${Date.now()}@${new URL(this.config.publicUrl).hostname}>`,
      });
    } catch {
      throw new ServiceUnavailableException(NewsletterSendsMessages.TEST_FAILED);
    }
    return user.email;
  }

  private async existing(postId: number): Promise<void> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM posts WHERE id = $1`, [postId]);
    if (!rows.length) throw new NotFoundException(NewsletterSendsMessages.POST_NOT_FOUND);
  }
}
