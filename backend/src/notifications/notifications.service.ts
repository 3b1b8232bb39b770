import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { JobsService } from '../jobs/jobs.service';
import { DEFAULT_CHANNELS, NotificationEvent, NotificationType } from './notification.types';
import { NOTIFICATION_CLOCK, NotificationClock } from './notification-clock';

/** Queue names (pg-boss): one e-mail per delivery row; the per-user digest gathers pending rows. */
export const EMAIL_QUEUE = 'notification-email';
export const DIGEST_QUEUE = 'notification-digest';
/** At most one digest e-mail an hour per person. */
export const DIGEST_INTERVAL_MS = 60 * 60 * 1000;

/** What one event means: who is told, and what the entry points at. */
interface Resolved {
  recipients: number[];
  postId: number | null;
  commentId: number | null;
  reason: string | null;
}

interface RecipientSettings {
  user_id: number;
  in_app: boolean | null;
  email: boolean | null;
  digest: boolean | null;
  last_digest_at: Date | null;
}

/**
 * Writes notifications: `record()` runs inside the transaction of the event (the comment insert,
 * the review), so the in-app rows, the delivery rows and their e-mail jobs commit or roll back
 * with it: a crash never loses or duplicates one. The actor is never told about their own act.
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly jobs: JobsService,
    @Inject(NOTIFICATION_CLOCK) private readonly clock: NotificationClock,
  ) {}

  async record(manager: EntityManager, event: NotificationEvent): Promise<void> {
    const resolved = await this.resolve(manager, event);
    const recipients = [...new Set(resolved.recipients)].filter((id) => id !== event.actorId);
    if (!recipients.length) return;
    const type = event.type as NotificationType;
    const settings: RecipientSettings[] = await manager.query(
      `SELECT u.id AS user_id, p.in_app, p.email, s.digest, s.last_digest_at
         FROM users u
         LEFT JOIN notification_preferences p ON p.user_id = u.id AND p.type = $2
         LEFT JOIN notification_settings s ON s.user_id = u.id
        WHERE u.id = ANY($1::int[])
        ORDER BY u.id`,
      [recipients, type],
    );
    for (const row of settings) {
      const inApp = row.in_app ?? DEFAULT_CHANNELS[type].inApp;
      const email = row.email ?? DEFAULT_CHANNELS[type].email;
      if (!inApp && !email) continue;
      const digest = email && !!row.digest;
      const [{ id }]: { id: number }[] = await manager.query(
        `INSERT INTO notifications (user_id, type, actor_id, post_id, comment_id, reason, in_app, digest_pending)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [row.user_id, type, event.actorId, resolved.postId, resolved.commentId, resolved.reason, inApp, digest],
      );
      if (!email) continue;
      if (digest) {
        await this.scheduleDigest(manager, row.user_id, row.last_digest_at);
      } else {
        const [delivery]: { id: number }[] = await manager.query(`INSERT INTO notification_deliveries (user_id, notification_id) VALUES ($1, $2) RETURNING id`, [row.user_id, id]);
        await this.jobs.enqueue(manager, EMAIL_QUEUE, { deliveryId: delivery.id });
      }
    }
  }

  /**
   * One waiting digest job per user (the queue's 'short' policy drops a second one): it runs an
   * hour after the last digest, or now when there was none in the last hour.
   */
  async scheduleDigest(manager: EntityManager, userId: number, lastDigestAt: Date | null): Promise<void> {
    const due = lastDigestAt ? new Date(lastDigestAt.getTime() + DIGEST_INTERVAL_MS) : this.clock.now();
    const startAfter = due.getTime() > this.clock.now().getTime() ? due : undefined;
    await this.jobs.enqueue(manager, DIGEST_QUEUE, { userId }, { singletonKey: `digest:${userId}`, ...(startAfter ? { startAfter } : {}) });
  }

  private async resolve(manager: EntityManager, event: NotificationEvent): Promise<Resolved> {
    switch (event.type) {
      case 'COMMENT_REPLY': {
        const [row]: { recipient: number | null; post_id: number }[] = await manager.query(
          `SELECT target.user_id AS recipient, reply.post_id FROM comments reply JOIN comments target ON target.id = $2 WHERE reply.id = $1`,
          [event.commentId, event.repliedToId],
        );
        return { recipients: row?.recipient ? [row.recipient] : [], postId: row?.post_id ?? null, commentId: event.commentId, reason: null };
      }
      case 'POST_COMMENT': {
        // A reply to the post author's own comment tells them once, as a reply.
        const [row]: { recipient: number; post_id: number; replied_to_author: number | null }[] = await manager.query(
          `SELECT p.author_id AS recipient, c.post_id, target.user_id AS replied_to_author
             FROM comments c JOIN posts p ON p.id = c.post_id LEFT JOIN comments target ON target.id = $2
            WHERE c.id = $1`,
          [event.commentId, event.repliedToId ?? null],
        );
        const told = row && row.recipient !== row.replied_to_author;
        return { recipients: told ? [row.recipient] : [], postId: row?.post_id ?? null, commentId: event.commentId, reason: null };
      }
      case 'POST_APPROVED':
      case 'POST_REJECTED': {
        const [row]: { author_id: number }[] = await manager.query(`SELECT author_id FROM posts WHERE id = $1`, [event.postId]);
        return { recipients: row ? [row.author_id] : [], postId: event.postId, commentId: null, reason: event.type === 'POST_REJECTED' ? event.reason : null };
      }
      case 'COMMENT_HIDDEN': {
        const [row]: { user_id: number | null; post_id: number }[] = await manager.query(`SELECT user_id, post_id FROM comments WHERE id = $1`, [event.commentId]);
        return { recipients: row?.user_id ? [row.user_id] : [], postId: row?.post_id ?? null, commentId: event.commentId, reason: event.reason };
      }
      case 'POST_SUBMITTED':
        return { recipients: await this.activeAdmins(manager), postId: event.postId, commentId: null, reason: null };
      case 'COMMENT_REPORTED': {
        const [row]: { post_id: number }[] = await manager.query(`SELECT post_id FROM comments WHERE id = $1`, [event.commentId]);
        return { recipients: await this.activeAdmins(manager), postId: row?.post_id ?? null, commentId: event.commentId, reason: event.reason };
      }
    }
  }

  private async activeAdmins(manager: EntityManager): Promise<number[]> {
    const rows: { id: number }[] = await manager.query(
      `SELECT u.id FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
        WHERE r.name = 'ADMIN' AND u.status = 'ACTIVE' ORDER BY u.id`,
    );
    return rows.map((row) => row.id);
  }
}
