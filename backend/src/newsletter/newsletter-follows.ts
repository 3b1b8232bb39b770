import { NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { FollowDto } from './dto/newsletter.dto';
import type { FollowKind } from './entities/newsletter-follow.entity';
import { NewsletterMessages } from './newsletter.messages';

/** What the publication's follow is called where follows are listed. */
export const PUBLICATION_NAME = 'Every new post';

export interface FollowTarget {
  kind: FollowKind;
  targetId: number;
  name: string;
  slug: string | null;
}

interface FollowRow {
  id: number;
  subscriber_id: number;
  kind: FollowKind;
  target_id: number;
  name: string | null;
  slug: string | null;
  created_at: Date;
}

/**
 * Something one may follow, or 404: the publication (id 0), an active account that writes
 * (the AUTHOR or ADMIN role, or a published post) or an active tag.
 */
export async function followTarget(db: Pick<EntityManager, 'query'>, kind: FollowKind, targetId: number): Promise<FollowTarget> {
  if (kind === 'publication') {
    if (targetId !== 0) throw new NotFoundException(NewsletterMessages.PUBLICATION_TARGET);
    return { kind, targetId: 0, name: PUBLICATION_NAME, slug: null };
  }
  if (kind === 'author') {
    const [row]: { name: string; slug: string }[] = await db.query(
      `SELECT u.full_name AS name, u.slug FROM users u
        WHERE u.id = $1 AND u.status = 'ACTIVE'
          AND (EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id AND r.name IN ('AUTHOR', 'ADMIN'))
               OR EXISTS (SELECT 1 FROM posts p WHERE p.author_id = u.id AND p.status = 'PUBLISHED'))`,
      [targetId],
    );
    if (!row) throw new NotFoundException(NewsletterMessages.AUTHOR_NOT_FOUND);
    return { kind, targetId, name: row.name, slug: row.slug };
  }
  const [tag]: { name: string; slug: string }[] = await db.query(`SELECT name, slug FROM tags WHERE id = $1 AND is_active`, [targetId]);
  if (!tag) throw new NotFoundException(NewsletterMessages.TAG_NOT_FOUND);
  return { kind, targetId, name: tag.name, slug: tag.slug };
}

/** The follows of some subscribers, named (a removed author or tag keeps a neutral name until its clean-up). */
export async function followsOf(db: Pick<EntityManager, 'query'>, subscriberIds: number[]): Promise<Map<number, FollowDto[]>> {
  const rows: FollowRow[] = subscriberIds.length
    ? await db.query(
        `SELECT f.id, f.subscriber_id, f.kind, f.target_id, f.created_at,
                CASE f.kind WHEN 'author' THEN u.full_name WHEN 'tag' THEN t.name END AS name,
                CASE f.kind WHEN 'author' THEN u.slug WHEN 'tag' THEN t.slug END AS slug
           FROM newsletter_follows f
           LEFT JOIN users u ON f.kind = 'author' AND u.id = f.target_id
           LEFT JOIN tags t ON f.kind = 'tag' AND t.id = f.target_id
          WHERE f.subscriber_id = ANY($1::int[])
          ORDER BY CASE f.kind WHEN 'publication' THEN 0 WHEN 'author' THEN 1 ELSE 2 END, f.id`,
        [subscriberIds],
      )
    : [];
  const bySubscriber = new Map<number, FollowDto[]>(subscriberIds.map((id) => [id, []]));
  for (const row of rows) bySubscriber.get(row.subscriber_id)?.push(toFollowDto(row));
  return bySubscriber;
}

export function toFollowDto(row: Omit<FollowRow, 'subscriber_id'>): FollowDto {
  return {
    id: row.id,
    kind: row.kind,
    targetId: row.target_id,
    name: row.kind === 'publication' ? PUBLICATION_NAME : (row.name ?? (row.kind === 'author' ? 'A removed author' : 'A removed tag')),
    slug: row.kind === 'publication' ? null : row.slug,
    createdAt: row.created_at.toISOString(),
  };
}

/** What a follow's e-mails are, in words: 'new posts by Jane Doe', 'new posts tagged Travel', 'every new post'. */
export function describeFollow(follow: { kind: FollowKind; name: string }): string {
  if (follow.kind === 'author') return `new posts by ${follow.name}`;
  if (follow.kind === 'tag') return `new posts tagged ${follow.name}`;
  return 'every new post';
}
