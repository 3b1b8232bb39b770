import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { followsOf } from './newsletter-follows';

/** What 'Download my data' holds of the newsletter (newsletter.json). */
export interface NewsletterAccountData {
  subscriber: {
    email: string;
    name: string | null;
    status: string;
    cadence: string;
    digestWeekday: number | null;
    source: string;
    createdAt: string;
    confirmedAt: string | null;
  } | null;
  follows: { kind: string; targetId: number; name: string; slug: string | null; createdAt: string }[];
  deliveries: { postId: number; postTitle: string | null; state: string; attempts: number; createdAt: string; sentAt: string | null }[];
  digests: { weekStart: string; postIds: number[]; state: string; createdAt: string; sentAt: string | null }[];
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/**
 * The newsletter's part of an account's data (account-data calls it): the export of the
 * reader's subscriber row, follows and deliveries, and their removal when the account is erased.
 */
@Injectable()
export class NewsletterAccountDataService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async exportOf(userId: number): Promise<NewsletterAccountData> {
    const [row]: {
      id: number;
      email: string;
      name: string | null;
      status: string;
      cadence: string;
      digest_weekday: number | null;
      source: string;
      created_at: Date;
      confirmed_at: Date | null;
    }[] = await this.dataSource.query(
      `SELECT id, email, name, status, cadence, digest_weekday, source, created_at, confirmed_at FROM newsletter_subscribers WHERE user_id = $1`,
      [userId],
    );
    if (!row) return { subscriber: null, follows: [], deliveries: [], digests: [] };
    const follows = (await followsOf(this.dataSource, [row.id])).get(row.id) ?? [];
    const deliveries: { post_id: number; title: string | null; state: string; attempts: number; created_at: Date; sent_at: Date | null }[] =
      await this.dataSource.query(
        `SELECT d.post_id, p.title, d.state, d.attempts, d.created_at, d.sent_at
           FROM newsletter_deliveries d LEFT JOIN posts p ON p.id = d.post_id WHERE d.subscriber_id = $1 ORDER BY d.id`,
        [row.id],
      );
    const digests: { week_start: string; post_ids: number[]; state: string; created_at: Date; sent_at: Date | null }[] =
      await this.dataSource.query(
        `SELECT to_char(week_start, 'YYYY-MM-DD') AS week_start, post_ids, state, created_at, sent_at
           FROM newsletter_digest_deliveries WHERE subscriber_id = $1 ORDER BY id`,
        [row.id],
      );
    return {
      subscriber: {
        email: row.email,
        name: row.name,
        status: row.status,
        cadence: row.cadence,
        digestWeekday: row.digest_weekday,
        source: row.source,
        createdAt: row.created_at.toISOString(),
        confirmedAt: iso(row.confirmed_at),
      },
      follows: follows.map(({ kind, targetId, name, slug, createdAt }) => ({ kind, targetId, name, slug, createdAt })),
      deliveries: deliveries.map((d) => ({
        postId: d.post_id,
        postTitle: d.title,
        state: d.state,
        attempts: d.attempts,
        createdAt: d.created_at.toISOString(),
        sentAt: iso(d.sent_at),
      })),
      digests: digests.map((d) => ({
        weekStart: d.week_start,
        postIds: d.post_ids,
        state: d.state,
        createdAt: d.created_at.toISOString(),
        sentAt: iso(d.sent_at),
      })),
    };
  }

  /**
   * In the erasure's transaction: the account's subscriber row goes with its follows and
   * deliveries (cascade), and so do other subscribers' follows of it as an author. Answers how many
   * subscriber rows went (0 or 1).
   */
  async removeAllOf(manager: EntityManager, userId: number): Promise<number> {
    await manager.query(`DELETE FROM newsletter_follows WHERE kind = 'author' AND target_id = $1`, [userId]);
    const [removed]: [unknown[], number] = await manager.query(`DELETE FROM newsletter_subscribers WHERE user_id = $1 RETURNING id`, [
      userId,
    ]);
    return removed.length;
  }
}
