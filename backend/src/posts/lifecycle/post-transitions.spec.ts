import { PostStatus } from '../entities/post.entity';
import {
  ADMIN_STATUS_MOVES,
  POST_ACTIONS,
  PostAction,
  PostActor,
  PostCommand,
  PostState,
  allowedActions,
  decide,
} from './post-transitions';

const STATUSES = Object.values(PostStatus);
const ACTORS: PostActor[] = ['admin', 'author', 'system'];
/** Every state a post can be in: each status, and PENDING_REVIEW also scheduled. */
const STATES: PostState[] = [
  ...STATUSES.map((status) => ({ status, scheduled: false })),
  { status: PostStatus.PENDING_REVIEW, scheduled: true },
];
const COMMANDS: PostCommand[] = [
  { type: 'save' },
  ...STATUSES.map((to): PostCommand => ({ type: 'save', to })),
  { type: 'submit' },
  { type: 'approve', scheduled: false },
  { type: 'approve', scheduled: true },
  { type: 'reject' },
  { type: 'reschedule' },
  { type: 'cancelSchedule' },
  { type: 'publishDue' },
  { type: 'delete' },
  { type: 'preview' },
];

const label = (state: PostState) => `${state.status}${state.scheduled ? '+scheduled' : ''}`;
const describeCommand = (command: PostCommand) =>
  command.type === 'save' && command.to
    ? `save→${command.to}`
    : command.type === 'approve' && command.scheduled
      ? 'approve@time'
      : command.type;

/**
 * The expected outcome of every (state, command, actor), written as the spec and the scheduling rules state
 * them, independently of the table's own code: 'refused:<why>' or the next state.
 */
function expected(state: PostState, command: PostCommand, actor: PostActor): string {
  const { status, scheduled } = state;
  const ownedByAuthor = status === 'DRAFT' || status === 'REJECTED';
  const at = (next: string, nextScheduled = false) => `${next}${nextScheduled ? '+scheduled' : ''}`;
  switch (command.type) {
    case 'save':
      if (actor === 'system') return 'refused:not-allowed';
      if (actor === 'author') return ownedByAuthor ? at('DRAFT') : 'refused:author-cannot-edit';
      if (!command.to || command.to === status) return at(status, scheduled);
      return ADMIN_STATUS_MOVES[status].includes(command.to) ? at(command.to) : 'refused:illegal-transition';
    case 'submit':
      if (actor === 'system') return 'refused:not-allowed';
      return ownedByAuthor ? at('PENDING_REVIEW') : 'refused:cannot-submit';
    case 'approve':
      if (actor !== 'admin') return 'refused:not-allowed';
      if (status !== 'PENDING_REVIEW' && status !== 'REJECTED') return 'refused:cannot-approve';
      return command.scheduled ? at('PENDING_REVIEW', true) : at('PUBLISHED');
    case 'reject':
      if (actor !== 'admin') return 'refused:not-allowed';
      return status === 'PENDING_REVIEW' ? at('REJECTED') : 'refused:cannot-reject';
    case 'reschedule':
      if (actor !== 'admin') return 'refused:not-allowed';
      return scheduled ? at('PENDING_REVIEW', true) : 'refused:not-scheduled';
    case 'cancelSchedule':
      if (actor !== 'admin') return 'refused:not-allowed';
      return scheduled ? at('PENDING_REVIEW') : 'refused:not-scheduled';
    case 'publishDue':
      if (actor !== 'system') return 'refused:not-allowed';
      return scheduled ? at('PUBLISHED') : 'refused:not-due';
    case 'delete':
      if (actor === 'admin') return at(status, scheduled);
      return actor === 'author' && ownedByAuthor ? at(status, scheduled) : 'refused:cannot-delete';
    case 'preview':
      if (actor === 'system') return 'refused:not-allowed';
      return ['DRAFT', 'PENDING_REVIEW', 'REJECTED'].includes(status) ? at(status, scheduled) : 'refused:not-previewable';
  }
}

describe('post transition table', () => {
  const cases = STATES.flatMap((state) => COMMANDS.flatMap((command) => ACTORS.map((actor) => [state, command, actor] as const)));

  it(`walks every case (${cases.length} = ${STATES.length} states × ${COMMANDS.length} commands × ${ACTORS.length} actors)`, () => {
    expect(cases).toHaveLength(7 * 16 * 3);
    for (const [state, command, actor] of cases) {
      const decision = decide(state, command, actor);
      const got = decision.allowed ? label(decision.next) : `refused:${decision.refusal}`;
      expect(`${label(state)} ${describeCommand(command)} by ${actor}: ${got}`).toBe(
        `${label(state)} ${describeCommand(command)} by ${actor}: ${expected(state, command, actor)}`,
      );
    }
  });

  it('never reaches PENDING_REVIEW or REJECTED through a save', () => {
    for (const state of STATES)
      for (const to of [PostStatus.PENDING_REVIEW, PostStatus.REJECTED])
        if (to !== state.status) expect(decide(state, { type: 'save', to }, 'admin').allowed).toBe(false);
  });

  it('a status change always drops a schedule; an edit that keeps the status keeps it', () => {
    const scheduled: PostState = { status: PostStatus.PENDING_REVIEW, scheduled: true };
    expect(decide(scheduled, { type: 'save' }, 'admin')).toEqual({ allowed: true, next: scheduled });
    expect(decide(scheduled, { type: 'save', to: PostStatus.DRAFT }, 'admin')).toEqual({
      allowed: true,
      next: { status: PostStatus.DRAFT, scheduled: false },
    });
    expect(decide(scheduled, { type: 'approve', scheduled: false }, 'admin')).toEqual({
      allowed: true,
      next: { status: PostStatus.PUBLISHED, scheduled: false },
    });
    expect(decide(scheduled, { type: 'reject' }, 'admin')).toEqual({
      allowed: true,
      next: { status: PostStatus.REJECTED, scheduled: false },
    });
  });
});

describe('allowedActions', () => {
  it('an author on their DRAFT: edit, autosave, delete, submit, preview', () => {
    expect(allowedActions({ status: PostStatus.DRAFT, scheduled: false }, 'author')).toEqual([
      'edit',
      'delete',
      'submit',
      'preview',
      'autosave',
    ]);
  });

  it('an author on their PUBLISHED or PENDING_REVIEW post: nothing but a preview while it is pending', () => {
    expect(allowedActions({ status: PostStatus.PUBLISHED, scheduled: false }, 'author')).toEqual([]);
    expect(allowedActions({ status: PostStatus.PENDING_REVIEW, scheduled: false }, 'author')).toEqual(['preview']);
  });

  it('an admin on a scheduled post: every action but submit (not their post), autosave and the status moves to PRIVATE or ARCHIVED', () => {
    const refused: PostAction[] = ['submit', 'autosave', 'setStatus:PRIVATE', 'setStatus:ARCHIVED'];
    expect(allowedActions({ status: PostStatus.PENDING_REVIEW, scheduled: true }, 'admin')).toEqual(
      POST_ACTIONS.filter((action) => !refused.includes(action)),
    );
  });

  it("an admin submits only a post of their own; the status moves are exactly the admin's table", () => {
    const draft = { status: PostStatus.DRAFT, scheduled: false };
    expect(allowedActions(draft, 'admin')).not.toContain('submit');
    expect(allowedActions(draft, 'admin', true)).toContain('submit');
    for (const status of STATUSES) {
      const moves = allowedActions({ status, scheduled: false }, 'admin')
        .filter((action) => action.startsWith('setStatus:'))
        .map((action) => action.slice('setStatus:'.length));
      expect(moves.sort()).toEqual([...ADMIN_STATUS_MOVES[status]].sort());
    }
  });
});
