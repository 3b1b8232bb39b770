import { ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../auth/auth-user';
import type { CommentFacts, EventActor } from '../../events/domain-events';
import { DomainEvents, EventTransaction } from '../../events/domain-events.service';
import type { CommentRow } from '../comment.mapper';
import { CommentsMessages } from '../comments.messages';
import { CommentLockRow, CommentsRepository, PostRef } from '../comments.repository';
import { CommentModeration, RemoteCommentAuthor } from '../entities/comment.entity';
import { commentMove, CommentMove, CommentState, CounterDeltas, MoveRefusal } from './comment-moves';

/** A comment under its locks (its post's row, then its own), with its post. */
export interface LockedComment {
  comment: CommentLockRow;
  post: PostRef;
}

/** A comment about to be written, its post and the comment it answers already locked (CommentsService.create). */
export interface NewComment {
  postId: number;
  /** Null for a reply from the fediverse (then `remote` says who wrote it). */
  userId: number | null;
  /** A reply from the fediverse: its Note's id and remote author (docs/federation.md). */
  remote?: { uri: string; author: RemoteCommentAuthor };
  /** Where it is stored: the comment answered, or that comment's parent for a reply to level 3. */
  parentId: number | null;
  /** The comment answered (null for a top-level comment). */
  repliedToId: number | null;
  level: number;
  content: string;
  /** The holding rule it meets: written HELD. */
  holdReason: string | null;
  /** A historic comment's own time (a site import); now otherwise. */
  createdAt?: Date;
}

/** A move on a comment that exists, with what it needs. */
export type MoveRequest =
  /** New text; `holdReason` when the holding rules catch it (a VISIBLE comment becomes HELD). */
  | { move: 'edit'; content: string; holdReason: string | null }
  | { move: 'approve' }
  | { move: 'restore' }
  | { move: 'hide'; reason: string; by: 'ADMIN' | 'POST_AUTHOR' }
  /** Deleted: a placeholder when replies are under it, otherwise its row goes (and every placeholder above it left without replies). */
  | { move: 'delete'; via: 'thread' | 'moderation-queue' };

/** Turns a refused move into the caller's answer (its own texts); unmapped refusals get the defaults below. */
export type RefusalAnswer = (refusal: MoveRefusal) => Error | undefined;

export const actorOf = (user: Pick<AuthUser, 'id' | 'fullName'>): EventActor => ({ id: user.id, name: user.fullName });

const stateOf = (row: Pick<CommentLockRow, 'moderation' | 'deleted_at'>): CommentState => ({
  visibility: row.moderation,
  deleted: row.deleted_at !== null,
});

/** A comment as its events name it, in state `state`. */
export function commentFacts(
  comment: Pick<CommentLockRow, 'id' | 'post_id' | 'parent_id' | 'user_id'>,
  post: PostRef,
  state: CommentState,
): CommentFacts {
  return {
    commentId: comment.id,
    postId: comment.post_id,
    postSlug: post.slug,
    parentId: comment.parent_id,
    authorId: comment.user_id,
    visibility: state.visibility,
    deleted: state.deleted,
  };
}

function defaultRefusal(refusal: MoveRefusal): Error {
  if (refusal === 'missing') return new NotFoundException(CommentsMessages.NOT_FOUND);
  if (refusal === 'hidden') return new ForbiddenException(CommentsMessages.HIDDEN_NO_EDIT);
  return new ConflictException(`The comment cannot make this move (${refusal}).`);
}

/**
 * The one owner of a comment's visibility (VISIBLE, HELD, HIDDEN, deleted) and of the counters
 * that count it (docs/architecture.md#one-owner): every move is looked up in the pure table
 * (comment-moves.ts), then its columns (`moderation`, the hiding's reason, `deleted_at`, the row
 * itself), the post's `comment_count` and the parent's `reply_count` are written and its domain
 * event recorded, in the caller's transaction. Nothing else writes those columns or counters.
 * CommentsService (write, edit, delete) and ModerationService (hide, approve, restore, delete,
 * dismiss) call it; the audit log, notifications and caches hear the events.
 *
 * Locks, in the comment writers' order (a post's deletion takes the post first too): the post's
 * row (FOR NO KEY UPDATE, the lock its counter update needs), then the comment rows, child before
 * parent, so concurrent writers never deadlock or lose a count.
 */
@Injectable()
export class CommentVisibility {
  constructor(
    private readonly events: DomainEvents,
    private readonly comments: CommentsRepository,
  ) {}

  /** A transaction whose events are recorded (for a create, which locks its own rows first). */
  transaction<T>(work: (tx: EventTransaction) => Promise<T>): Promise<T> {
    return this.events.transaction(work);
  }

  /** Runs `work` in one transaction with the comment and its post locked; 404 for a comment that is gone or deleted. */
  locked<T>(id: number, work: (tx: EventTransaction, locked: LockedComment) => Promise<T>): Promise<T> {
    return this.events.transaction(async (tx) => work(tx, await this.lock(tx.manager, id)));
  }

  /**
   * One move in one transaction: the comment locked, `decide` checks the caller's rules and names
   * the move, the move is applied (columns, counters, event). A refused move throws `refused`'s
   * answer, or the default (404 'Comment not found.', 403 for editing a hidden comment).
   */
  async move(
    id: number,
    actor: EventActor | null,
    decide: (locked: LockedComment, manager: EntityManager) => MoveRequest | Promise<MoveRequest>,
    refused?: RefusalAnswer,
  ): Promise<LockedComment> {
    return this.locked(id, async (tx, locked) => {
      await this.apply(tx, locked, await decide(locked, tx.manager), actor, refused);
      return locked;
    });
  }

  /** The post's row, then the comment's, locked; 404 when either is gone or the comment is deleted. */
  async lock(manager: EntityManager, id: number): Promise<LockedComment> {
    const postId = await this.comments.postIdOf(manager, id);
    if (postId === undefined) throw new NotFoundException(CommentsMessages.NOT_FOUND);
    const post = await this.comments.lockPost(manager, postId);
    const comment = await this.comments.lock(manager, id);
    if (!post || !comment || comment.deleted_at) throw new NotFoundException(CommentsMessages.NOT_FOUND);
    return { comment, post };
  }

  /** Writes a new comment (VISIBLE, or HELD when `holdReason`), its counters and `comment.created`; its post and reply target are locked by the caller. */
  async create(tx: EventTransaction, post: PostRef, values: NewComment, actor: EventActor | null): Promise<CommentRow> {
    const outcome = commentMove(null, values.holdReason ? 'hold' : 'create');
    if ('refused' in outcome || !outcome.to) throw defaultRefusal('exists');
    await this.moveCounters(tx.manager, post.id, values.parentId, outcome.deltas);
    const row = await this.comments.insert(tx.manager, { ...values, moderation: outcome.to.visibility as CommentModeration });
    const facts = commentFacts({ id: row.id, post_id: post.id, parent_id: values.parentId, user_id: values.userId }, post, outcome.to);
    await tx.record({
      name: 'comment.created',
      actor,
      data: { ...facts, repliedToId: values.repliedToId, ...(values.holdReason ? { holdReason: values.holdReason } : {}) },
    });
    return row;
  }

  /**
   * An erased account's comments are given to the '[deleted user]' placeholder, in
   * the erasure's transaction: every comment keeps its text, visibility, place and replies, so no
   * counter moves and the threads stay whole; only the name shown changes. Answers how many.
   */
  async reassignAuthor(manager: EntityManager, fromUserId: number, toUserId: number): Promise<number> {
    return this.comments.reassignAuthor(manager, fromUserId, toUserId);
  }

  /** Applies one move to a locked comment (see `move`); returns its state after. */
  async apply(
    tx: EventTransaction,
    locked: LockedComment,
    request: MoveRequest,
    actor: EventActor | null,
    refused?: RefusalAnswer,
  ): Promise<CommentState | null> {
    const { manager } = tx;
    const { comment, post } = locked;
    const from = stateOf(comment);
    const placeholder = request.move === 'delete' && (await this.comments.hasReplies(manager, comment.id));
    const move: CommentMove =
      request.move === 'delete'
        ? placeholder
          ? 'delete'
          : 'remove'
        : request.move === 'edit' && request.holdReason
          ? 'hold'
          : request.move;
    const outcome = commentMove(from, move);
    if ('refused' in outcome) throw refused?.(outcome.refused) ?? defaultRefusal(outcome.refused);
    const to = outcome.to;
    const facts = commentFacts(comment, post, to ?? { ...from, deleted: true });
    switch (request.move) {
      case 'edit':
        if (!(await this.comments.updateContent(comment.id, request.content, manager)))
          throw new NotFoundException(CommentsMessages.NOT_FOUND);
        if (move === 'hold' && from.visibility !== 'HELD') await this.comments.setHeld(manager, comment.id);
        await this.moveCounters(manager, post.id, comment.parent_id, outcome.deltas);
        await tx.record({
          name: 'comment.updated',
          actor,
          data: { ...facts, ...(request.holdReason ? { holdReason: request.holdReason } : {}) },
        });
        break;
      case 'approve':
      case 'restore':
        await this.comments.setVisible(manager, comment.id);
        await this.moveCounters(manager, post.id, comment.parent_id, outcome.deltas);
        await tx.record({ name: request.move === 'approve' ? 'comment.approved' : 'comment.restored', actor, data: facts });
        break;
      case 'hide':
        await this.comments.setHidden(manager, comment.id, request.reason, actor?.id ?? null);
        await this.moveCounters(manager, post.id, comment.parent_id, outcome.deltas);
        await tx.record({
          name: 'comment.hidden',
          actor,
          data: { ...facts, reason: request.reason, by: request.by, previousVisibility: from.visibility },
        });
        break;
      case 'delete':
        await this.delete(manager, locked, placeholder, outcome.deltas);
        await tx.record({
          name: 'comment.deleted',
          actor,
          data: {
            ...facts,
            previousVisibility: from.visibility,
            placeholder,
            via: request.via,
            ...(request.via === 'moderation-queue' ? { content: comment.content } : {}),
          },
        });
        break;
    }
    return to;
  }

  /**
   * A comment with replies becomes a placeholder (text wiped, it keeps its place in its parent's
   * reply_count when it was counted there). One without replies is removed, and so is every
   * placeholder above it left without replies; each removed row leaves its parent's reply_count
   * when it was counted there (the table's `remove`).
   */
  private async delete(
    manager: EntityManager,
    { comment, post }: LockedComment,
    placeholder: boolean,
    deltas: CounterDeltas,
  ): Promise<void> {
    if (placeholder) {
      await this.comments.markDeleted(manager, comment.id);
      await this.moveCounters(manager, post.id, comment.parent_id, deltas);
      return;
    }
    await this.comments.deleteRow(manager, comment.id);
    // The post's count first (the table's delta), then up the thread: each parent's reply_count update locks its row, child before parent.
    await this.moveCounters(manager, post.id, null, { postComments: deltas.postComments, parentReplies: 0 });
    let removed: Pick<CommentLockRow, 'parent_id'> = comment;
    let parentReplies = deltas.parentReplies;
    while (removed.parent_id !== null) {
      const parent = await this.comments.addToReplyCount(manager, removed.parent_id, parentReplies);
      if (!parent || !parent.deleted_at || (await this.comments.hasReplies(manager, parent.id))) break;
      const outcome = commentMove(stateOf(parent), 'remove');
      if ('refused' in outcome) break;
      await this.comments.deleteRow(manager, parent.id);
      await this.moveCounters(manager, post.id, null, { postComments: outcome.deltas.postComments, parentReplies: 0 });
      removed = parent;
      parentReplies = outcome.deltas.parentReplies;
    }
  }

  /** The deltas of a move: the post's comment_count, then the parent's reply_count (skipped when 0; the rows are locked already). */
  private async moveCounters(manager: EntityManager, postId: number, parentId: number | null, deltas: CounterDeltas): Promise<void> {
    if (deltas.postComments) await this.comments.addToPostComments(manager, postId, deltas.postComments);
    if (parentId !== null && deltas.parentReplies) await this.comments.addToReplyCount(manager, parentId, deltas.parentReplies);
  }
}
