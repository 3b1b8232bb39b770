import { ConflictException, ForbiddenException, HttpException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AuthUser } from '../../auth/auth-user';
import { CLOCK, Clock } from '../../common/clock';
import { DomainEvent, EventActor, PostFacts, PostVia } from '../../events/domain-events';
import { DomainEvents, EventTransaction } from '../../events/domain-events.service';
import { RevisionKind } from '../../revisions/entities/post-revision.entity';
import { Post, PostStatus } from '../entities/post.entity';
import { PostsMessages } from '../posts.messages';
import { RevisionsService } from '../../revisions/revisions.service';
import { LifecycleMessages } from './lifecycle.messages';
import { PostActor, PostCommand, PostDecision, PostRefusal, PostState, decide } from './post-transitions';

/** Who asks: the kind the rules know, and the person (null: the scheduler). */
export interface LifecycleActor {
  kind: PostActor;
  user: Pick<AuthUser, 'id' | 'fullName'> | null;
}

/** The columns of a post the lifecycle reads under the row's lock. */
type LockedPost = Pick<
  Post,
  'id' | 'title' | 'slug' | 'authorId' | 'status' | 'version' | 'publishedAt' | 'scheduledAt' | 'scheduledBy' | 'requestedPublishAt'
>;

/** What a move writes besides the lifecycle's own columns, and the facts its events carry. */
export interface TransitionOptions {
  /** A save's text columns, written by the same UPDATE. */
  columns?: Partial<Post>;
  /** The version the caller's edit was based on: another version is 409 'changed elsewhere'. */
  expectedVersion?: number;
  /** approve with a time, reschedule. */
  publishAt?: Date;
  /** submit: the time the author asks for (replaces any earlier request). */
  requestedPublishAt?: Date | null;
  /** approve, reject: the review row that decided it. */
  reviewId?: number;
  /** reject: the reviewer's reason. */
  reason?: string;
  /** save: the revision kind it keeps (SAVE, or RESTORED for a revision restored). */
  revisionKind?: RevisionKind.SAVE | RevisionKind.RESTORED;
  /** save: the rest of the post's writes (its tags, slug history), after the row's and before the revision that keeps them. */
  alsoWrite?: (postId: number) => Promise<void>;
}

/** A historic post's own dates (a site import): kept as they were instead of now. */
export interface HistoricDates {
  createdAt?: Date | null;
  updatedAt?: Date | null;
  publishedAt?: Date | null;
  /** PENDING_REVIEW only: an approval waiting for its time (an Inkwell export's scheduled post). */
  scheduledAt?: Date | null;
}

/** Thrown inside a transaction when the stored version is not the one the edit was based on (rolls it back). */
export class StaleVersion extends Error {}

const LOCKED_COLUMNS =
  'id, title, slug, author_id AS "authorId", status, version, published_at AS "publishedAt", scheduled_at AS "scheduledAt", scheduled_by AS "scheduledBy", requested_publish_at AS "requestedPublishAt"';

/**
 * The one owner of a post's status (docs/architecture.md#one-owner, docs/architecture.md). Every move — save,
 * submit, review, schedule, the scheduler's publication, delete — goes through `transition()`,
 * which, inside the caller's event transaction: locks the row, decides by the pure table
 * (post-transitions.ts), writes status, schedule, `publishedAt`, `version` (and a save's text) in
 * one UPDATE, pins the revision and records the domain events. The audit log, notifications and
 * caches follow the events; nothing else writes those columns.
 */
@Injectable()
export class PostLifecycle {
  constructor(
    private readonly revisions: RevisionsService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  /** The table's decision, or the refusal's exception (409 for a wrong state, 403 for a wrong actor). */
  check(post: Pick<Post, 'status' | 'scheduledAt'>, command: PostCommand, actor: PostActor): PostState {
    const decision = decide(stateOf(post), command, actor);
    if (!decision.allowed) throw this.refusal(decision.refusal, post.status, command);
    return decision.next;
  }

  /** Whether the table allows it (no exception). */
  allows(post: Pick<Post, 'status' | 'scheduledAt'>, command: PostCommand, actor: PostActor): boolean {
    return decide(stateOf(post), command, actor).allowed;
  }

  /**
   * A new post, inserted with the status the table gives (authors: DRAFT; admins: DRAFT or a status
   * reachable from it), its first revision and its events. Returns the new id.
   */
  async create(
    tx: EventTransaction,
    values: Partial<Post> & { authorId: number },
    to: PostStatus | undefined,
    actor: LifecycleActor,
    alsoWrite?: TransitionOptions['alsoWrite'],
  ): Promise<number> {
    const next = this.check({ status: PostStatus.DRAFT, scheduledAt: null }, { type: 'save', to }, actor.kind);
    const now = this.clock.now();
    // A post published as it is written: one instant for both.
    const published = next.status === PostStatus.PUBLISHED ? { publishedAt: now, createdAt: now } : {};
    const saved = await tx.manager.save(Post, tx.manager.create(Post, { ...values, status: next.status, ...published }));
    await alsoWrite?.(saved.id);
    await this.revisions.record(tx.manager, saved.id, actor.user!.id, RevisionKind.SAVE);
    const facts = postFacts(saved);
    await tx.record({ name: 'post.created', actor: eventActor(actor), data: facts });
    if (next.status !== PostStatus.DRAFT) await tx.record(statusEvent(facts, null, 'update', actor));
    return saved.id;
  }

  /**
   * A historic post brought in by a site import (WordPress, Ghost, an Inkwell export): inserted
   * with its source's status, dates and slug as they were, its first revision and its events
   * (`via: import`; the importer runs inside DomainEvents.asHistoric, so no one is told). The one
   * way content is born in a status other than the table's (e.g. PENDING_REVIEW without a submit,
   * or published years ago): only an admin imports. A PUBLISHED, PRIVATE or ARCHIVED post without
   * a publication date gets its creation date; a post never public keeps none.
   */
  async createHistoric(
    tx: EventTransaction,
    values: Partial<Post> & { authorId: number },
    status: PostStatus,
    dates: HistoricDates,
    actor: LifecycleActor,
  ): Promise<number> {
    if (actor.kind !== 'admin' || !actor.user) throw new ForbiddenException(PostsMessages.FORBIDDEN_UPDATE);
    const createdAt = dates.createdAt ?? this.clock.now();
    const everPublic = status === PostStatus.PUBLISHED || status === PostStatus.PRIVATE || status === PostStatus.ARCHIVED;
    const publishedAt = dates.publishedAt ?? (status === PostStatus.PUBLISHED ? createdAt : null);
    const scheduled =
      status === PostStatus.PENDING_REVIEW && dates.scheduledAt
        ? { scheduledAt: dates.scheduledAt, scheduledBy: actor.user.id }
        : { scheduledAt: null, scheduledBy: null };
    const saved = await tx.manager.save(
      Post,
      tx.manager.create(Post, {
        ...values,
        status,
        createdAt,
        updatedAt: dates.updatedAt ?? createdAt,
        publishedAt: everPublic || dates.publishedAt ? publishedAt : null,
        ...scheduled,
      }),
    );
    await this.revisions.record(tx.manager, saved.id, actor.user.id, RevisionKind.SAVE);
    const facts = postFacts(saved);
    await tx.record({ name: 'post.created', actor: eventActor(actor), data: facts });
    if (status !== PostStatus.DRAFT) await tx.record(statusEvent(facts, null, 'import', actor));
    return saved.id;
  }

  /** A move that is the whole change: `transition()` in an event transaction of its own. */
  apply(id: number, command: PostCommand, actor: LifecycleActor, options: TransitionOptions = {}): Promise<LockedPost | undefined> {
    return this.events.transaction((tx) => this.transition(tx, id, command, actor, options));
  }

  /**
   * Applies `command` to post `id` inside `tx`; returns the post's columns after it. A refusal throws
   * (and rolls the transaction back); the scheduler's `publishDue` on a post no longer due returns
   * undefined instead.
   */
  async transition(
    tx: EventTransaction,
    id: number,
    command: PostCommand,
    actor: LifecycleActor,
    options: TransitionOptions = {},
  ): Promise<LockedPost | undefined> {
    const { manager } = tx;
    const before = await this.lock(manager, id);
    if (options.expectedVersion !== undefined && before.version !== options.expectedVersion) throw new StaleVersion();
    const decision: PostDecision = decide(stateOf(before), command, actor.kind);
    if (!decision.allowed) {
      if (decision.refusal === 'not-due') return undefined;
      throw this.refusal(decision.refusal, before.status, command);
    }
    if (command.type === 'publishDue' && before.scheduledAt!.getTime() > this.clock.now().getTime()) return undefined;
    if (command.type === 'delete') {
      // Recorded first: its in-transaction subscribers still see what goes with the post (the
      // likes whose readers' counts it lowers), and the delete follows in the same transaction.
      await tx.record({ name: 'post.deleted', actor: eventActor(actor), data: postFacts(before) });
      await manager.delete(Post, { id });
      return before;
    }
    if (command.type === 'preview') return before;

    const next = decision.next;
    const values: Partial<Post> = { ...options.columns, ...this.lifecycleColumns(before, next, command, actor, options) };
    // reschedule and cancel move only the time: the post's text and status stay, so an open editor's version does too.
    const bumps = command.type !== 'reschedule' && command.type !== 'cancelSchedule';
    await manager
      .createQueryBuilder()
      .update(Post)
      .set(bumps ? { ...values, version: () => 'version + 1' } : values)
      .where('id = :id', { id })
      .execute();
    await options.alsoWrite?.(id);
    const after = await this.lock(manager, id);
    await this.pinRevision(manager, id, command, actor, before, options);
    for (const event of this.eventsOf(before, after, command, actor, options)) await tx.record(event);
    return after;
  }

  /** The lifecycle's columns for a move: status, schedule, the author's requested time, publishedAt. */
  private lifecycleColumns(
    before: LockedPost,
    next: PostState,
    command: PostCommand,
    actor: LifecycleActor,
    options: TransitionOptions,
  ): Partial<Post> {
    const values: Partial<Post> = { status: next.status };
    if (!next.scheduled) Object.assign(values, { scheduledAt: null, scheduledBy: null });
    else if (options.publishAt) Object.assign(values, { scheduledAt: options.publishAt, scheduledBy: actor.user?.id ?? null });
    if (command.type === 'submit') values.requestedPublishAt = options.requestedPublishAt ?? null;
    if (next.status === PostStatus.PUBLISHED) {
      values.requestedPublishAt = null;
      // The scheduler publishes at the scheduled time; otherwise a post keeps its first publication date.
      if (command.type === 'publishDue') values.publishedAt = before.scheduledAt;
      else if (before.status !== PostStatus.PUBLISHED) values.publishedAt = before.publishedAt ?? this.clock.now();
    }
    return values;
  }

  /** Submissions and decisions keep the post's text as a pinned revision; a save keeps it as its own revision. */
  private async pinRevision(
    manager: EntityManager,
    id: number,
    command: PostCommand,
    actor: LifecycleActor,
    before: LockedPost,
    options: TransitionOptions,
  ): Promise<void> {
    switch (command.type) {
      case 'save':
        return this.revisions.record(manager, id, actor.user!.id, options.revisionKind ?? RevisionKind.SAVE);
      case 'submit':
        return this.revisions.pin(manager, id, RevisionKind.SUBMITTED, actor.user!.id);
      case 'approve':
        return this.revisions.pin(manager, id, RevisionKind.APPROVED, actor.user!.id);
      case 'reject':
        return this.revisions.pin(manager, id, RevisionKind.REJECTED, actor.user!.id);
      case 'publishDue':
        // The text that went public, in the name of the admin who scheduled it (or its author).
        return this.revisions.pin(manager, id, RevisionKind.APPROVED, before.scheduledBy ?? before.authorId);
      default:
        return undefined;
    }
  }

  /** The domain events of a move, in the order the audit log lists them. */
  private eventsOf(
    before: LockedPost,
    after: LockedPost,
    command: PostCommand,
    actor: LifecycleActor,
    options: TransitionOptions,
  ): DomainEvent[] {
    const data = postFacts(after);
    const who = eventActor(actor);
    const droppedSchedule = before.scheduledAt && !after.scheduledAt ? before.scheduledAt.toISOString() : undefined;
    switch (command.type) {
      case 'save': {
        const events: DomainEvent[] = [
          { name: 'post.updated', actor: who, data: { ...data, previousSlug: before.slug, previousStatus: before.status } },
        ];
        if (after.status !== before.status) events.push(statusEvent(data, before.status, 'update', actor));
        if (droppedSchedule)
          events.push({
            name: 'post.unscheduled',
            actor: who,
            data: { ...data, scheduledAt: droppedSchedule, via: 'update', to: after.status },
          });
        return events;
      }
      case 'submit':
        return [
          {
            name: 'post.submitted',
            actor: who,
            data: { ...data, previousStatus: before.status, requestedPublishAt: after.requestedPublishAt?.toISOString() ?? null },
          },
        ];
      case 'approve':
        if (command.scheduled) {
          return [
            {
              name: 'post.scheduled',
              actor: who,
              data: {
                ...data,
                previousStatus: before.status,
                publishAt: after.scheduledAt!.toISOString(),
                reviewId: options.reviewId!,
                requestedPublishAt: before.requestedPublishAt?.toISOString() ?? null,
              },
            },
          ];
        }
        return [
          {
            name: 'post.published',
            actor: who,
            data: {
              ...data,
              previousStatus: before.status,
              via: 'review',
              reviewId: options.reviewId,
              ...(droppedSchedule ? { droppedSchedule } : {}),
            },
          },
        ];
      case 'reject':
        return [
          {
            name: 'post.rejected',
            actor: who,
            data: {
              ...data,
              previousStatus: before.status,
              reviewId: options.reviewId!,
              reason: options.reason ?? '',
              ...(droppedSchedule ? { droppedSchedule } : {}),
            },
          },
        ];
      case 'reschedule':
        return [
          {
            name: 'post.rescheduled',
            actor: who,
            data: { ...data, publishAt: after.scheduledAt!.toISOString(), previousPublishAt: before.scheduledAt!.toISOString() },
          },
        ];
      case 'cancelSchedule':
        return [{ name: 'post.unscheduled', actor: who, data: { ...data, scheduledAt: droppedSchedule!, via: 'cancel' } }];
      case 'publishDue':
        return [
          {
            name: 'post.published',
            actor: null,
            data: {
              ...data,
              previousStatus: before.status,
              via: 'schedule',
              scheduledAt: before.scheduledAt!.toISOString(),
              scheduledBy: before.scheduledBy,
            },
          },
        ];
      default:
        return [];
    }
  }

  /**
   * Locks the post's row until the transaction ends and reads the lifecycle's columns; 404 when it
   * does not exist. A caller that writes a row referencing the post before its transition (a
   * review) locks first: two such transactions would otherwise each hold a key-share lock the
   * other's FOR UPDATE waits for.
   */
  async lock(manager: EntityManager, id: number): Promise<LockedPost> {
    const [row] = (await manager.query(`SELECT ${LOCKED_COLUMNS} FROM posts WHERE id = $1 FOR UPDATE`, [id])) as LockedPost[];
    if (!row) throw new NotFoundException(PostsMessages.notFoundById(id));
    return row;
  }

  private refusal(refusal: PostRefusal, status: PostStatus, command: PostCommand): HttpException {
    switch (refusal) {
      case 'illegal-transition':
        return new ConflictException(LifecycleMessages.illegalTransition(status, (command as { to: PostStatus }).to));
      case 'author-cannot-edit':
        return new ConflictException(LifecycleMessages.authorCannotEdit(status));
      case 'cannot-submit':
        return new ConflictException(LifecycleMessages.cannotSubmit(status));
      case 'cannot-approve':
        return new ConflictException(LifecycleMessages.cannotApprove(status));
      case 'cannot-reject':
        return new ConflictException(LifecycleMessages.cannotReject(status));
      case 'not-scheduled':
      case 'not-due':
        return new ConflictException(LifecycleMessages.NOT_SCHEDULED);
      case 'not-previewable':
        return new ConflictException(LifecycleMessages.notPreviewable(status));
      case 'cannot-delete':
        return new ForbiddenException(PostsMessages.FORBIDDEN_DELETE);
      case 'not-allowed':
        return new ForbiddenException(PostsMessages.FORBIDDEN_UPDATE);
    }
  }
}

export const stateOf = (post: Pick<Post, 'status' | 'scheduledAt'>): PostState => ({
  status: post.status,
  scheduled: post.status === PostStatus.PENDING_REVIEW && !!post.scheduledAt,
});

/** A post as its events name it. */
export function postFacts(post: LockedPost): PostFacts {
  return { postId: post.id, title: post.title, slug: post.slug, authorId: post.authorId, status: post.status, version: post.version };
}

function eventActor(actor: LifecycleActor): EventActor | null {
  return actor.user ? { id: actor.user.id, name: actor.user.fullName } : null;
}

/** A status move as its event: public now, public no more, or any other move. */
function statusEvent(data: PostFacts, previousStatus: PostStatus | null, via: PostVia, actor: LifecycleActor): DomainEvent {
  const who = eventActor(actor);
  if (data.status === PostStatus.PUBLISHED) return { name: 'post.published', actor: who, data: { ...data, previousStatus, via } };
  if (previousStatus === PostStatus.PUBLISHED) return { name: 'post.unpublished', actor: who, data: { ...data, previousStatus, via } };
  return { name: 'post.status_changed', actor: who, data: { ...data, previousStatus, via } };
}
