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

/** A recipient of an event with their choices for its type (null: the default). */
interface Recipient {
  user_id: number;
  post_id: number | null;
  in_app: boolean | null;
  email: boolean | null;
  digest: boolean | null;
  last_digest_at: Date | null;
}

/** One notification to write: a recipient of an event and how they are told. */
export interface PlannedNotification {
  /** Drawn by `prepare` (the rows are written later, with these ids). */
  id: number;
  /** Its delivery row's id when it is e-mailed now (its job, already enqueued, names it). */
  deliveryId: number | null;
  userId: number;
  type: NotificationType;
  actorId: number;
  postId: number | null;
  commentId: number | null;
  reason: string | null;
  /** POST_APPROVED of a scheduled post: when it will be published. */
  publishAt: Date | null;
  inApp: boolean;
  /** An e-mail of its own now (a delivery row and its job). */
  emailNow: boolean;
  /** Waits for the recipient's hourly digest. */
  digest: boolean;
  lastDigestAt: Date | null;
}

/** Who an event tells and what the entry points at, as SQL: `$1` the type, `$2` the actor, then the query's own. */
interface RecipientQuery {
  sql: string;
  params: unknown[];
  commentId: number | null;
  reason: string | null;
  publishAt?: Date | null;
}

const ACTIVE_ADMINS = `SELECT u.id AS user_id FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id WHERE r.name = 'ADMIN' AND u.status = 'ACTIVE'`;

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

  async record(manager: EntityManager, ...events: NotificationEvent[]): Promise<void> {
    await this.write(manager, await this.prepare(manager, ...events));
  }

  /**
   * Everything but the rows: who the events tell and by which channels (one query an event), the
   * rows' ids (drawn from their sequences), and the e-mail jobs (the caller's transaction: they
   * commit or roll back with the rows). A comment create prepares before it takes its thread's
   * locks and only `write()`s under them.
   */
  async prepare(manager: EntityManager, ...events: NotificationEvent[]): Promise<PlannedNotification[]> {
    const planned: Omit<PlannedNotification, 'id' | 'deliveryId'>[] = [];
    for (const event of events) {
      const type = event.type as NotificationType;
      const query = this.recipients(event);
      // The recipients (never the actor) with their preference and digest settings.
      const recipients: Recipient[] = await manager.query(
        `WITH r AS (${query.sql})
         SELECT DISTINCT ON (r.user_id) r.user_id, r.post_id, p.in_app, p.email, s.digest, s.last_digest_at
           FROM r
           LEFT JOIN notification_preferences p ON p.user_id = r.user_id AND p.type = $1
           LEFT JOIN notification_settings s ON s.user_id = r.user_id
          WHERE r.user_id IS NOT NULL AND r.user_id <> $2
          ORDER BY r.user_id`,
        [type, event.actorId, ...query.params],
      );
      for (const row of recipients) {
        const inApp = row.in_app ?? DEFAULT_CHANNELS[type].inApp;
        const email = row.email ?? DEFAULT_CHANNELS[type].email;
        if (!inApp && !email) continue;
        const digest = email && !!row.digest;
        planned.push({
          userId: row.user_id,
          type,
          actorId: event.actorId,
          postId: row.post_id,
          commentId: query.commentId,
          reason: query.reason,
          publishAt: query.publishAt ?? null,
          inApp,
          emailNow: email && !digest,
          digest,
          lastDigestAt: row.last_digest_at,
        });
      }
    }
    if (!planned.length) return [];
    // CASE draws a delivery id only for the rows e-mailed now.
    const ids: { id: number; delivery_id: number | null }[] = await manager.query(
      `SELECT nextval(pg_get_serial_sequence('notifications', 'id'))::int AS id,
              CASE WHEN email_now THEN nextval(pg_get_serial_sequence('notification_deliveries', 'id'))::int END AS delivery_id
         FROM unnest($1::bool[]) WITH ORDINALITY AS t(email_now, ord) ORDER BY ord`,
      [planned.map((n) => n.emailNow)],
    );
    const prepared = planned.map((n, index) => ({ ...n, id: ids[index].id, deliveryId: ids[index].delivery_id }));
    await this.jobs.enqueueMany(
      manager,
      EMAIL_QUEUE,
      prepared.flatMap((n) => (n.deliveryId === null ? [] : [{ deliveryId: n.deliveryId }])),
    );
    return prepared;
  }

  /** Writes prepared notifications: every row and the delivery row of each one e-mailed now in one statement, then the digest jobs. */
  async write(manager: EntityManager, prepared: PlannedNotification[]): Promise<void> {
    if (!prepared.length) return;
    const column = <K extends keyof PlannedNotification>(key: K) => prepared.map((n) => n[key]);
    const columns = 'id, user_id, type, actor_id, post_id, comment_id, reason, in_app, digest_pending, publish_at';
    await manager.query(
      `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::int[], $3::varchar[], $4::int[], $5::int[], $6::int[], $7::varchar[], $8::bool[], $9::bool[], $10::timestamptz[], $11::int[])
           AS t(${columns}, delivery_id)
       ), written AS (
         INSERT INTO notifications (${columns}) SELECT ${columns} FROM input
       )
       INSERT INTO notification_deliveries (id, user_id, notification_id) SELECT delivery_id, user_id, id FROM input WHERE delivery_id IS NOT NULL`,
      [
        column('id'),
        column('userId'),
        column('type'),
        column('actorId'),
        column('postId'),
        column('commentId'),
        column('reason'),
        column('inApp'),
        column('digest'),
        column('publishAt'),
        column('deliveryId'),
      ],
    );
    // Here, not in prepare(): a digest job is one per reader (singleton), so a second writer waits for the
    // first; taken under the event's locks, as every other writer of it does, the wait never closes a circle.
    for (const n of prepared) if (n.digest) await this.scheduleDigest(manager, n.userId, n.lastDigestAt);
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

  private recipients(event: NotificationEvent): RecipientQuery {
    switch (event.type) {
      case 'COMMENT_REPLY':
        // The author of the comment replied to (the reply may sit under another parent at level 3).
        return {
          sql: `SELECT user_id, post_id FROM comments WHERE id = $3`,
          params: [event.repliedToId],
          commentId: event.commentId,
          reason: null,
        };
      case 'POST_COMMENT':
        // The post's author, unless the comment answers their own comment (then they are told once, as a reply).
        return {
          sql: `SELECT p.author_id AS user_id, p.id AS post_id FROM posts p LEFT JOIN comments target ON target.id = $4
                 WHERE p.id = $3 AND p.author_id IS DISTINCT FROM target.user_id`,
          params: [event.postId, event.repliedToId ?? null],
          commentId: event.commentId,
          reason: null,
        };
      case 'POST_APPROVED':
        return {
          sql: `SELECT author_id AS user_id, id AS post_id FROM posts WHERE id = $3`,
          params: [event.postId],
          commentId: null,
          reason: null,
          publishAt: event.publishAt ?? null,
        };
      case 'POST_REJECTED':
        return {
          sql: `SELECT author_id AS user_id, id AS post_id FROM posts WHERE id = $3`,
          params: [event.postId],
          commentId: null,
          reason: event.reason,
        };
      case 'COMMENT_HIDDEN':
        return {
          sql: `SELECT user_id, post_id FROM comments WHERE id = $3`,
          params: [event.commentId],
          commentId: event.commentId,
          reason: event.reason,
        };
      case 'POST_SUBMITTED':
        return {
          sql: `SELECT a.user_id, $3::int AS post_id FROM (${ACTIVE_ADMINS}) a`,
          params: [event.postId],
          commentId: null,
          reason: null,
        };
      case 'COMMENT_REPORTED':
        return {
          sql: `SELECT a.user_id, (SELECT post_id FROM comments WHERE id = $3) AS post_id FROM (${ACTIVE_ADMINS}) a`,
          params: [event.commentId],
          commentId: event.commentId,
          reason: event.reason,
        };
    }
  }
}
