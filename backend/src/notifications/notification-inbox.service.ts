import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthUser, CallerRead } from '../auth/auth-user';
import { Page, toPage } from '../common/pagination/page';
import { APP_CONFIG, AppConfig } from '../config/env';
import { preparedQuery } from '../database/prepared-query';
import { NotificationDto, NotificationPreferencesDto, UnsubscribeDto, UpdateNotificationPreferencesDto } from './dto/notification.dto';
import { notificationLink, TYPE_LABELS } from './notification-text';
import { DEFAULT_CHANNELS, NotificationType, TYPES_FOR_ROLE } from './notification.types';
import { NotificationsMessages } from './notifications.messages';
import { verifyUnsubscribeToken } from './unsubscribe-token';

interface ListRow {
  id: number;
  type: NotificationType;
  read: boolean;
  created_at: Date;
  comment_id: number | null;
  reason: string | null;
  publish_at: Date | null;
  post_id: number | null;
  post_slug: string | null;
  post_title: string | null;
  actor_id: number | null;
  actor_name: string | null;
  actor_avatar: string | null;
}

/**
 * The bell's count as an expression over the caller's row `users u`: their counter row
 * (notification_counters, kept by triggers), so no row is counted. GET /notifications/unread-count
 * reads it in the session's own query (`@Auth({ alongside })`): one round trip.
 */
export const UNREAD_COUNT: CallerRead = {
  key: 'unreadNotifications',
  sql: `COALESCE((SELECT c.unread FROM notification_counters c WHERE c.user_id = u.id), 0)`,
};

function fieldError(field: string, message: string): BadRequestException {
  return new BadRequestException({ message, errors: { [field]: [message] } });
}

/** The reading side: a user's list, unread count, marking read, preferences, and unsubscribe links. */
@Injectable()
export class NotificationInboxService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Unread first, then newest (one scan of IDX_notifications_user_list), with the total from the
   * user's counter row (notification_counters, kept by triggers) in the same query: one round
   * trip, and no count of every row. The page's rows join the one-row total, so a page past the
   * end still brings the total (its row's notification columns are null).
   */
  async list(user: AuthUser, page: number, size: number): Promise<Page<NotificationDto>> {
    // Prepared: its planning cost more of the database's CPU than running it.
    const found = await preparedQuery<ListRow & { total: number }>(
      this.dataSource,
      'inkwell_notification_page',
      `SELECT t.total, n.*
         FROM (SELECT COALESCE((SELECT listed FROM notification_counters WHERE user_id = $1), 0) AS total) t
         LEFT JOIN LATERAL (
           SELECT n.id, n.type, n.read, n.created_at, n.comment_id, n.reason, n.publish_at, n.post_id, p.slug AS post_slug, p.title AS post_title,
                  a.id AS actor_id, a.full_name AS actor_name, a.avatar AS actor_avatar
             FROM notifications n
             LEFT JOIN users a ON a.id = n.actor_id
             LEFT JOIN posts p ON p.id = n.post_id
            WHERE n.user_id = $1 AND n.in_app
            ORDER BY n.read, n.created_at DESC, n.id DESC
            LIMIT $2 OFFSET $3) n ON true
        ORDER BY n.read, n.created_at DESC, n.id DESC`,
      [user.id, size, page * size],
    );
    const total = found[0].total;
    const rows = found.filter((row) => row.id !== null);
    return toPage(
      rows.map((row) => ({
        id: row.id,
        type: row.type,
        read: row.read,
        createdAt: row.created_at.toISOString(),
        actor: row.actor_id !== null ? { id: row.actor_id, fullName: row.actor_name ?? '', avatar: row.actor_avatar } : null,
        post: row.post_id !== null && row.post_slug !== null ? { id: row.post_id, slug: row.post_slug, title: row.post_title ?? '' } : null,
        commentId: row.comment_id,
        reason: row.reason,
        publishAt: row.publish_at ? row.publish_at.toISOString() : null,
        link: notificationLink({
          type: row.type,
          postId: row.post_id,
          postSlug: row.post_slug,
          commentId: row.comment_id,
          publishAt: row.publish_at,
        }),
      })),
      total,
      page,
      size,
    );
  }

  /** The bell (UNREAD_COUNT): the user's counter row, not a count of the rows. */
  async unreadCount(user: AuthUser): Promise<number> {
    const rows: { count: number }[] = await this.dataSource.query(`SELECT ${UNREAD_COUNT.sql} AS count FROM users u WHERE u.id = $1`, [
      user.id,
    ]);
    return rows[0]?.count ?? 0;
  }

  /** Marks one of the caller's notifications read (already read: nothing changes); another's is 404. */
  async markRead(user: AuthUser, id: number): Promise<void> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM notifications WHERE id = $1 AND user_id = $2 AND in_app`, [
      id,
      user.id,
    ]);
    if (!rows.length) throw new NotFoundException(NotificationsMessages.NOT_FOUND);
    await this.dataSource.query(`UPDATE notifications SET read = true WHERE id = $1 AND user_id = $2 AND NOT read`, [id, user.id]);
  }

  async markAllRead(user: AuthUser): Promise<number> {
    const [, updated]: [unknown, number] = await this.dataSource.query(
      `UPDATE notifications SET read = true WHERE user_id = $1 AND in_app AND NOT read`,
      [user.id],
    );
    return updated;
  }

  async preferences(user: AuthUser): Promise<NotificationPreferencesDto> {
    const [prefs, settings]: [{ type: NotificationType; in_app: boolean; email: boolean }[], { digest: boolean }[]] = await Promise.all([
      this.dataSource.query(`SELECT type, in_app, email FROM notification_preferences WHERE user_id = $1`, [user.id]),
      this.dataSource.query(`SELECT digest FROM notification_settings WHERE user_id = $1`, [user.id]),
    ]);
    const chosen = new Map(prefs.map((p) => [p.type, p]));
    return {
      digest: settings[0]?.digest ?? false,
      events: TYPES_FOR_ROLE[user.role].map((type) => {
        const row = chosen.get(type);
        return { type, inApp: row?.in_app ?? DEFAULT_CHANNELS[type].inApp, email: row?.email ?? DEFAULT_CHANNELS[type].email };
      }),
    };
  }

  /** Saves the listed types (each must apply to the caller's role) and the digest switch, in one transaction. */
  async updatePreferences(user: AuthUser, dto: UpdateNotificationPreferencesDto): Promise<NotificationPreferencesDto> {
    const allowed: readonly NotificationType[] = TYPES_FOR_ROLE[user.role];
    for (const event of dto.events ?? []) {
      if (!allowed.includes(event.type)) throw fieldError('events', `${NotificationsMessages.TYPE_NOT_FOR_ROLE}: ${event.type}`);
    }
    await this.dataSource.transaction(async (manager) => {
      for (const event of dto.events ?? []) {
        await manager.query(
          `INSERT INTO notification_preferences (user_id, type, in_app, email) VALUES ($1, $2, $3, $4)
           ON CONFLICT (user_id, type) DO UPDATE SET in_app = EXCLUDED.in_app, email = EXCLUDED.email`,
          [user.id, event.type, event.inApp, event.email],
        );
      }
      if (typeof dto.digest === 'boolean') {
        await manager.query(
          `INSERT INTO notification_settings (user_id, digest) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET digest = EXCLUDED.digest`,
          [user.id, dto.digest],
        );
      }
    });
    return this.preferences(user);
  }

  /** What a link stops, and whether it is stopped already (GET: changes nothing; mail scanners prefetch links). */
  async unsubscribePreview(token: string): Promise<UnsubscribeDto> {
    const claim = await this.claim(token);
    const types = claim.scope === 'ALL' ? [...TYPES_FOR_ROLE.ADMIN] : [claim.scope];
    const prefs: { type: NotificationType; email: boolean }[] = await this.dataSource.query(
      `SELECT type, email FROM notification_preferences WHERE user_id = $1`,
      [claim.userId],
    );
    const email = new Map(prefs.map((p) => [p.type, p.email]));
    const unsubscribed = types.every((type) => !(email.get(type) ?? DEFAULT_CHANNELS[type].email));
    return { scope: claim.scope, description: this.describe(claim.scope), unsubscribed };
  }

  /** Switches the e-mails off (the in-app entries stay as they were). Doing it twice is the same. */
  async unsubscribe(token: string): Promise<UnsubscribeDto> {
    const claim = await this.claim(token);
    const types = claim.scope === 'ALL' ? [...TYPES_FOR_ROLE.ADMIN] : [claim.scope];
    await this.dataSource.query(
      `INSERT INTO notification_preferences (user_id, type, in_app, email)
       SELECT $1, t.type, t.in_app, false FROM unnest($2::varchar[], $3::boolean[]) AS t(type, in_app)
       ON CONFLICT (user_id, type) DO UPDATE SET email = false`,
      [claim.userId, types, types.map((type) => DEFAULT_CHANNELS[type].inApp)],
    );
    return { scope: claim.scope, description: this.describe(claim.scope), unsubscribed: true };
  }

  private async claim(token: string) {
    const claim = verifyUnsubscribeToken(this.config.jwtSecret, token);
    const exists: unknown[] = claim ? await this.dataSource.query(`SELECT 1 FROM users WHERE id = $1`, [claim.userId]) : [];
    if (!claim || !exists.length) throw fieldError('token', NotificationsMessages.TOKEN_INVALID);
    return claim;
  }

  private describe(scope: NotificationType | 'ALL'): string {
    return scope === 'ALL' ? 'all notification e-mails, the digest included' : `e-mails about ${TYPE_LABELS[scope]}`;
  }
}
