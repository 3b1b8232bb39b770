/** A query in some transaction: TypeORM's `manager.query` or a pg client's (rows only). */
export type Query = (sql: string, params: unknown[]) => Promise<unknown[]>;

export type SuppressionReason = 'hard_bounce' | 'soft_bounces' | 'complaint' | 'manual';

/** Adds an address to the suppression list (kept as it was when already there: the first reason stays). */
export async function suppress(query: Query, email: string, reason: SuppressionReason, detail: string | null): Promise<boolean> {
  const rows = await query(
    `INSERT INTO newsletter_suppressions (email, reason, detail) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING RETURNING email`,
    [email, reason, detail?.slice(0, 1000) ?? null],
  );
  return rows.length > 0;
}

/**
 * One soft bounce of a subscriber's address (a post's e-mail that still met a 4xx after every
 * retry, or a `soft_bounce` reported to the bounce endpoint): the count goes up, and at `limit`
 * (NEWSLETTER_SOFT_BOUNCE_LIMIT) in a row the address is suppressed ('soft_bounces'). A delivered
 * e-mail sets the count back to 0 (`delivered`).
 */
export async function softBounce(
  query: Query,
  email: string,
  limit: number,
  detail: string | null,
): Promise<'counted' | 'suppressed' | 'unknown'> {
  // (A CTE: TypeORM answers an UPDATE … RETURNING as [rows, count], a SELECT as rows, like pg.)
  const rows = (await query(
    `WITH counted AS (UPDATE newsletter_subscribers SET soft_bounces = soft_bounces + 1 WHERE email = $1 RETURNING soft_bounces) SELECT soft_bounces FROM counted`,
    [email],
  )) as { soft_bounces: number }[];
  if (!rows.length) return 'unknown';
  if (rows[0].soft_bounces < limit) return 'counted';
  await suppress(query, email, 'soft_bounces', `${rows[0].soft_bounces} soft bounces in a row; the last: ${detail ?? 'unknown'}`);
  return 'suppressed';
}

/** An e-mail reached the subscriber: their soft bounces start again from 0. */
export async function delivered(query: Query, subscriberId: number): Promise<void> {
  await query(`UPDATE newsletter_subscribers SET soft_bounces = 0 WHERE id = $1 AND soft_bounces <> 0`, [subscriberId]);
}
