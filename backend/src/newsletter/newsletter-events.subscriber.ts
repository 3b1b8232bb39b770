import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../events/domain-events.service';
import { canonicalEmail } from '../../../isomorphic/text';
import { NewsletterAccountDataService } from './newsletter-account-data';

/**
 * Keeps the subscribers right as accounts and tags change, in the change's transaction:
 * - `user.updated` with a new e-mail: the account's subscriber row takes it (a visitor's row of
 *   that address gives its follows to the account's and goes);
 * - `user.deleted`: the account's row goes, and every follow of it as an author;
 * - `tag.deleted`: every follow of the tag.
 */
@Injectable()
export class NewsletterEventsSubscriber {
  constructor(events: DomainEvents, accountData: NewsletterAccountDataService) {
    events.onRecorded('user.updated', async ({ data }, manager) => {
      const change = data.changes.email;
      if (!change) return;
      const email = canonicalEmail(change.to);
      const [own]: { id: number }[] = await manager.query(`SELECT id FROM newsletter_subscribers WHERE user_id = $1 FOR UPDATE`, [
        data.userId,
      ]);
      if (!own) return;
      const [other]: { id: number }[] = await manager.query(
        `SELECT id FROM newsletter_subscribers WHERE email = $1 AND id <> $2 AND user_id IS NULL FOR UPDATE`,
        [email, own.id],
      );
      if (other) {
        await manager.query(
          `INSERT INTO newsletter_follows (subscriber_id, kind, target_id) SELECT $1, kind, target_id FROM newsletter_follows WHERE subscriber_id = $2
           ON CONFLICT (subscriber_id, kind, target_id) DO NOTHING`,
          [own.id, other.id],
        );
        await manager.query(`DELETE FROM newsletter_subscribers WHERE id = $1`, [other.id]);
      }
      await manager.query(
        `UPDATE newsletter_subscribers SET email = $2, soft_bounces = 0 WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM newsletter_subscribers WHERE email = $2)`,
        [own.id, email],
      );
    });
    events.onRecorded('user.deleted', async ({ data }, manager) => {
      await accountData.removeAllOf(manager, data.userId);
    });
    events.onRecorded('tag.deleted', async ({ data }, manager) => {
      await manager.query(`DELETE FROM newsletter_follows WHERE kind = 'tag' AND target_id = $1`, [data.tagId]);
    });
  }
}
