import type { EntityManager } from 'typeorm';
import type { DomainEvent, DomainEventName } from '../events/domain-events';

/** The events a webhook can subscribe to (docs/integrations.md, 'Webhooks'), in the order the form lists them. */
export const WEBHOOK_EVENTS = [
  'post.published',
  'post.unpublished',
  'post.updated',
  'post.deleted',
  'comment.created',
  'comment.hidden',
  'user.registered',
  'user.banned',
  'tag.created',
  'tag.updated',
] as const satisfies readonly DomainEventName[];

export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** The type of the event 'Send test event' sends. */
export const TEST_EVENT = 'webhook.test';

/**
 * The object of a payload, by event, in its public form: what a visitor of the site could read.
 * A user's e-mail address is added only for user events, and only to webhooks that opted in
 * (`withEmail`, kept apart so the object is built once for every webhook).
 */
export interface PublicObject {
  object: Record<string, unknown>;
  /** User events: the address, for the webhooks that opted in. */
  email?: string;
}

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);

/**
 * Posts: a PUBLISHED post in full public form (title, slug, url, summary, thumbnail, times,
 * reading time, author's public name and slug, tags); any other post is not public, so its events
 * carry only `{ id, status }` (and the slug it was public at for post.unpublished / post.deleted
 * of a published one, so a receiver can drop that page). Never the text of a draft.
 */
async function postObject(
  manager: EntityManager,
  publicUrl: string,
  event: DomainEvent<'post.published' | 'post.unpublished' | 'post.updated' | 'post.deleted'>,
): Promise<Record<string, unknown>> {
  const { data } = event;
  if (event.name === 'post.unpublished') return { id: data.postId, status: data.status, slug: data.slug };
  if (data.status !== 'PUBLISHED') return { id: data.postId, status: data.status };
  if (event.name === 'post.deleted') return { id: data.postId, status: 'DELETED', slug: data.slug };
  const [row] = (await manager.query(
    `SELECT p.id, p.title, p.slug, p.summary, p.content, p.thumbnail, p.published_at, p.updated_at, p.reading_time,
            u.id AS author_id, u.full_name AS author_name, u.slug AS author_slug,
            COALESCE((SELECT json_agg(json_build_object('name', t.name, 'slug', t.slug) ORDER BY t.name)
                        FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id AND t.is_active), '[]') AS tags
       FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id = $1`,
    [data.postId],
  )) as {
    id: number;
    title: string;
    slug: string;
    summary: string | null;
    content: string;
    thumbnail: string | null;
    published_at: Date | null;
    updated_at: Date;
    reading_time: number;
    author_id: number;
    author_name: string;
    author_slug: string;
    tags: { name: string; slug: string }[];
  }[];
  if (!row) return { id: data.postId, status: data.status };
  return {
    id: row.id,
    status: 'PUBLISHED',
    title: row.title,
    slug: row.slug,
    url: `${publicUrl}/blog/${encodeURIComponent(row.slug)}`,
    summary: row.summary,
    content: row.content,
    thumbnail: row.thumbnail,
    publishedAt: iso(row.published_at),
    updatedAt: iso(row.updated_at),
    readingTime: row.reading_time,
    author: { id: row.author_id, fullName: row.author_name, slug: row.author_slug },
    tags: row.tags,
    ...(event.name === 'post.updated' && event.data.previousSlug !== data.slug ? { previousSlug: event.data.previousSlug } : {}),
  };
}

/**
 * Comments: a VISIBLE one in public form (text, author's public name, post, times); a HELD one
 * (waiting for a moderator) or a hidden one carries only ids and its visibility: its text is not
 * public. The hiding reason is the moderators' and is not sent.
 */
async function commentObject(
  manager: EntityManager,
  publicUrl: string,
  event: DomainEvent<'comment.created' | 'comment.hidden'>,
): Promise<Record<string, unknown>> {
  const { data } = event;
  const ids = { id: data.commentId, postId: data.postId, postSlug: data.postSlug, parentId: data.parentId, visibility: data.visibility };
  if (data.visibility !== 'VISIBLE' || data.deleted) return ids;
  const [row] = (await manager.query(
    `SELECT c.content, c.created_at, u.id AS author_id, u.full_name AS author_name, u.slug AS author_slug
       FROM comments c LEFT JOIN users u ON u.id = c.user_id WHERE c.id = $1`,
    [data.commentId],
  )) as { content: string; created_at: Date; author_id: number | null; author_name: string | null; author_slug: string | null }[];
  if (!row) return ids;
  return {
    ...ids,
    url: `${publicUrl}/blog/${encodeURIComponent(data.postSlug)}#comment-${data.commentId}`,
    content: row.content,
    createdAt: iso(row.created_at),
    author: row.author_id === null ? null : { id: row.author_id, fullName: row.author_name, slug: row.author_slug },
  };
}

/** Users: id, public name and slug, roles, status, verified, when they joined; the ban's reason and note are the administrators' and are not sent. */
async function userObject(manager: EntityManager, event: DomainEvent<'user.registered' | 'user.banned'>): Promise<PublicObject> {
  const { data } = event;
  const [row] = (await manager.query(`SELECT slug, created_at FROM users WHERE id = $1`, [data.userId])) as {
    slug: string;
    created_at: Date;
  }[];
  return {
    object: {
      id: data.userId,
      fullName: data.fullName,
      slug: row?.slug ?? null,
      status: data.status,
      verified: data.verified,
      roles: data.roles,
      createdAt: iso(row?.created_at),
    },
    email: data.email,
  };
}

/** Tags: id, name, slug, description, active (and the slug it had, when an edit changed it). */
async function tagObject(manager: EntityManager, event: DomainEvent<'tag.created' | 'tag.updated'>): Promise<Record<string, unknown>> {
  const { data } = event;
  const [row] = (await manager.query(`SELECT description FROM tags WHERE id = $1`, [data.tagId])) as { description: string | null }[];
  const renamed = event.name === 'tag.updated' && event.data.previousSlug !== data.slug;
  return {
    id: data.tagId,
    name: data.name,
    slug: data.slug,
    description: row?.description ?? null,
    active: data.active,
    ...(renamed ? { previousSlug: event.data.previousSlug } : {}),
  };
}

/** The public form of an event's object, read with the change's manager (it sees the change). */
export async function publicObject(manager: EntityManager, publicUrl: string, event: DomainEvent<WebhookEventName>): Promise<PublicObject> {
  switch (event.name) {
    case 'post.published':
    case 'post.unpublished':
    case 'post.updated':
    case 'post.deleted':
      return { object: await postObject(manager, publicUrl, event) };
    case 'comment.created':
    case 'comment.hidden':
      return { object: await commentObject(manager, publicUrl, event) };
    case 'user.registered':
    case 'user.banned':
      return userObject(manager, event);
    case 'tag.created':
    case 'tag.updated':
      return { object: await tagObject(manager, event) };
  }
}

/** The JSON sent: `id` (the delivery's, the same on every retry), `type`, `createdAt` (the event's time) and `data` (the object). */
export function payloadBody(deliveryKey: string, type: string, createdAt: Date, object: Record<string, unknown>): string {
  return JSON.stringify({ id: deliveryKey, type, createdAt: createdAt.toISOString(), data: object });
}
