import type { EntityManager } from 'typeorm';

/** The slug histories (migration CreateSlugHistory): each kind's table and owner column. */
const HISTORIES = {
  post: { table: 'post_slug_history', owner: 'post_id' },
  tag: { table: 'tag_slug_history', owner: 'tag_id' },
} as const;

/**
 * Keeps a slug history true after a post or tag got `slug` (created: no `oldSlug`; or changed),
 * inside the save's transaction: the new slug is nobody's old slug any more, and the old one now
 * leads to this owner (the latest owner wins).
 */
export async function recordSlugChange(
  manager: EntityManager,
  kind: keyof typeof HISTORIES,
  ownerId: number,
  oldSlug: string | undefined,
  slug: string,
): Promise<void> {
  if (oldSlug === slug) return;
  const { table, owner } = HISTORIES[kind];
  await manager.query(`DELETE FROM ${table} WHERE slug = $1`, [slug]);
  if (oldSlug === undefined) return;
  await manager.query(
    `INSERT INTO ${table} (slug, ${owner}) VALUES ($1, $2) ON CONFLICT (slug) DO UPDATE SET ${owner} = EXCLUDED.${owner}, created_at = now()`,
    [oldSlug, ownerId],
  );
}
