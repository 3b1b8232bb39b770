import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PostRecipient, RECIPIENTS_SQL } from './newsletter-recipients';

/**
 * Subscribers and their follows (docs/newsletter.md): following from an account or as a visitor
 * (double opt-in), the preferences reached by a signed link, one-click unsubscribe, and who gets a
 * post's e-mail.
 */
@Injectable()
export class SubscriptionsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A post's recipients (RECIPIENTS_SQL): each active, instant, non-suppressed subscriber once,
   * with the follow its e-mail's unsubscribe removes. `postId` is not needed by the query; it is
   * kept in the signature for the callers' logs.
   */
  async recipientsForPost(
    postId: number,
    authorId: number,
    tagIds: number[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PostRecipient[]> {
    void postId;
    const rows: { subscriber_id: number; follow_id: number; email: string; name: string | null }[] = await manager.query(
      `SELECT r.subscriber_id, r.follow_id, s.email, s.name FROM (${RECIPIENTS_SQL}) r JOIN newsletter_subscribers s ON s.id = r.subscriber_id ORDER BY r.subscriber_id`,
      [authorId, tagIds],
    );
    return rows.map((row) => ({ subscriberId: row.subscriber_id, followId: row.follow_id, email: row.email, name: row.name }));
  }
}
