import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import { JobRun, JobsService } from '../jobs/jobs.service';
import { digestMail, MailContent, notificationMail } from '../mail/mail.templates';
import { MailService } from '../mail/mail.service';
import { NOTIFICATION_CLOCK, NotificationClock } from './notification-clock';
import {
  NotificationContext,
  notificationLink,
  notificationQuote,
  notificationSubject,
  notificationSummary,
  TYPE_LABELS,
} from './notification-text';
import { DEFAULT_CHANNELS, DeliveryStatus, NotificationType } from './notification.types';
import { DIGEST_INTERVAL_MS, DIGEST_QUEUE, EMAIL_QUEUE, NotificationsService } from './notifications.service';
import { unsubscribeToken, UnsubscribeScope } from './unsubscribe-token';
import { countedComment } from '../comments/visibility/counted-comment';

interface DeliveryRow {
  id: number;
  status: string;
  user_id: number;
  notification_id: number | null;
  notification_ids: number[];
  email: string;
  full_name: string;
  user_status: string;
  is_verified: boolean;
}

type ContextRow = NotificationContext & { id: number };

/**
 * The queue's notification workers. `notification-email` sends one delivery row (a notification
 * or a digest): the recipient's status and preferences are read again at send time (banned,
 * unverified or since unsubscribed: SKIPPED), a row already SENT is not sent again, and an SMTP
 * failure is recorded on the row and thrown so the queue retries it with backoff; after the last
 * try the row is FAILED with the reason. `notification-digest` gathers a user's pending
 * notifications into one delivery, at most once an hour.
 */
@Injectable()
export class NotificationMailer implements OnModuleInit {
  private readonly logger = new Logger('Notifications');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobsService,
    private readonly mail: MailService,
    private readonly notifications: NotificationsService,
    @Inject(NOTIFICATION_CLOCK) private readonly clock: NotificationClock,
  ) {}

  onModuleInit(): void {
    this.jobs.register<{ deliveryId: number }>(EMAIL_QUEUE, (job) => this.deliver(job));
    this.jobs.register<{ userId: number }>(DIGEST_QUEUE, (job) => this.digest(job.data.userId), 'short');
  }

  unsubscribeUrl(userId: number, scope: UnsubscribeScope): string {
    return `${this.config.publicUrl}/unsubscribe?token=${encodeURIComponent(unsubscribeToken(this.config.jwtSecret, userId, scope))}`;
  }

  async deliver(job: JobRun<{ deliveryId: number }>): Promise<void> {
    const [delivery]: DeliveryRow[] = await this.dataSource.query(
      `SELECT d.id, d.status, d.user_id, d.notification_id, d.notification_ids, u.email, u.full_name, u.status AS user_status, u.is_verified
         FROM notification_deliveries d JOIN users u ON u.id = d.user_id WHERE d.id = $1`,
      [job.data.deliveryId],
    );
    // Gone (the user or the notification was deleted) or already done: nothing to send again.
    if (!delivery || delivery.status !== DeliveryStatus.PENDING) return;
    if (delivery.user_status !== 'ACTIVE' || !delivery.is_verified) {
      return this.finish(
        delivery.id,
        DeliveryStatus.SKIPPED,
        delivery.user_status === 'BANNED' ? 'The account is banned' : 'The account is not active or not verified',
      );
    }
    const ids = delivery.notification_id ? [delivery.notification_id] : delivery.notification_ids;
    const items = await this.stillWanted(delivery.user_id, await this.contexts(ids));
    if (!items.length) return this.finish(delivery.id, DeliveryStatus.SKIPPED, 'Unsubscribed');
    const single = delivery.notification_id !== null;
    const scope: UnsubscribeScope = single ? (items[0].type as NotificationType) : 'ALL';
    const unsubscribeUrl = this.unsubscribeUrl(delivery.user_id, scope);
    const content: MailContent = single
      ? notificationMail(
          delivery.full_name,
          notificationSubject(items[0]),
          this.mailItem(items[0]),
          unsubscribeUrl,
          TYPE_LABELS[scope as NotificationType] ?? 'notifications',
        )
      : digestMail(
          delivery.full_name,
          items.map((item) => this.mailItem(item)),
          unsubscribeUrl,
        );
    const host = new URL(this.config.publicUrl).hostname;
    try {
      // Names the delivery and its notification: a copy sent twice is recognisably the same message.
      const messageId = `<delivery-${delivery.id}.notification-${delivery.notification_id ?? 'digest'}@${host}>`;
      await this.mail.sendNotification(delivery.email, content, unsubscribeUrl, messageId);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      await this.dataSource.query(
        `UPDATE notification_deliveries SET attempts = attempts + 1, last_error = $2, status = CASE WHEN $3 THEN 'FAILED' ELSE status END WHERE id = $1`,
        [delivery.id, reason, job.lastAttempt],
      );
      if (job.lastAttempt)
        this.logger.error({ deliveryId: delivery.id, err: error }, `Notification e-mail ${delivery.id} failed for good: ${reason}`);
      throw error;
    }
    await this.dataSource.query(
      `UPDATE notification_deliveries SET status = 'SENT', attempts = attempts + 1, sent_at = now(), last_error = NULL WHERE id = $1`,
      [delivery.id],
    );
  }

  /**
   * A user's digest: when the last one went out less than an hour ago (by the injectable clock),
   * waits for the rest of the hour (a new delayed job); otherwise moves every pending
   * notification into one delivery and queues its e-mail, all in one transaction.
   */
  async digest(userId: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO notification_settings (user_id) SELECT id FROM users WHERE id = $1 ON CONFLICT DO NOTHING`, [
        userId,
      ]);
      const [settings]: { last_digest_at: Date | null }[] = await manager.query(
        `SELECT last_digest_at FROM notification_settings WHERE user_id = $1 FOR UPDATE`,
        [userId],
      );
      if (!settings) return;
      const now = this.clock.now();
      if (settings.last_digest_at && now.getTime() - settings.last_digest_at.getTime() < DIGEST_INTERVAL_MS) {
        await this.notifications.scheduleDigest(manager, userId, settings.last_digest_at);
        return;
      }
      const pending: { id: number }[] = await manager.query(
        `SELECT id FROM notifications WHERE user_id = $1 AND digest_pending ORDER BY id FOR UPDATE`,
        [userId],
      );
      if (!pending.length) return;
      const ids = pending.map((row) => row.id);
      await manager.query(`UPDATE notifications SET digest_pending = false WHERE id = ANY($1::int[])`, [ids]);
      const [delivery]: { id: number }[] = await manager.query(
        `INSERT INTO notification_deliveries (user_id, notification_ids) VALUES ($1, $2) RETURNING id`,
        [userId, ids],
      );
      await manager.query(`UPDATE notification_settings SET last_digest_at = $2 WHERE user_id = $1`, [userId, now]);
      await this.jobs.enqueue(manager, EMAIL_QUEUE, { deliveryId: delivery.id });
    });
  }

  private async finish(id: number, status: DeliveryStatus, reason: string): Promise<void> {
    await this.dataSource.query(`UPDATE notification_deliveries SET status = $2, last_error = $3 WHERE id = $1`, [id, status, reason]);
  }

  private async contexts(ids: number[]): Promise<ContextRow[]> {
    // A comment hidden since the event (the hourly digest waits) is not quoted: its text leaves the server only in the moderation queue.
    return this.dataSource.query(
      `SELECT n.id, n.type, a.full_name AS "actorName", n.post_id AS "postId", p.title AS "postTitle", p.slug AS "postSlug",
              n.comment_id AS "commentId", c.content AS "commentContent", n.reason, n.publish_at AS "publishAt"
         FROM notifications n
         LEFT JOIN users a ON a.id = n.actor_id
         LEFT JOIN posts p ON p.id = n.post_id
         LEFT JOIN comments c ON c.id = n.comment_id AND ${countedComment('c')}
        WHERE n.id = ANY($1::int[]) ORDER BY n.id`,
      [ids],
    );
  }

  /** The items whose type the user still wants by e-mail (they may have unsubscribed since). */
  private async stillWanted(userId: number, items: ContextRow[]): Promise<ContextRow[]> {
    const prefs: { type: NotificationType; email: boolean }[] = await this.dataSource.query(
      `SELECT type, email FROM notification_preferences WHERE user_id = $1`,
      [userId],
    );
    const email = new Map(prefs.map((p) => [p.type, p.email]));
    return items.filter(
      (item) => email.get(item.type as NotificationType) ?? DEFAULT_CHANNELS[item.type as NotificationType]?.email ?? false,
    );
  }

  private mailItem(item: ContextRow) {
    return {
      summary: notificationSummary(item, this.config.siteTimeZone),
      quote: notificationQuote(item),
      link: `${this.config.publicUrl}${notificationLink(item)}`,
    };
  }
}
