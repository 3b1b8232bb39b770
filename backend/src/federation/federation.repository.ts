import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { JsonWebKey } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

/** The publication's actor identifier (authors' are their user ids). */
export const SITE_ACTOR = 'site';

export interface LocalAuthor {
  id: number;
  slug: string;
  fullName: string;
  bio: string | null;
  avatar: string | null;
  createdAt: Date;
}

export interface LocalPost {
  id: number;
  slug: string;
  title: string;
  summary: string | null;
  contentHtml: string;
  thumbnail: string | null;
  status: string;
  authorId: number;
  publishedAt: Date | null;
  updatedAt: Date;
  tags: { name: string; slug: string }[];
}

export interface RemoteActorValues {
  uri: string;
  inbox: string;
  sharedInbox: string | null;
  handle: string | null;
  name: string | null;
  avatar: string | null;
  url: string | null;
}

export interface RemoteActorRow extends RemoteActorValues {
  id: number;
  host: string;
}

/** An account of the fediverse a local actor follows. */
export interface FollowingRow extends Pick<RemoteActorRow, 'id' | 'uri' | 'inbox' | 'handle' | 'name' | 'avatar' | 'url' | 'host'> {
  state: 'PENDING' | 'ACCEPTED';
  followUri: string;
  since: Date;
}

export interface Recipient {
  uri: string;
  inbox: string;
}

/** A delivery claimed for sending, with what its activity needs to be sent. */
export interface ClaimedDelivery {
  id: string;
  activityId: string;
  activityUri: string;
  inbox: string;
  recipient: string;
  sender: string;
  /** The body every inbox gets, byte for byte (null until the activity's first delivery signs it). */
  signedBody: string | null;
  /** The activity's JSON-LD, only while it has no signed body. */
  body: unknown;
  attempts: number;
  /**
   * The recipient's instance or the recipient is blocked: isBlocked()'s rule in SQL. Recipients
   * are stored as URL hrefs (host lowercased and punycoded, default port dropped), so the text
   * between `://` and the first `/` is URL.host, unless the URI carries a user name (`u@host`),
   * which no actor id seen has.
   */
  blocked: boolean;
}

/**
 * The federation tables (migrations/1796050000000-CreateFederation.ts) and the few public facts
 * of authors and posts an actor or an Article shows (read only: the posts and users modules own them).
 */
@Injectable()
export class FederationRepository {
  constructor(@InjectDataSource() readonly dataSource: DataSource) {}

  private db(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** An author (role AUTHOR or ADMIN, active, not a placeholder) by id. */
  async author(id: number, manager?: EntityManager): Promise<LocalAuthor | undefined> {
    return this.findAuthor('u.id = $1', [id], manager);
  }

  async authorBySlug(slug: string, manager?: EntityManager): Promise<LocalAuthor | undefined> {
    return this.findAuthor('u.slug = $1', [slug], manager);
  }

  private async findAuthor(where: string, params: unknown[], manager?: EntityManager): Promise<LocalAuthor | undefined> {
    const rows = (await this.db(manager).query(
      `SELECT u.id, u.slug, u.full_name AS "fullName", u.bio, u.avatar, u.created_at AS "createdAt"
         FROM users u
        WHERE ${where} AND u.status = 'ACTIVE' AND u.placeholder IS NULL
          AND EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id AND r.name IN ('AUTHOR', 'ADMIN'))`,
      params,
    )) as LocalAuthor[];
    return rows[0];
  }

  async post(id: number, manager?: EntityManager): Promise<LocalPost | undefined> {
    return this.findPost('p.id = $1', [id], manager);
  }

  async postBySlug(slug: string, manager?: EntityManager): Promise<LocalPost | undefined> {
    return this.findPost('p.slug = $1', [slug], manager);
  }

  private async findPost(where: string, params: unknown[], manager?: EntityManager): Promise<LocalPost | undefined> {
    const rows = (await this.db(manager).query(
      `SELECT p.id, p.slug, p.title, p.summary, p.content_html AS "contentHtml", p.thumbnail, p.status, p.author_id AS "authorId",
              p.published_at AS "publishedAt", p.updated_at AS "updatedAt",
              coalesce((SELECT json_agg(json_build_object('name', t.name, 'slug', t.slug) ORDER BY t.name)
                          FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id), '[]'::json) AS tags
         FROM posts p WHERE ${where}`,
      params,
    )) as LocalPost[];
    return rows[0];
  }

  async publishedPostCount(): Promise<number> {
    const rows = (await this.dataSource.query(`SELECT count(*)::int AS n FROM posts WHERE status = 'PUBLISHED'`)) as { n: number }[];
    return rows[0].n;
  }

  async authorCount(): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT count(DISTINCT ur.user_id)::int AS n FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE r.name IN ('AUTHOR', 'ADMIN')`,
    )) as { n: number }[];
    return rows[0].n;
  }

  // ---- settings ----

  /** With a manager: read on that transaction's connection (a subscriber must not wait for a second one from the pool). */
  async enabled(manager?: EntityManager): Promise<boolean> {
    const rows = (await (manager ?? this.dataSource).query(`SELECT value FROM federation_settings WHERE key = 'enabled'`)) as {
      value: boolean;
    }[];
    return rows[0]?.value ?? true;
  }

  async setEnabled(enabled: boolean): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO federation_settings (key, value) VALUES ('enabled', $1::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [JSON.stringify(enabled)],
    );
  }

  // ---- keys ----

  async keys(actor: string): Promise<{ algorithm: string; public_jwk: JsonWebKey; private_sealed: string }[]> {
    return (await this.dataSource.query(
      'SELECT algorithm, public_jwk, private_sealed FROM federation_keys WHERE actor = $1 ORDER BY algorithm DESC',
      [actor],
    )) as { algorithm: string; public_jwk: JsonWebKey; private_sealed: string }[];
  }

  async deleteKeys(actor: string): Promise<void> {
    await this.dataSource.query('DELETE FROM federation_keys WHERE actor = $1', [actor]);
  }

  /** Stores a key pair unless one exists (two requests at once keep the first). */
  async insertKey(actor: string, algorithm: string, publicJwk: JsonWebKey, privateSealed: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO federation_keys (actor, algorithm, public_jwk, private_sealed) VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT DO NOTHING`,
      [actor, algorithm, JSON.stringify(publicJwk), privateSealed],
    );
  }

  // ---- remote actors and followers ----

  async upsertRemoteActor(values: RemoteActorValues): Promise<RemoteActorRow> {
    const host = new URL(values.uri).host;
    const [row] = (await this.dataSource.query(
      `INSERT INTO federation_remote_actors (uri, host, inbox, shared_inbox, handle, name, avatar, url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (uri) DO UPDATE SET inbox = EXCLUDED.inbox, shared_inbox = EXCLUDED.shared_inbox, handle = EXCLUDED.handle,
         name = EXCLUDED.name, avatar = EXCLUDED.avatar, url = EXCLUDED.url, updated_at = now()
       RETURNING id, uri, host, inbox, shared_inbox AS "sharedInbox", handle, name, avatar, url`,
      [values.uri, host, values.inbox, values.sharedInbox, values.handle, values.name, values.avatar, values.url],
    )) as RemoteActorRow[];
    return row;
  }

  async remoteActorByUri(uri: string): Promise<RemoteActorRow | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT id, uri, host, inbox, shared_inbox AS "sharedInbox", handle, name, avatar, url FROM federation_remote_actors WHERE uri = $1`,
      [uri],
    )) as RemoteActorRow[];
    return rows[0];
  }

  async addFollower(actor: string, remoteActorId: number, followUri: string | null): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO federation_followers (actor, remote_actor_id, follow_uri) VALUES ($1, $2, $3)
       ON CONFLICT (actor, remote_actor_id) DO UPDATE SET follow_uri = EXCLUDED.follow_uri`,
      [actor, remoteActorId, followUri],
    );
  }

  async removeFollower(actor: string, remoteActorId: number): Promise<void> {
    await this.dataSource.query('DELETE FROM federation_followers WHERE actor = $1 AND remote_actor_id = $2', [actor, remoteActorId]);
  }

  async followerCount(actor: string): Promise<number> {
    const rows = (await this.dataSource.query('SELECT count(*)::int AS n FROM federation_followers WHERE actor = $1', [actor])) as {
      n: number;
    }[];
    return rows[0].n;
  }

  /** One page of an actor's followers, newest first. */
  async followers(
    actor: string,
    limit: number,
    offset: number,
  ): Promise<(Pick<RemoteActorRow, 'uri' | 'inbox' | 'sharedInbox' | 'handle' | 'name' | 'avatar' | 'url' | 'host'> & { since: Date })[]> {
    return (await this.dataSource.query(
      `SELECT ra.uri, ra.inbox, ra.shared_inbox AS "sharedInbox", ra.handle, ra.name, ra.avatar, ra.url, ra.host, f.created_at AS since
         FROM federation_followers f JOIN federation_remote_actors ra ON ra.id = f.remote_actor_id
        WHERE f.actor = $1 ORDER BY f.created_at DESC, ra.id DESC LIMIT $2 OFFSET $3`,
      [actor, limit, offset],
    )) as (Pick<RemoteActorRow, 'uri' | 'inbox' | 'sharedInbox' | 'handle' | 'name' | 'avatar' | 'url' | 'host'> & { since: Date })[];
  }

  /**
   * Where an activity of these actors goes: one inbox per server (its shared inbox when it has
   * one, otherwise each follower's own), each follower counted once, blocked ones left out.
   */
  async followerInboxes(actors: string[], manager?: EntityManager): Promise<Recipient[]> {
    return (await this.db(manager).query(
      `SELECT DISTINCT ON (coalesce(ra.shared_inbox, ra.inbox)) coalesce(ra.shared_inbox, ra.inbox) AS inbox, ra.uri
         FROM federation_followers f JOIN federation_remote_actors ra ON ra.id = f.remote_actor_id
        WHERE f.actor = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM federation_blocks b WHERE (b.kind = 'instance' AND b.value = ra.host) OR (b.kind = 'actor' AND b.value = ra.uri))
        ORDER BY coalesce(ra.shared_inbox, ra.inbox), ra.uri`,
      [actors],
    )) as Recipient[];
  }

  // ---- accounts an author follows (docs/federation.md#following) ----

  /** Records a Follow sent (PENDING until its Accept); an account already followed keeps its row and answers it. */
  async addFollowing(manager: EntityManager, actor: string, remoteActorId: number, followUri: string): Promise<{ created: boolean }> {
    const rows = (await manager.query(
      `INSERT INTO federation_following (actor, remote_actor_id, follow_uri) VALUES ($1, $2, $3)
       ON CONFLICT (actor, remote_actor_id) DO NOTHING RETURNING follow_uri`,
      [actor, remoteActorId, followUri],
    )) as unknown[];
    return { created: rows.length > 0 };
  }

  async following(actor: string, remoteActorId?: number): Promise<FollowingRow[]> {
    return (await this.dataSource.query(
      `SELECT ra.id, ra.uri, ra.inbox, ra.handle, ra.name, ra.avatar, ra.url, ra.host, f.state, f.follow_uri AS "followUri", f.created_at AS since
         FROM federation_following f JOIN federation_remote_actors ra ON ra.id = f.remote_actor_id
        WHERE f.actor = $1 AND ($2::int IS NULL OR ra.id = $2) ORDER BY f.created_at DESC, ra.id DESC LIMIT 500`,
      [actor, remoteActorId ?? null],
    )) as FollowingRow[];
  }

  /** The Accept of a Follow we sent, from the account it was sent to. */
  async acceptFollowing(followUri: string, remoteUri: string): Promise<boolean> {
    const [, count] = (await this.dataSource.query(
      `UPDATE federation_following f SET state = 'ACCEPTED', accepted_at = now()
         FROM federation_remote_actors ra WHERE ra.id = f.remote_actor_id AND f.follow_uri = $1 AND ra.uri = $2 AND f.state = 'PENDING'`,
      [followUri, remoteUri],
    )) as [unknown, number];
    return count > 0;
  }

  /** A Reject of a Follow we sent (or our Undo): the row goes. */
  async rejectFollowing(followUri: string, remoteUri: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM federation_following f USING federation_remote_actors ra WHERE ra.id = f.remote_actor_id AND f.follow_uri = $1 AND ra.uri = $2`,
      [followUri, remoteUri],
    );
  }

  async removeFollowing(manager: EntityManager, actor: string, remoteActorId: number): Promise<void> {
    await manager.query('DELETE FROM federation_following WHERE actor = $1 AND remote_actor_id = $2', [actor, remoteActorId]);
  }

  async followingCount(actor: string): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM federation_following WHERE actor = $1 AND state = 'ACCEPTED'`,
      [actor],
    )) as { n: number }[];
    return rows[0].n;
  }

  async followingUris(actor: string, limit: number, offset: number): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT ra.uri FROM federation_following f JOIN federation_remote_actors ra ON ra.id = f.remote_actor_id
        WHERE f.actor = $1 AND f.state = 'ACCEPTED' ORDER BY f.created_at DESC, ra.id DESC LIMIT $2 OFFSET $3`,
      [actor, limit, offset],
    )) as { uri: string }[];
    return rows.map((row) => row.uri);
  }

  /** Followers per actor (the admin page). */
  async followerCounts(): Promise<{ actor: string; followers: number }[]> {
    return (await this.dataSource.query(
      'SELECT actor, count(*)::int AS followers FROM federation_followers GROUP BY actor ORDER BY followers DESC, actor',
    )) as { actor: string; followers: number }[];
  }

  // ---- blocks ----

  async isBlocked(actorUri: string): Promise<boolean> {
    let host: string;
    try {
      host = new URL(actorUri).host;
    } catch {
      return true;
    }
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM federation_blocks WHERE (kind = 'instance' AND value = $1) OR (kind = 'actor' AND value = $2) LIMIT 1`,
      [host, actorUri],
    )) as unknown[];
    return rows.length > 0;
  }

  async blocks(): Promise<{ id: number; kind: 'instance' | 'actor'; value: string; createdAt: Date }[]> {
    return (await this.dataSource.query(
      `SELECT id, kind, value, created_at AS "createdAt" FROM federation_blocks ORDER BY created_at DESC, id DESC`,
    )) as { id: number; kind: 'instance' | 'actor'; value: string; createdAt: Date }[];
  }

  async addBlock(kind: 'instance' | 'actor', value: string): Promise<{ id: number; kind: string; value: string; createdAt: Date }> {
    const [row] = (await this.dataSource.query(
      `INSERT INTO federation_blocks (kind, value) VALUES ($1, $2) ON CONFLICT (kind, value) DO UPDATE SET kind = EXCLUDED.kind
       RETURNING id, kind, value, created_at AS "createdAt"`,
      [kind, value],
    )) as { id: number; kind: string; value: string; createdAt: Date }[];
    return row;
  }

  async removeBlock(id: number): Promise<boolean> {
    const [, affected] = (await this.dataSource.query('DELETE FROM federation_blocks WHERE id = $1', [id])) as [unknown, number];
    return affected > 0;
  }

  /** A block's followers stop following; their reactions go. */
  async dropBlocked(kind: 'instance' | 'actor', value: string): Promise<void> {
    const where = kind === 'instance' ? 'host = $1' : 'uri = $1';
    await this.dataSource.query(
      `DELETE FROM federation_followers WHERE remote_actor_id IN (SELECT id FROM federation_remote_actors WHERE ${where})`,
      [value],
    );
    await this.dataSource.query(
      `DELETE FROM federation_reactions WHERE remote_actor_id IN (SELECT id FROM federation_remote_actors WHERE ${where})`,
      [value],
    );
  }

  /** Comment ids of remote replies from a blocked instance or actor. */
  async blockedComments(kind: 'instance' | 'actor', value: string): Promise<number[]> {
    const rows = (await this.dataSource.query(
      kind === 'instance'
        ? `SELECT id FROM comments WHERE remote_uri IS NOT NULL AND deleted_at IS NULL AND split_part(split_part(remote_author->>'actor', '://', 2), '/', 1) = $1 ORDER BY level DESC, id DESC`
        : `SELECT id FROM comments WHERE remote_uri IS NOT NULL AND deleted_at IS NULL AND remote_author->>'actor' = $1 ORDER BY level DESC, id DESC`,
      [value],
    )) as { id: number }[];
    return rows.map((row) => row.id);
  }

  // ---- activities and deliveries ----

  /** Stores an activity and one delivery row per inbox (the unique key keeps one); answers the new deliveries' ids. */
  async insertActivity(
    manager: EntityManager,
    activity: { uri: string; sender: string; type: string; body: unknown },
    recipients: Recipient[],
  ): Promise<string[]> {
    const [row] = (await manager.query(
      `INSERT INTO federation_activities (uri, sender, type, body) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (uri) DO UPDATE SET uri = EXCLUDED.uri RETURNING id`,
      [activity.uri, activity.sender, activity.type, JSON.stringify(activity.body)],
    )) as { id: string }[];
    if (!recipients.length) return [];
    const rows = (await manager.query(
      `INSERT INTO federation_deliveries (activity_id, inbox, recipient)
       SELECT $1, r.inbox, r.uri FROM jsonb_to_recordset($2::jsonb) AS r(inbox text, uri text)
       ON CONFLICT (activity_id, inbox) DO NOTHING RETURNING id`,
      [row.id, JSON.stringify(recipients)],
    )) as { id: string }[];
    return rows.map((delivery) => String(delivery.id));
  }

  /**
   * Claims a delivery for sending: PENDING or FAILED, or SENDING whose sender died long ago.
   * A DELIVERED row is never claimed again: at most one successful send per (activity, inbox).
   * Answers the activity's signed body once it has one, its JSON-LD (to sign) until then, and
   * whether the recipient is blocked (one round trip per delivery).
   */
  async claimDelivery(id: string, staleSeconds: number): Promise<ClaimedDelivery | undefined> {
    const rows = (await this.dataSource.query(
      `UPDATE federation_deliveries d SET status = 'SENDING', attempts = d.attempts + 1, claimed_at = now()
         FROM federation_activities a
        WHERE d.id = $1 AND a.id = d.activity_id
          AND (d.status IN ('PENDING', 'FAILED') OR (d.status = 'SENDING' AND d.claimed_at < now() - make_interval(secs => $2)))
        RETURNING d.id, d.activity_id::text AS "activityId", a.uri AS "activityUri", d.inbox, d.recipient, a.sender,
                  a.signed_body AS "signedBody", CASE WHEN a.signed_body IS NULL THEN a.body END AS body, d.attempts,
                  EXISTS (SELECT 1 FROM federation_blocks b
                           WHERE (b.kind = 'instance' AND b.value = lower(split_part(split_part(d.recipient, '://', 2), '/', 1)))
                              OR (b.kind = 'actor' AND b.value = d.recipient)) AS blocked`,
      [id, staleSeconds],
    )) as [ClaimedDelivery[], number];
    return rows[0][0];
  }

  /** Keeps an activity's signed body; the first one kept wins (another process may have signed it meanwhile) and is answered. */
  async storeSignedBody(activityId: string, signedBody: string): Promise<string> {
    const rows = (await this.dataSource.query(
      `UPDATE federation_activities SET signed_body = coalesce(signed_body, $2) WHERE id = $1 RETURNING signed_body AS "signedBody"`,
      [activityId, signedBody],
    )) as [{ signedBody: string }[], number];
    return rows[0][0]?.signedBody ?? signedBody;
  }

  async finishDelivery(id: string, error: string | null): Promise<void> {
    await this.dataSource.query(
      error === null
        ? `UPDATE federation_deliveries SET status = 'DELIVERED', delivered_at = now(), last_error = NULL WHERE id = $1`
        : `UPDATE federation_deliveries SET status = 'FAILED', last_error = left($2, 500) WHERE id = $1`,
      error === null ? [id] : [id, error],
    );
  }

  async recentDeliveries(limit: number, failedOnly: boolean): Promise<unknown[]> {
    return (await this.dataSource.query(
      `SELECT d.id::text AS id, a.type AS activity, a.uri AS "activityId", a.sender, d.inbox, d.status, d.attempts, d.last_error AS "lastError",
              d.created_at AS "createdAt", d.delivered_at AS "deliveredAt"
         FROM federation_deliveries d JOIN federation_activities a ON a.id = d.activity_id
        ${failedOnly ? `WHERE d.status = 'FAILED'` : ''}
        ORDER BY d.created_at DESC, d.id DESC LIMIT $1`,
      [limit],
    )) as unknown[];
  }

  async deliveryCounts(): Promise<Record<string, number>> {
    const rows = (await this.dataSource.query('SELECT status, count(*)::int AS n FROM federation_deliveries GROUP BY status')) as {
      status: string;
      n: number;
    }[];
    return Object.fromEntries(rows.map((row) => [row.status, row.n]));
  }

  // ---- reactions ----

  async addReaction(postId: number, remoteActorId: number, kind: 'like' | 'announce', activityUri: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO federation_reactions (post_id, remote_actor_id, kind, activity_uri) VALUES ($1, $2, $3, $4)
       ON CONFLICT (post_id, remote_actor_id, kind) DO UPDATE SET activity_uri = EXCLUDED.activity_uri`,
      [postId, remoteActorId, kind, activityUri],
    );
  }

  /** Undo of a Like or Announce: answers the post it was on. */
  async removeReaction(activityUri: string, remoteActorId: number): Promise<number | undefined> {
    const rows = (await this.dataSource.query(
      'DELETE FROM federation_reactions WHERE activity_uri = $1 AND remote_actor_id = $2 RETURNING post_id',
      [activityUri, remoteActorId],
    )) as [{ post_id: number }[], number];
    return rows[0][0]?.post_id;
  }

  async reactionCounts(postId: number): Promise<{ likes: number; boosts: number }> {
    const rows = (await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE kind = 'like')::int AS likes, count(*) FILTER (WHERE kind = 'announce')::int AS boosts
         FROM federation_reactions WHERE post_id = $1`,
      [postId],
    )) as { likes: number; boosts: number }[];
    return rows[0];
  }
}
