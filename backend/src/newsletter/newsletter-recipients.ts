/**
 * Who gets a new post's e-mail (docs/newsletter.md#who-gets-a-post): every ACTIVE subscriber
 * with the 'instant' cadence, not on the suppression list, whose account (if any) is ACTIVE and is
 * not the post's author, and who follows the publication, the post's author or one of its tags;
 * ONCE however many of their follows match. `follow_id` is the one follow the e-mail's one-click
 * unsubscribe removes: the most specific match (author, then tag, then the publication). A follow
 * made after the post was published does not count: following means "send me new posts", and the
 * fan-out may run minutes later.
 *
 * Plain SQL so that the sender can also use it inside `INSERT INTO newsletter_deliveries ... SELECT`
 * (in the publishing transaction, for 100,000 subscribers at once): columns `subscriber_id`,
 * `follow_id`; parameters `$1` author id, `$2` tag ids (int[]), `$3` the
 * publishing time (timestamptz; null: any follow). Ordered by subscriber id.
 */
export const RECIPIENTS_SQL = `
  SELECT DISTINCT ON (s.id) s.id AS subscriber_id, f.id AS follow_id
    FROM newsletter_follows f
    JOIN newsletter_subscribers s ON s.id = f.subscriber_id
    LEFT JOIN users u ON u.id = s.user_id
   WHERE ((f.kind = 'publication' AND f.target_id = 0)
          OR (f.kind = 'author' AND f.target_id = $1)
          OR (f.kind = 'tag' AND f.target_id = ANY($2::int[])))
     AND ($3::timestamptz IS NULL OR f.created_at <= $3::timestamptz)
     AND s.status = 'active'
     AND s.cadence = 'instant'
     AND (s.user_id IS NULL OR (u.status = 'ACTIVE' AND s.user_id <> $1))
     AND NOT EXISTS (SELECT 1 FROM newsletter_suppressions x WHERE x.email = s.email)
   ORDER BY s.id, CASE f.kind WHEN 'author' THEN 0 WHEN 'tag' THEN 1 ELSE 2 END, f.id`;

export interface PostRecipient {
  subscriberId: number;
  /** The follow whose one-click unsubscribe the e-mail carries. */
  followId: number;
  email: string;
  name: string | null;
}
