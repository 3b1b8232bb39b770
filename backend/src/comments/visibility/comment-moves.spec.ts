import { COMMENT_MOVES, commentMove, CommentMove, CommentState, isCounted, MoveOutcome, VISIBILITIES } from './comment-moves';
import { countedComment } from './counted-comment';

/** A state by name: 'none' (no row), 'VISIBLE', 'HELD', 'HIDDEN', or '<visibility>/deleted' (a placeholder). */
type StateName = 'none' | 'VISIBLE' | 'HELD' | 'HIDDEN' | 'VISIBLE/deleted' | 'HELD/deleted' | 'HIDDEN/deleted';
const STATES: StateName[] = ['none', 'VISIBLE', 'HELD', 'HIDDEN', 'VISIBLE/deleted', 'HELD/deleted', 'HIDDEN/deleted'];

function stateNamed(name: StateName): CommentState | null {
  if (name === 'none') return null;
  const [visibility, deleted] = name.split('/');
  return { visibility: visibility as CommentState['visibility'], deleted: deleted === 'deleted' };
}

/** Expected: [next state, post comment_count delta, parent reply_count delta], or a refusal's name. */
type Expected = [StateName, number, number] | string;

/**
 * A placeholder (a deleted comment's row) refuses every move as 'missing' but a second create
 * ('exists') and removing its row, whose deltas are given.
 */
const placeholder = (remove: Expected): Record<CommentMove, Expected> => ({
  create: 'exists',
  hold: 'missing',
  edit: 'missing',
  approve: 'missing',
  hide: 'missing',
  restore: 'missing',
  delete: 'missing',
  remove,
});

/**
 * Every state × every move, written out by hand (not derived from the rule under test): what the
 * moderation rules do to the comment and to the post's comment_count (not deleted and
 * VISIBLE) and the parent's reply_count (VISIBLE rows, placeholders included).
 */
const TABLE: Record<StateName, Record<CommentMove, Expected>> = {
  none: {
    create: ['VISIBLE', 1, 1],
    hold: ['HELD', 0, 0],
    edit: 'missing',
    approve: 'missing',
    hide: 'missing',
    restore: 'missing',
    delete: 'missing',
    remove: 'missing',
  },
  VISIBLE: {
    create: 'exists',
    hold: ['HELD', -1, -1],
    edit: ['VISIBLE', 0, 0],
    approve: 'not-moderated',
    hide: ['HIDDEN', -1, -1],
    restore: 'not-moderated',
    delete: ['VISIBLE/deleted', -1, 0],
    remove: ['none', -1, -1],
  },
  HELD: {
    create: 'exists',
    hold: ['HELD', 0, 0],
    edit: ['HELD', 0, 0],
    approve: ['VISIBLE', 1, 1],
    hide: ['HIDDEN', 0, 0],
    restore: 'not-hidden',
    delete: ['HELD/deleted', 0, 0],
    remove: ['none', 0, 0],
  },
  HIDDEN: {
    create: 'exists',
    hold: 'hidden',
    edit: 'hidden',
    approve: 'not-held',
    hide: 'already-hidden',
    restore: ['VISIBLE', 1, 1],
    delete: ['HIDDEN/deleted', 0, 0],
    remove: ['none', 0, 0],
  },
  // A visible placeholder was counted in its parent's reply_count until its row goes.
  'VISIBLE/deleted': placeholder(['none', 0, -1]),
  'HELD/deleted': placeholder(['none', 0, 0]),
  'HIDDEN/deleted': placeholder(['none', 0, 0]),
};

const asExpected = (outcome: MoveOutcome): Expected => {
  if ('refused' in outcome) return outcome.refused;
  const to = outcome.to;
  const name = (to === null ? 'none' : to.deleted ? `${to.visibility}/deleted` : to.visibility) as StateName;
  // `+ 0` turns a -0 into 0 for toEqual.
  return [name, outcome.deltas.postComments + 0, outcome.deltas.parentReplies + 0];
};

describe('comment visibility moves', () => {
  it('lists every state and every move', () => {
    expect(STATES).toHaveLength(1 + VISIBILITIES.length * 2);
    expect(COMMENT_MOVES).toEqual(['create', 'hold', 'edit', 'approve', 'hide', 'restore', 'delete', 'remove']);
    for (const state of STATES) expect(Object.keys(TABLE[state]).sort()).toEqual([...COMMENT_MOVES].sort());
  });

  for (const state of STATES) {
    for (const move of COMMENT_MOVES) {
      const expected = TABLE[state][move];
      const says =
        typeof expected === 'string'
          ? `is refused (${expected})`
          : `→ ${expected[0]}, comment_count ${expected[1]}, reply_count ${expected[2]}`;
      it(`${state} × ${move} ${says}`, () => {
        expect(asExpected(commentMove(stateNamed(state), move))).toEqual(expected);
      });
    }
  }

  it('moves comment_count exactly when the comment enters or leaves "counted"', () => {
    for (const state of STATES) {
      for (const move of COMMENT_MOVES) {
        const outcome = commentMove(stateNamed(state), move);
        if ('refused' in outcome) continue;
        expect(outcome.deltas.postComments).toBe(Number(isCounted(outcome.to)) - Number(isCounted(stateNamed(state))));
      }
    }
  });

  it('writes "counted" in SQL once, with or without an alias', () => {
    expect(countedComment('c')).toBe("(c.deleted_at IS NULL AND c.moderation = 'VISIBLE')");
    expect(countedComment()).toBe("(deleted_at IS NULL AND moderation = 'VISIBLE')");
  });
});
