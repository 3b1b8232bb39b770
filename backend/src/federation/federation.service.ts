import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { EntityManager } from 'typeorm';
import type { JsonWebKey, webcrypto } from 'node:crypto';
import type { Context, Federation, InboxContext, MessageQueue, RequestContext } from '@fedify/fedify' with { 'resolution-mode': 'import' };
import type * as Vocab from '@fedify/vocab' with { 'resolution-mode': 'import' };
import { SecretBox } from '../common/secret-box';
import { APP_CONFIG, AppConfig } from '../config/env';
import { CommentsService } from '../comments/comments.service';
import { JobsService } from '../jobs/jobs.service';
import { CheckedTarget, checkTarget, lookupOf, UnsafeTargetError } from '../webhooks/webhook-targets';
import { Fedify, federationUnavailableReason, loadFedify } from './fedify-loader';
import {
  ClaimedDelivery,
  FederationRepository,
  FollowingRow,
  LocalAuthor,
  LocalPost,
  Recipient,
  RemoteActorRow,
  SITE_ACTOR,
} from './federation.repository';
import { PgKvStore } from './pg-kv-store';
import { DeliveryPacer } from './delivery-pacer';
import { noteText } from './note-text';
import { fediverseUsername, shadowedAuthorId } from '../../../isomorphic/fediverse-handle';

/**
 * The queue of outgoing deliveries (one job per (activity, inbox) row), one per PUBLIC_URL: a
 * delivery is signed as its site's actors, so only instances serving that site may send it (two
 * sites on one database, as the test suites are, never take each other's jobs).
 */
export function deliveryQueue(publicUrl: string): string {
  return `federation-delivery-${createHash('sha256').update(publicUrl).digest('hex').slice(0, 12)}`;
}

/**
 * Deliveries one process sends side by side. The activity's body is signed once (its first
 * delivery), so each one costs the event loop only its HTTP signature and its request; the pages
 * share that loop, and the pacer makes deliveries give way to them (docs/federation.md#pacing).
 */
const DELIVERY_CONCURRENCY = 4;

/** Redirects a delivery follows (each new address checked like the first). */
const MAX_REDIRECTS = 3;

/** Bytes of an inbox's error answer kept (Fedify keeps as many). */
const ERROR_BODY_BYTES = 1024;

/** Signed bodies of the newest activities kept in memory (deliveries claimed before the first one was stored find it here). */
const SIGNED_BODIES_KEPT = 8;

type ContextData = Record<string, never>;
const NO_DATA: ContextData = Object.freeze({}) as ContextData;

/** Paths Fedify answers (and the content negotiation of the post and author pages, which map onto them). */
export const FEDERATION_PATHS = ['/ap/', '/.well-known/webfinger', '/.well-known/nodeinfo', '/nodeinfo/'];

interface KeyPair {
  privateKey: webcrypto.CryptoKey;
  publicKey: webcrypto.CryptoKey;
}

/** A follower as Fedify's followers collection takes it. */
interface FedifyRecipient {
  id: URL;
  inboxId: URL;
  endpoints: { sharedInbox: URL } | null;
}

/**
 * The social web (docs/federation.md): every author is a Person (`@slug@host`), the publication a
 * Service (`@FEDERATION_SITE_HANDLE@host`). Fedify answers WebFinger, NodeInfo, the actors,
 * articles, notes, followers and the inboxes (it verifies every signature); this service gives it
 * the data and turns what comes in into follows, held comments and fediverse likes and boosts.
 * What goes out is stored first (an activity row, one delivery row per inbox, one job each, in the
 * cause's transaction) and sent by the job queue (DeliveryWorker-style handler below).
 *
 * Fedify needs Node >= 22: on older Node nothing here starts, and one start-up line says why.
 */
@Injectable()
export class FederationService implements OnModuleInit {
  private readonly logger = new Logger('Federation');
  readonly unavailableReason = federationUnavailableReason();
  private lib?: Fedify;
  private federation?: Federation<ContextData>;
  private readonly box: SecretBox;
  private readonly keyCache = new Map<string, Promise<KeyPair[]>>();
  private enabledCache: { value: boolean; until: number } | undefined;
  private readonly queue: string;
  /** Per activity (its row id): its signed body, being made or made (the newest few). */
  private readonly signedBodies = new Map<string, Promise<string>>();
  /** Per sender: the RSA key that signs its requests. */
  private readonly requestKeys = new Map<string, Promise<{ keyId: URL; privateKey: webcrypto.CryptoKey }>>();
  /** Deliveries give way to the pages while the event loop is busy. */
  private readonly pacer = new DeliveryPacer();
  /** Where the outbox messages of one signing go (see signedBody()). */
  private readonly prepared = new AsyncLocalStorage<unknown[]>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    readonly repo: FederationRepository,
    private readonly comments: CommentsService,
    private readonly jobs: JobsService,
  ) {
    this.box = new SecretBox(config.jwtSecret, 'federation-keys');
    this.queue = deliveryQueue(config.publicUrl);
  }

  async onModuleInit(): Promise<void> {
    if (this.unavailableReason) {
      this.logger.warn(this.unavailableReason);
      return;
    }
    this.lib = await loadFedify();
    this.federation = this.build(this.lib);
    this.jobs.register<{ deliveryId: string }>(this.queue, (job) => this.deliver(job.data.deliveryId, job.lastAttempt), 'standard', {
      batchSize: DELIVERY_CONCURRENCY,
    });
  }

  /** Fedify is loaded (Node >= 22). */
  get available(): boolean {
    return this.federation !== undefined;
  }

  get fedify(): Fedify {
    if (!this.lib) throw new Error('Federation is not available');
    return this.lib;
  }

  get handler(): Federation<ContextData> | undefined {
    return this.federation;
  }

  /**
   * The site setting (admins turn federation on and off), read at most every few seconds. Event
   * subscribers pass their transaction's manager: under a burst of writes every pooled connection
   * may be held by a transaction, and a read waiting for another one would never get it.
   */
  async enabled(manager?: EntityManager): Promise<boolean> {
    if (!this.federation) return false;
    const now = Date.now();
    if (this.enabledCache && this.enabledCache.until > now) return this.enabledCache.value;
    const value = await this.repo.enabled(manager);
    this.enabledCache = { value, until: now + 3_000 };
    return value;
  }

  async setEnabled(enabled: boolean): Promise<void> {
    await this.repo.setEnabled(enabled);
    this.enabledCache = { value: enabled, until: Date.now() + 3_000 };
  }

  get host(): string {
    return new URL(this.config.publicUrl).host;
  }

  handleOf(actor: string, author?: Pick<LocalAuthor, 'id' | 'slug'>): string {
    const { siteHandle } = this.config.federation;
    return `@${actor === SITE_ACTOR ? siteHandle : author ? fediverseUsername(author, siteHandle) : actor}@${this.host}`;
  }

  context(): Context<ContextData> {
    return this.federation!.createContext(new URL(this.config.publicUrl), NO_DATA);
  }

  private absolute(path: string | null): URL | null {
    if (!path) return null;
    try {
      return new URL(path, this.config.publicUrl);
    } catch {
      return null;
    }
  }

  // ---------------------------------------------------------------- the federation's routes

  private build(lib: Fedify): Federation<ContextData> {
    const { fedify, vocab } = lib;
    const federation = fedify.createFederation<ContextData>({
      kv: new PgKvStore(this.repo.dataSource),
      origin: this.config.publicUrl,
      allowPrivateAddress: this.config.federation.allowPrivate,
      signatureTimeWindow: { hours: 1 },
      userAgent: { software: 'Inkwell/1.0', url: new URL(this.config.publicUrl) },
      // Fedify's outbox queue only hands over the signed activity it prepares (signedBody()):
      // it is never started, the job queue sends (deliver()).
      queue: { outbox: this.preparedActivities() },
      manuallyStartQueue: true,
      circuitBreaker: false,
    });

    federation
      .setActorDispatcher('/ap/actors/{identifier}', (ctx, identifier) => this.actor(ctx, identifier))
      .mapHandle(async (_ctx, username) => {
        const { siteHandle } = this.config.federation;
        const name = username.toLowerCase();
        if (name === siteHandle) return SITE_ACTOR;
        // The author whose slug is the publication's handle answers to `{slug}_{id}` instead.
        const shadowed = shadowedAuthorId(name, siteHandle);
        const author = shadowed !== null ? await this.repo.author(shadowed) : await this.repo.authorBySlug(name);
        return author && fediverseUsername(author, siteHandle) === name ? String(author.id) : null;
      })
      .setKeyPairsDispatcher((_ctx, identifier) => this.keyPairs(identifier));

    federation
      .setFollowersDispatcher('/ap/actors/{identifier}/followers', async (_ctx, identifier, cursor) => {
        if (!(await this.actorExists(identifier))) return null;
        const size = 100;
        const offset = cursor === null ? 0 : Math.max(0, Number(cursor) || 0);
        const rows = await this.repo.followers(identifier, size, offset);
        const items: FedifyRecipient[] = rows.map((row) => ({
          id: new URL(row.uri),
          inboxId: new URL(row.inbox),
          endpoints: row.sharedInbox ? { sharedInbox: new URL(row.sharedInbox) } : null,
        }));
        return { items, nextCursor: rows.length === size ? String(offset + size) : null };
      })
      .setCounter((_ctx, identifier) => this.repo.followerCount(identifier))
      .setFirstCursor(() => '0');

    federation
      .setFollowingDispatcher('/ap/actors/{identifier}/following', async (_ctx, identifier, cursor) => {
        if (!(await this.actorExists(identifier))) return null;
        const size = 100;
        const offset = cursor === null ? 0 : Math.max(0, Number(cursor) || 0);
        const uris = await this.repo.followingUris(identifier, size, offset);
        return { items: uris.map((uri) => new URL(uri)), nextCursor: uris.length === size ? String(offset + size) : null };
      })
      .setCounter((_ctx, identifier) => this.repo.followingCount(identifier))
      .setFirstCursor(() => '0');

    federation
      .setOutboxDispatcher('/ap/actors/{identifier}/outbox', async (_ctx, identifier) => {
        if (!(await this.actorExists(identifier))) return null;
        return { items: [] };
      })
      .setCounter(() => 0);

    federation.setObjectDispatcher(vocab.Article, '/ap/articles/{id}', async (ctx, values) => {
      if (!/^\d{1,9}$/.test(values.id)) return null;
      const post = await this.repo.post(Number(values.id));
      if (!post || post.status !== 'PUBLISHED') return null;
      return this.article(ctx, post);
    });

    federation.setObjectDispatcher(vocab.Note, '/ap/notes/{id}', async (ctx, values) => {
      if (!/^\d{1,9}$/.test(values.id)) return null;
      const note = await this.localNote(Number(values.id));
      return note ? this.note(ctx, note) : null;
    });

    federation.setNodeInfoDispatcher('/nodeinfo/2.1', async () => ({
      software: { name: 'inkwell', version: '1.0.0', homepage: new URL('https://github.com/') },
      protocols: ['activitypub'],
      openRegistrations: false,
      usage: {
        users: { total: await this.repo.authorCount() },
        localPosts: await this.repo.publishedPostCount(),
        localComments: 0,
      },
    }));

    federation
      .setInboxListeners('/ap/actors/{identifier}/inbox', '/ap/inbox')
      .on(vocab.Follow, (ctx, follow) => this.onFollow(ctx, follow))
      .on(vocab.Accept, (_ctx, accept) => this.onFollowAnswer(accept, true))
      .on(vocab.Reject, (_ctx, reject) => this.onFollowAnswer(reject, false))
      .on(vocab.Undo, (ctx, undo) => this.onUndo(ctx, undo))
      .on(vocab.Create, (ctx, create) => this.onCreate(ctx, create))
      .on(vocab.Update, (ctx, update) => this.onUpdate(ctx, update))
      .on(vocab.Delete, (ctx, del) => this.onDelete(ctx, del))
      .on(vocab.Like, (ctx, like) => this.onReaction(ctx, like, 'like'))
      .on(vocab.Announce, (ctx, announce) => this.onReaction(ctx, announce, 'announce'))
      .onError((_ctx, error) => this.logger.warn(`Inbox: ${error.message}`));

    return federation;
  }

  private async actorExists(identifier: string): Promise<boolean> {
    if (identifier === SITE_ACTOR) return true;
    return /^\d{1,9}$/.test(identifier) && (await this.repo.author(Number(identifier))) !== undefined;
  }

  private async actor(ctx: Context<ContextData>, identifier: string): Promise<Vocab.Actor | null> {
    const { vocab } = this.fedify;
    const keys = await ctx.getActorKeyPairs(identifier);
    const common = {
      id: ctx.getActorUri(identifier),
      inbox: ctx.getInboxUri(identifier),
      outbox: ctx.getOutboxUri(identifier),
      followers: ctx.getFollowersUri(identifier),
      following: ctx.getFollowingUri(identifier),
      endpoints: new vocab.Endpoints({ sharedInbox: ctx.getInboxUri() }),
      publicKey: keys[0]?.cryptographicKey,
      assertionMethods: keys.map((key) => key.multikey),
      manuallyApprovesFollowers: false,
      discoverable: true,
      indexable: true,
    };
    if (identifier === SITE_ACTOR) {
      return new vocab.Service({
        ...common,
        preferredUsername: this.config.federation.siteHandle,
        name: this.host,
        summary: `Every post published on ${this.host}.`,
        url: new URL('/', this.config.publicUrl),
      });
    }
    if (!/^\d{1,9}$/.test(identifier)) return null;
    const author = await this.repo.author(Number(identifier));
    if (!author) return null;
    const avatar = this.absolute(author.avatar);
    return new vocab.Person({
      ...common,
      preferredUsername: fediverseUsername(author, this.config.federation.siteHandle),
      name: author.fullName,
      summary: author.bio ? `<p>${escapeHtml(author.bio)}</p>` : null,
      icon: avatar ? new vocab.Image({ url: avatar }) : null,
      url: new URL(`/authors/${author.slug}`, this.config.publicUrl),
      published: this.fedify.Temporal.Instant.fromEpochMilliseconds(new Date(author.createdAt).getTime()),
    });
  }

  /** Two key pairs per actor (RSA for HTTP Signatures, Ed25519 for Object Integrity Proofs), made once and stored, the private halves sealed. */
  private keyPairs(identifier: string): Promise<KeyPair[]> {
    let pairs = this.keyCache.get(identifier);
    if (!pairs) {
      pairs = this.loadKeyPairs(identifier).catch((error: unknown) => {
        this.keyCache.delete(identifier);
        throw error;
      });
      this.keyCache.set(identifier, pairs);
    }
    return pairs;
  }

  private async loadKeyPairs(identifier: string): Promise<KeyPair[]> {
    const { fedify } = this.fedify;
    let rows = await this.repo.keys(identifier);
    // Keys sealed with another secret (JWT_SECRET changed) cannot be used: new ones replace them
    // (remote servers fetch the actor again when a signature does not match the key they kept).
    if (rows.some((row) => this.box.open(row.private_sealed, `${identifier}:${row.algorithm}`) === null)) {
      this.logger.warn(`The keys of actor ${identifier} were sealed with another secret: new keys are made`);
      await this.repo.deleteKeys(identifier);
      rows = [];
    }
    if (rows.length < 2) {
      for (const algorithm of ['RSASSA-PKCS1-v1_5', 'Ed25519'] as const) {
        if (rows.some((row) => row.algorithm === algorithm)) continue;
        const pair = await fedify.generateCryptoKeyPair(algorithm);
        const privateJwk = await fedify.exportJwk(pair.privateKey);
        await this.repo.insertKey(
          identifier,
          algorithm,
          await fedify.exportJwk(pair.publicKey),
          this.box.seal(JSON.stringify(privateJwk), `${identifier}:${algorithm}`),
        );
      }
      rows = await this.repo.keys(identifier);
    }
    return Promise.all(
      rows.map(async (row) => {
        const opened = this.box.open(row.private_sealed, `${identifier}:${row.algorithm}`);
        if (!opened) throw new Error(`The key of actor ${identifier} cannot be opened (was JWT_SECRET changed?)`);
        return {
          publicKey: await fedify.importJwk(row.public_jwk, 'public'),
          privateKey: await fedify.importJwk(JSON.parse(opened) as JsonWebKey, 'private'),
        };
      }),
    );
  }

  articleUri(ctx: Context<ContextData>, postId: number): URL {
    return ctx.getObjectUri(this.fedify.vocab.Article, { id: String(postId) });
  }

  private article(ctx: Context<ContextData>, post: LocalPost): Vocab.Article {
    const { vocab, Temporal } = this.fedify;
    const image = this.absolute(post.thumbnail);
    return new vocab.Article({
      id: this.articleUri(ctx, post.id),
      attribution: ctx.getActorUri(String(post.authorId)),
      to: vocab.PUBLIC_COLLECTION,
      ccs: [ctx.getFollowersUri(String(post.authorId)), ctx.getFollowersUri(SITE_ACTOR)],
      name: post.title,
      content: post.contentHtml,
      mediaType: 'text/html',
      summary: post.summary ? escapeHtml(post.summary) : null,
      url: new URL(`/blog/${post.slug}`, this.config.publicUrl),
      published: post.publishedAt ? Temporal.Instant.fromEpochMilliseconds(new Date(post.publishedAt).getTime()) : null,
      updated: Temporal.Instant.fromEpochMilliseconds(new Date(post.updatedAt).getTime()),
      tags: post.tags.map(
        (tag) => new vocab.Hashtag({ href: new URL(`/tag/${tag.slug}`, this.config.publicUrl), name: `#${tag.name.replace(/\s+/g, '')}` }),
      ),
      image: image ? new vocab.Image({ url: image }) : null,
    });
  }

  /** A local comment on a published post, as a Note (replies to fediverse comments are sent as these). */
  private async localNote(id: number): Promise<LocalNote | undefined> {
    const rows = (await this.repo.dataSource.query(
      `SELECT c.id, c.content, c.created_at AS "createdAt", c.post_id AS "postId", c.user_id AS "userId", u.full_name AS "authorName",
              p.remote_uri AS "parentRemoteUri", p.remote_author->>'actor' AS "parentActor", c.parent_id AS "parentId"
         FROM comments c JOIN posts po ON po.id = c.post_id AND po.status = 'PUBLISHED'
         LEFT JOIN users u ON u.id = c.user_id LEFT JOIN comments p ON p.id = c.parent_id
        WHERE c.id = $1 AND c.remote_uri IS NULL AND c.deleted_at IS NULL AND c.moderation = 'VISIBLE'`,
      [id],
    )) as LocalNote[];
    return rows[0];
  }

  private async noteSender(note: LocalNote): Promise<string> {
    return note.userId !== null && (await this.repo.author(note.userId)) ? String(note.userId) : SITE_ACTOR;
  }

  private async note(ctx: Context<ContextData>, note: LocalNote, replyTo?: string | null): Promise<Vocab.Note> {
    const { vocab, Temporal } = this.fedify;
    const sender = await this.noteSender(note);
    const text = escapeHtml(note.content);
    const inReplyTo = replyTo ?? note.parentRemoteUri;
    return new vocab.Note({
      id: ctx.getObjectUri(vocab.Note, { id: String(note.id) }),
      attribution: ctx.getActorUri(sender),
      to: vocab.PUBLIC_COLLECTION,
      ccs: note.parentActor ? [new URL(note.parentActor)] : [],
      content: sender === SITE_ACTOR ? `<p><strong>${escapeHtml(note.authorName ?? 'A reader')}</strong>: ${text}</p>` : `<p>${text}</p>`,
      mediaType: 'text/html',
      replyTarget: inReplyTo ? new URL(inReplyTo) : this.articleUri(ctx, note.postId),
      url: new URL(`/ap/notes/${note.id}`, this.config.publicUrl),
      published: Temporal.Instant.fromEpochMilliseconds(new Date(note.createdAt).getTime()),
    });
  }

  // ---------------------------------------------------------------- coming in

  /** The remote actor of an activity, stored (or refreshed); null when it cannot be fetched or is blocked. */
  private async remoteActor(ctx: InboxContext<ContextData>, activity: Vocab.Activity): Promise<RemoteActorRow | null> {
    if (!activity.actorId || (await this.repo.isBlocked(activity.actorId.href))) return null;
    const actor = await activity.getActor(ctx);
    if (!actor?.id || !actor.inboxId || actor.id.href !== activity.actorId.href) return null;
    return this.storeActor(actor);
  }

  private async storeActor(actor: Vocab.Actor): Promise<RemoteActorRow> {
    const icon = await actor.getIcon().catch(() => null);
    const iconUrl = icon?.url instanceof URL ? icon.url.href : (icon?.url?.href?.href ?? null);
    const url = actor.url instanceof URL ? actor.url.href : (actor.url?.href?.href ?? null);
    const username = actor.preferredUsername?.toString() ?? null;
    return this.repo.upsertRemoteActor({
      uri: actor.id!.href,
      inbox: actor.inboxId!.href,
      sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
      handle: username ? `@${username}@${actor.id!.host}` : null,
      name: actor.name?.toString() ?? username,
      avatar: iconUrl,
      url,
    });
  }

  private async onFollow(ctx: InboxContext<ContextData>, follow: Vocab.Follow): Promise<void> {
    if (!follow.id || !follow.objectId) return;
    const target = ctx.parseUri(follow.objectId);
    if (target?.type !== 'actor' || !(await this.actorExists(target.identifier))) return;
    const follower = await this.remoteActor(ctx, follow);
    if (!follower) return;
    await this.repo.addFollower(target.identifier, follower.id, follow.id.href);
    const { vocab } = this.fedify;
    const accept = new vocab.Accept({
      id: new URL(`/ap/activities/${randomUUID()}`, this.config.publicUrl),
      actor: ctx.getActorUri(target.identifier),
      object: follow,
    });
    await this.repo.dataSource.transaction((manager) =>
      this.enqueue(manager, target.identifier, accept, [{ uri: follower.uri, inbox: follower.inbox }]),
    );
  }

  /** The Accept (or Reject) of a Follow one of our actors sent: the following becomes ACCEPTED (or goes). */
  private async onFollowAnswer(answer: Vocab.Accept | Vocab.Reject, accepted: boolean): Promise<void> {
    if (!answer.actorId || !answer.objectId) return;
    if (accepted) await this.repo.acceptFollowing(answer.objectId.href, answer.actorId.href);
    else await this.repo.rejectFollowing(answer.objectId.href, answer.actorId.href);
  }

  private async onUndo(ctx: InboxContext<ContextData>, undo: Vocab.Undo): Promise<void> {
    const { vocab } = this.fedify;
    if (!undo.actorId) return;
    const object = await undo.getObject(ctx);
    if (!(object instanceof vocab.Activity) || object.actorId?.href !== undo.actorId.href) return;
    const remote = await this.repo.remoteActorByUri(undo.actorId.href);
    if (!remote) return;
    if (object instanceof vocab.Follow) {
      const target = object.objectId ? ctx.parseUri(object.objectId) : null;
      if (target?.type === 'actor') await this.repo.removeFollower(target.identifier, remote.id);
    } else if ((object instanceof vocab.Like || object instanceof vocab.Announce) && object.id) {
      await this.repo.removeReaction(object.id.href, remote.id);
    }
  }

  /** The post (and comment) an object id names: our Article or post page, our Note, or a reply from the fediverse stored as a comment. */
  private async resolveTarget(ctx: Context<ContextData>, uri: URL): Promise<{ postId: number; commentId: number | null } | null> {
    const { vocab } = this.fedify;
    const parsed = ctx.parseUri(uri);
    if (parsed?.type === 'object' && parsed.class === vocab.Article) return { postId: Number(parsed.values.id), commentId: null };
    if (parsed?.type === 'object' && parsed.class === vocab.Note) {
      const note = await this.localNote(Number(parsed.values.id));
      return note ? { postId: note.postId, commentId: note.id } : null;
    }
    const origin = new URL(this.config.publicUrl).origin;
    if (uri.origin === origin) {
      const page = /^\/blog\/([^/]+)\/?$/.exec(uri.pathname);
      const post = page ? await this.repo.postBySlug(decodeURIComponent(page[1])) : undefined;
      return post ? { postId: post.id, commentId: null } : null;
    }
    const remote = await this.comments.findRemote(uri.href);
    return remote ? { postId: remote.postId, commentId: remote.id } : null;
  }

  private async onCreate(ctx: InboxContext<ContextData>, create: Vocab.Create): Promise<void> {
    const { vocab } = this.fedify;
    const object = await create.getObject(ctx);
    if (!(object instanceof vocab.Note) || !object.id || !object.replyTargetId) return;
    if (object.attributionId?.href !== create.actorId?.href) return;
    const target = await this.resolveTarget(ctx, object.replyTargetId);
    if (!target) return;
    const author = await this.remoteActor(ctx, create);
    if (!author) return;
    const content = noteText(object.content?.toString() ?? '');
    if (!content) return;
    const created = await this.comments.createRemote({
      postId: target.postId,
      repliedToId: target.commentId,
      content,
      remote: {
        uri: object.id.href,
        author: {
          actor: author.uri,
          name: author.name ?? author.handle ?? author.uri,
          handle: author.handle ?? author.uri,
          avatar: author.avatar,
          url: author.url,
        },
      },
    });
    if (created) this.logger.log(`Reply from ${author.handle ?? author.uri} held as comment ${created.id}`);
  }

  private async onUpdate(ctx: InboxContext<ContextData>, update: Vocab.Update): Promise<void> {
    const { vocab } = this.fedify;
    if (!update.actorId || (await this.repo.isBlocked(update.actorId.href))) return;
    const object = await update.getObject(ctx);
    if (object instanceof vocab.Note && object.id) {
      if (object.attributionId?.href !== update.actorId.href) return;
      const comment = await this.comments.findRemote(object.id.href);
      if (!comment || comment.actor !== update.actorId.href) return;
      const content = noteText(object.content?.toString() ?? '');
      if (content) await this.comments.editRemote(comment.id, content);
    } else if (object && 'inboxId' in object && object.id?.href === update.actorId.href) {
      if (await this.repo.remoteActorByUri(object.id.href)) await this.storeActor(object as Vocab.Actor);
    }
  }

  private async onDelete(ctx: InboxContext<ContextData>, del: Vocab.Delete): Promise<void> {
    if (!del.actorId || !del.objectId) return;
    const comment = await this.comments.findRemote(del.objectId.href);
    if (comment && comment.actor === del.actorId.href) await this.comments.deleteRemote(comment.id);
  }

  private async onReaction(
    ctx: InboxContext<ContextData>,
    activity: Vocab.Like | Vocab.Announce,
    kind: 'like' | 'announce',
  ): Promise<void> {
    if (!activity.id || !activity.objectId) return;
    const target = await this.resolveTarget(ctx, activity.objectId);
    if (!target || target.commentId !== null) return;
    const remote = await this.remoteActor(ctx, activity);
    if (!remote) return;
    await this.repo.addReaction(target.postId, remote.id, kind, activity.id.href);
  }

  // ---------------------------------------------------------------- going out

  /** Stores an activity and its deliveries, and enqueues one job per new delivery, with the caller's transaction. */
  async enqueue(manager: EntityManager, sender: string, activity: Vocab.Activity, recipients: Recipient[]): Promise<number> {
    if (!activity.id || !recipients.length) return 0;
    const body = await activity.toJsonLd({ format: 'compact' });
    const type = (body as { type?: string }).type ?? 'Activity';
    const ids = await this.repo.insertActivity(manager, { uri: activity.id.href, sender, type, body }, recipients);
    await this.jobs.enqueueMany(
      manager,
      this.queue,
      ids.map((deliveryId) => ({ deliveryId })),
    );
    return ids.length;
  }

  /**
   * One delivery, once the pacer gives it its turn: the activity's signed body (made once per
   * activity) POSTed to its inbox with this request's HTTP signature; a failure throws (the queue
   * retries with backoff).
   */
  private async deliver(deliveryId: string, lastAttempt: boolean): Promise<void> {
    await this.pacer.turn();
    const row = await this.repo.claimDelivery(deliveryId, this.config.jobs.expireSeconds);
    if (!row) return;
    try {
      if (row.blocked) throw new PermanentFailure('The recipient is blocked.');
      const target = await this.checkInbox(row.inbox);
      const body = await this.signedBody(row);
      await this.post(row, target, body);
      await this.repo.finishDelivery(deliveryId, null);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.repo.finishDelivery(deliveryId, message);
      if (error instanceof PermanentFailure || lastAttempt) return;
      throw error;
    }
  }

  private checkInbox(inbox: string): Promise<CheckedTarget> {
    return checkTarget(inbox, this.config.federation.allowPrivate).catch((error: unknown) => {
      throw new PermanentFailure(error instanceof UnsafeTargetError ? error.message : String(error));
    });
  }

  /**
   * The body every inbox of an activity gets, byte for byte: its JSON-LD with the Object
   * Integrity Proof (Ed25519) and the Linked Data Signature (RSA), as Fedify's sendActivity
   * prepares it (activity transformers, proof, compaction, its outgoing normalisation, signature).
   * Fedify prepares it once and hands it to its outbox queue; ours (preparedActivities()) only
   * catches it. Made on the activity's first delivery and stored on its row; every later delivery,
   * retry or process reads it there.
   */
  private signedBody(row: ClaimedDelivery): Promise<string> {
    if (row.signedBody !== null) return Promise.resolve(row.signedBody);
    let body = this.signedBodies.get(row.activityId);
    if (!body) {
      body = this.sign(row);
      this.signedBodies.set(row.activityId, body);
      body.catch(() => this.signedBodies.delete(row.activityId));
      if (this.signedBodies.size > SIGNED_BODIES_KEPT) this.signedBodies.delete(this.signedBodies.keys().next().value!);
    }
    return body;
  }

  private async sign(row: ClaimedDelivery): Promise<string> {
    const ctx = this.context();
    const activity = await this.fedify.vocab.Activity.fromJsonLd(row.body, {
      documentLoader: ctx.documentLoader,
      contextLoader: ctx.contextLoader,
    });
    const messages: unknown[] = [];
    await this.prepared.run(messages, () =>
      ctx.sendActivity({ identifier: row.sender }, { id: new URL(row.recipient), inboxId: new URL(row.inbox) }, activity),
    );
    const signed = (messages[0] as { activity?: unknown } | undefined)?.activity;
    if (!signed) throw new Error('Fedify prepared no signed activity.');
    return this.repo.storeSignedBody(row.activityId, JSON.stringify(signed));
  }

  /** The outbox queue given to Fedify: what it enqueues goes to the signing waiting for it, nothing is ever sent from it. */
  private preparedActivities(): MessageQueue {
    const take = (message: unknown) => {
      const into = this.prepared.getStore();
      if (!into) throw new Error('Activities are sent by the job queue, not by Fedify’s outbox queue.');
      into.push(message);
    };
    return {
      enqueue: (message) => Promise.resolve(take(message)),
      enqueueMany: (messages) => Promise.resolve(messages.forEach(take)),
      listen: () => Promise.reject(new Error('Fedify’s outbox queue is not started: the job queue sends.')),
    };
  }

  /** The sender's RSA key, which signs the requests (Fedify's key ids: the actor's `#main-key`). */
  private requestKey(sender: string): Promise<{ keyId: URL; privateKey: webcrypto.CryptoKey }> {
    let key = this.requestKeys.get(sender);
    if (!key) {
      key = this.context()
        .getActorKeyPairs(sender)
        .then((pairs) => {
          // (The pairs are the dispatcher's CryptoKeyPairs, with their key ids.)
          const rsa = (pairs as unknown as (KeyPair & { keyId: URL })[]).find(
            (pair) => pair.privateKey.algorithm.name === 'RSASSA-PKCS1-v1_5',
          );
          if (!rsa) throw new Error(`Actor ${sender} has no RSA key to sign requests with.`);
          return { keyId: rsa.keyId, privateKey: rsa.privateKey };
        });
      key.catch(() => this.requestKeys.delete(sender));
      this.requestKeys.set(sender, key);
    }
    return key;
  }

  /**
   * POSTs the signed body with an HTTP signature made for this request by Fedify's signRequest
   * (draft-cavage, which Mastodon, Misskey, Pleroma, GoToSocial and Fedify verify), to the address
   * checked (no second DNS lookup), as webhooks are sent. A 2xx is success; another answer throws
   * Fedify's SendActivityError (its message as Fedify's own sendActivity words it), no answer its
   * FetchError. Redirects are followed, each new address checked.
   */
  private async post(row: ClaimedDelivery, first: CheckedTarget, body: string): Promise<void> {
    const { fedify } = this.fedify;
    const key = await this.requestKey(row.sender);
    let target = first;
    // The body's bytes are handed to signRequest for its Digest (no Request body stream to clone and read).
    const bytes = Buffer.from(body);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    for (let redirects = 0; ; redirects++) {
      const request = await fedify.signRequest(
        new Request(target.url, { method: 'POST', headers: { 'Content-Type': 'application/activity+json' } }),
        key.privateKey,
        key.keyId,
        { spec: 'draft-cavage-http-signatures-12', body: buffer },
      );
      const headers: Record<string, string> = { 'Content-Length': String(bytes.length) };
      request.headers.forEach((value, name) => (headers[name] = value));
      let answer: Answer;
      try {
        answer = await postTo(target, headers, bytes, this.sendTimeoutMs());
      } catch (error) {
        throw new fedify.FetchError(target.url, error instanceof Error ? error.message : String(error));
      }
      if (answer.status >= 300 && answer.status < 400 && answer.location && redirects < MAX_REDIRECTS) {
        target = await this.checkInbox(new URL(answer.location, target.url).href);
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) return;
      throw new fedify.SendActivityError(
        target.url,
        answer.status,
        `Failed to send activity ${row.activityUri} to ${target.url.href} (${answer.status} ${answer.statusText}):\n${answer.text}`,
        answer.text,
        answer.headers,
      );
    }
  }

  /** A request waits at most half the job's expiry (a row being sent is taken again only after it): 30 s at most. */
  private sendTimeoutMs(): number {
    return Math.min(30_000, Math.max(1_000, (this.config.jobs.expireSeconds * 1000) / 2));
  }

  // ---------------------------------------------------------------- following (docs/federation.md#following)

  /**
   * A local actor follows an account of the fediverse (`@user@host`, looked up by WebFinger over
   * https, or its actor or profile address): the actor is fetched and stored, and a Follow is
   * stored and queued in one transaction. An account already followed is answered as it is.
   */
  async follow(actor: string, account: string): Promise<FollowingRow> {
    if (!(await this.enabled())) throw new FollowError('off');
    const ctx = this.context();
    const { vocab } = this.fedify;
    const target = await ctx.lookupObject(account).catch(() => null);
    if (!target || !(target instanceof vocab.Object) || !('inboxId' in target) || !target.id || !target.inboxId)
      throw new FollowError('not-found');
    if (target.id.origin === new URL(this.config.publicUrl).origin) throw new FollowError('local');
    if (await this.repo.isBlocked(target.id.href)) throw new FollowError('blocked');
    const remote = await this.storeActor(target as Vocab.Actor);
    const follow = new vocab.Follow({ id: this.newId(), actor: ctx.getActorUri(actor), object: target.id });
    await this.repo.dataSource.transaction(async (manager) => {
      const { created } = await this.repo.addFollowing(manager, actor, remote.id, follow.id!.href);
      if (created) await this.enqueue(manager, actor, follow, [{ uri: remote.uri, inbox: remote.inbox }]);
    });
    return (await this.repo.following(actor, remote.id))[0];
  }

  /** Stops following: the row goes and an Undo{Follow} is queued, in one transaction. False when not followed. */
  async unfollow(actor: string, remoteActorId: number): Promise<boolean> {
    const [row] = await this.repo.following(actor, remoteActorId);
    if (!row) return false;
    await this.repo.dataSource.transaction(async (manager) => {
      await this.repo.removeFollowing(manager, actor, remoteActorId);
      if (!(await this.enabled(manager))) return;
      const { vocab } = this.fedify;
      const ctx = this.context();
      const undo = new vocab.Undo({
        id: this.newId(),
        actor: ctx.getActorUri(actor),
        object: new vocab.Follow({ id: new URL(row.followUri), actor: ctx.getActorUri(actor), object: new URL(row.uri) }),
      });
      await this.enqueue(manager, actor, undo, [{ uri: row.uri, inbox: row.inbox }]);
    });
    return true;
  }

  // ---------------------------------------------------------------- what events send

  private newId(): URL {
    return new URL(`/ap/activities/${randomUUID()}`, this.config.publicUrl);
  }

  /** A post became public: Create{Article} from its author to the author's followers, Announce from the publication to its own. */
  async postPublished(manager: EntityManager, postId: number): Promise<void> {
    const post = await this.repo.post(postId, manager);
    if (!post || post.status !== 'PUBLISHED' || !(await this.repo.author(post.authorId, manager))) return;
    const { vocab, Temporal } = this.fedify;
    const ctx = this.context();
    const author = String(post.authorId);
    const article = this.article(ctx, post);
    const now = Temporal.Now.instant();
    const create = new vocab.Create({
      id: this.newId(),
      actor: ctx.getActorUri(author),
      object: article,
      to: vocab.PUBLIC_COLLECTION,
      ccs: [ctx.getFollowersUri(author)],
      published: now,
    });
    await this.enqueue(manager, author, create, await this.repo.followerInboxes([author], manager));
    const announce = new vocab.Announce({
      id: this.newId(),
      actor: ctx.getActorUri(SITE_ACTOR),
      object: article.id,
      to: vocab.PUBLIC_COLLECTION,
      ccs: [ctx.getFollowersUri(SITE_ACTOR)],
      published: now,
    });
    await this.enqueue(manager, SITE_ACTOR, announce, await this.repo.followerInboxes([SITE_ACTOR], manager));
  }

  /** A published post was edited: Update{Article}. */
  async postUpdated(manager: EntityManager, postId: number): Promise<void> {
    const post = await this.repo.post(postId, manager);
    if (!post || post.status !== 'PUBLISHED' || !(await this.repo.author(post.authorId, manager))) return;
    const { vocab } = this.fedify;
    const ctx = this.context();
    const author = String(post.authorId);
    const update = new vocab.Update({
      id: this.newId(),
      actor: ctx.getActorUri(author),
      object: this.article(ctx, post),
      to: vocab.PUBLIC_COLLECTION,
      ccs: [ctx.getFollowersUri(author)],
    });
    await this.enqueue(manager, author, update, await this.repo.followerInboxes([author, SITE_ACTOR], manager));
  }

  /** A public post stopped being public (unpublished, archived, deleted): Delete{Tombstone}. */
  async postWithdrawn(manager: EntityManager, postId: number, authorId: number): Promise<void> {
    const { vocab } = this.fedify;
    const ctx = this.context();
    const author = String(authorId);
    const del = new vocab.Delete({
      id: this.newId(),
      actor: ctx.getActorUri(author),
      object: new vocab.Tombstone({ id: this.articleUri(ctx, postId) }),
      to: vocab.PUBLIC_COLLECTION,
      ccs: [ctx.getFollowersUri(author)],
    });
    await this.enqueue(manager, author, del, await this.repo.followerInboxes([author, SITE_ACTOR], manager));
  }

  /** An author's name, bio or avatar changed: Update{Person}. */
  async profileChanged(manager: EntityManager, userId: number): Promise<void> {
    const author = String(userId);
    const recipients = await this.repo.followerInboxes([author], manager);
    if (!recipients.length || !(await this.repo.author(userId, manager))) return;
    const { vocab } = this.fedify;
    const ctx = this.context();
    const person = await this.actor(ctx, author);
    if (!person) return;
    const update = new vocab.Update({ id: this.newId(), actor: ctx.getActorUri(author), object: person, to: vocab.PUBLIC_COLLECTION });
    await this.enqueue(manager, author, update, recipients);
  }

  /** A local reply to a comment from the fediverse (visible): sent back as a Note to that comment's author. */
  async replyWritten(manager: EntityManager, commentId: number): Promise<void> {
    const rows = (await manager.query(
      `SELECT c.id, c.content, c.created_at AS "createdAt", c.post_id AS "postId", c.user_id AS "userId", u.full_name AS "authorName",
              p.remote_uri AS "parentRemoteUri", p.remote_author->>'actor' AS "parentActor", c.parent_id AS "parentId"
         FROM comments c JOIN comments p ON p.id = c.parent_id LEFT JOIN users u ON u.id = c.user_id
        WHERE c.id = $1 AND c.remote_uri IS NULL AND c.moderation = 'VISIBLE' AND p.remote_uri IS NOT NULL`,
      [commentId],
    )) as LocalNote[];
    const note = rows[0];
    if (!note?.parentActor) return;
    const remote = await this.repo.remoteActorByUri(note.parentActor);
    if (!remote) return;
    const { vocab } = this.fedify;
    const ctx = this.context();
    const object = await this.note(ctx, note);
    const sender = await this.noteSender(note);
    const create = new vocab.Create({
      id: this.newId(),
      actor: ctx.getActorUri(sender),
      object,
      to: vocab.PUBLIC_COLLECTION,
      ccs: [new URL(remote.uri)],
    });
    await this.enqueue(manager, sender, create, [{ uri: remote.uri, inbox: remote.inbox }]);
  }

  /** Blocks an instance or actor: its follows and reactions go, and so do its replies. */
  async block(kind: 'instance' | 'actor', value: string): Promise<{ id: number; kind: string; value: string; createdAt: Date }> {
    const row = await this.repo.addBlock(kind, value);
    await this.repo.dropBlocked(kind, value);
    for (const id of await this.repo.blockedComments(kind, value)) {
      await this.comments.deleteRemote(id).catch(() => undefined);
    }
    return row;
  }
}

/** A local comment as a Note needs it. */
interface LocalNote {
  id: number;
  content: string;
  createdAt: Date;
  postId: number;
  userId: number | null;
  authorName: string | null;
  parentId: number | null;
  parentRemoteUri: string | null;
  parentActor: string | null;
}

/** Why a follow cannot be sent: federation off, no actor at that address, a local account, a blocked one. */
export class FollowError extends Error {
  constructor(readonly reason: 'off' | 'not-found' | 'local' | 'blocked') {
    super(reason);
  }
}

/** A delivery that retrying cannot help (a blocked or unsafe recipient). */
class PermanentFailure extends Error {}

/** An inbox's answer: its status, and for an error its headers and the start of its body. */
interface Answer {
  status: number;
  statusText: string;
  location: string | null;
  headers: Headers;
  text: string;
}

/**
 * One POST to the address a target was checked at (the Host header and TLS name stay the URL's),
 * on a connection of its own, closed after it: an inbox gets one request per activity.
 */
function postTo(target: CheckedTarget, headers: Record<string, string>, body: Buffer, timeoutMs: number): Promise<Answer> {
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const req = client.request(
      target.url,
      { method: 'POST', headers, lookup: lookupOf(target), agent: false, timeout: timeoutMs },
      (res) => {
        const status = res.statusCode ?? 0;
        const answer = (text: string): Answer => {
          const received = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) received.set(name, String(value));
          return { status, statusText: res.statusMessage ?? '', location: res.headers.location ?? null, headers: received, text };
        };
        if (status >= 200 && status < 400) {
          const done = () => resolve(answer(''));
          res.resume();
          res.on('end', done);
          res.on('close', done);
          res.on('error', done);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => resolve(answer(Buffer.concat(chunks).toString('utf8')));
        res.on('data', (chunk: Buffer) => {
          if (size < ERROR_BODY_BYTES) chunks.push(chunk.subarray(0, ERROR_BODY_BYTES - size));
          size += chunk.length;
          // Enough read: the rest of a large error page is not kept.
          if (size >= ERROR_BODY_BYTES) res.destroy();
        });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`No answer within ${Math.round(timeoutMs / 1000)} s.`)));
    req.on('error', reject);
    req.end(body);
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

export type { RequestContext };
