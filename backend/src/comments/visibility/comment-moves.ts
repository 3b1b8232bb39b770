/**
 * Comment visibility as a pure table (docs/architecture.md#one-owner): from a comment's state and a
 * move, its next state and how the counters that count it change. No database, no clock:
 * CommentVisibility applies what this answers, and nothing else writes a comment's moderation,
 * its deletion, the post's comment_count or a parent's reply_count.
 *
 * The counters:
 * - the post's `comment_count` counts comments that are not deleted and VISIBLE (`isCounted`,
 *   the same rule as the SQL `countedComment()`);
 * - a comment's `reply_count` counts the VISIBLE reply rows right under it, deleted placeholders
 *   included (a placeholder keeps its place in its parent's count until its row goes).
 */

export type Visibility = 'VISIBLE' | 'HELD' | 'HIDDEN';
export const VISIBILITIES: readonly Visibility[] = ['VISIBLE', 'HELD', 'HIDDEN'];

/** A comment row as the moves see it; null before it is written and after its row is removed. */
export interface CommentState {
  visibility: Visibility;
  /** A placeholder: deleted, its row kept for its replies. */
  deleted: boolean;
}

/**
 * - create: a new comment the holding rules let through (VISIBLE);
 * - hold: a new comment, or an edit of a VISIBLE one, the holding rules catch (HELD);
 * - edit: new text, same visibility;
 * - approve: a moderator publishes a HELD comment;
 * - hide: a moderator (or the post's author) hides a VISIBLE or HELD comment;
 * - restore: a moderator shows a HIDDEN comment again;
 * - delete: deleted with replies under it (the row stays as a placeholder);
 * - remove: the row goes (deleted without replies, or a placeholder left without replies).
 */
export type CommentMove = 'create' | 'hold' | 'edit' | 'approve' | 'hide' | 'restore' | 'delete' | 'remove';
export const COMMENT_MOVES: readonly CommentMove[] = ['create', 'hold', 'edit', 'approve', 'hide', 'restore', 'delete', 'remove'];

/** How a move changes the counters: the post's comment_count and the parent's reply_count (0 for a top-level comment's missing parent). */
export interface CounterDeltas {
  postComments: number;
  parentReplies: number;
}

/**
 * Why a move is refused: `missing` (no such live comment: 404), `exists` (a create of a row that
 * is there: a programming error), `hidden` (a hidden comment cannot be edited: 403),
 * `already-hidden` and `not-moderated` (409), `not-held` / `not-hidden` (approve of a comment
 * that is not HELD, restore of one that is not HIDDEN).
 */
export type MoveRefusal = 'missing' | 'exists' | 'hidden' | 'already-hidden' | 'not-moderated' | 'not-held' | 'not-hidden';

export type MoveOutcome = { to: CommentState | null; deltas: CounterDeltas } | { refused: MoveRefusal };

/** Whether the comment counts in its post's comment_count: not deleted and VISIBLE (SQL: `countedComment()`). */
export const isCounted = (state: CommentState | null): boolean => !!state && !state.deleted && state.visibility === 'VISIBLE';

/** Whether its row counts in its parent's reply_count: VISIBLE, placeholders included. */
export const countsAsReply = (state: CommentState | null): boolean => !!state && state.visibility === 'VISIBLE';

const NEW_VISIBILITY: Partial<Record<CommentMove, (from: Visibility) => Visibility | MoveRefusal>> = {
  hold: (from) => (from === 'HIDDEN' ? 'hidden' : 'HELD'),
  edit: (from) => (from === 'HIDDEN' ? 'hidden' : from),
  approve: (from) => (from === 'HELD' ? 'VISIBLE' : from === 'VISIBLE' ? 'not-moderated' : 'not-held'),
  hide: (from) => (from === 'HIDDEN' ? 'already-hidden' : 'HIDDEN'),
  restore: (from) => (from === 'HIDDEN' ? 'VISIBLE' : from === 'VISIBLE' ? 'not-moderated' : 'not-hidden'),
};

/** The counters' change between two states: each counter moves by one when the comment enters or leaves it. */
function deltasBetween(from: CommentState | null, to: CommentState | null): CounterDeltas {
  return {
    postComments: Number(isCounted(to)) - Number(isCounted(from)),
    parentReplies: Number(countsAsReply(to)) - Number(countsAsReply(from)),
  };
}

/** The next state of a comment and its counter deltas, or why the move is refused. */
export function commentMove(from: CommentState | null, move: CommentMove): MoveOutcome {
  let to: CommentState | null;
  if (from === null) {
    // Only a new comment starts from nothing; every other move needs a row.
    if (move === 'create') to = { visibility: 'VISIBLE', deleted: false };
    else if (move === 'hold') to = { visibility: 'HELD', deleted: false };
    else return { refused: 'missing' };
  } else if (move === 'create') {
    return { refused: 'exists' };
  } else if (move === 'remove') {
    to = null;
  } else if (from.deleted) {
    // A placeholder is gone for every move but its removal.
    return { refused: 'missing' };
  } else if (move === 'delete') {
    to = { visibility: from.visibility, deleted: true };
  } else {
    const next = (NEW_VISIBILITY[move] as (from: Visibility) => Visibility | MoveRefusal)(from.visibility);
    if (!VISIBILITIES.includes(next as Visibility)) return { refused: next as MoveRefusal };
    to = { visibility: next as Visibility, deleted: false };
  }
  return { to, deltas: deltasBetween(from, to) };
}
