/**
 * The post lifecycle's rules, and nothing else (no database, no Nest): which command moves a post
 * from which state to which, for whom (docs/requirements.md#states, docs/requirements.md#validation, docs/requirements.md#decisions, the scheduling). The
 * service that applies a decision is PostLifecycle (post-lifecycle.service.ts); the frontend reads
 * the outcome as the `allowedActions` of a post answer and keeps no copy of these rules.
 */
import { PostStatus } from '../entities/post.entity';

/** A post's state as the rules see it: its status, and whether an approval is waiting for its time. */
export interface PostState {
  status: PostStatus;
  /** An approved post waiting for its publish time (PENDING_REVIEW with `scheduledAt`). */
  scheduled: boolean;
}

/**
 * Who acts: an administrator; the post's author (an author acting on a post of their own, through
 * the author endpoints); the scheduler. Whether the caller owns the post is checked before the
 * rules (403), so `author` always means the post's own author.
 */
export type PostActor = 'admin' | 'author' | 'system';

/** What someone asks of a post. */
export type PostCommand =
  /** A save of the post's text; an admin may also name a status (`to`); an author's save is always a DRAFT. */
  | { type: 'save'; to?: PostStatus }
  | { type: 'submit' }
  /** A review's approval: published now, or (`publishAt`) scheduled. */
  | { type: 'approve'; scheduled: boolean }
  | { type: 'reject' }
  | { type: 'reschedule' }
  | { type: 'cancelSchedule' }
  /** The scheduler: a due scheduled post becomes public. */
  | { type: 'publishDue' }
  | { type: 'delete' }
  /** Not a move: whether a preview link may be shared. */
  | { type: 'preview' };

/** Why a command is refused; each has its own message and status (PostLifecycle.refuse). */
export type PostRefusal =
  | 'illegal-transition'
  | 'author-cannot-edit'
  | 'cannot-submit'
  | 'cannot-approve'
  | 'cannot-reject'
  | 'not-scheduled'
  | 'not-due'
  | 'cannot-delete'
  | 'not-previewable'
  | 'not-allowed';

export type PostDecision = { allowed: true; next: PostState } | { allowed: false; refusal: PostRefusal };

/**
 * Status changes an admin makes through a save. PENDING_REVIEW is reached only by the author's
 * submit-for-review, REJECTED only by a review with a reason.
 */
export const ADMIN_STATUS_MOVES: Readonly<Record<PostStatus, readonly PostStatus[]>> = {
  DRAFT: [PostStatus.PUBLISHED, PostStatus.PRIVATE, PostStatus.ARCHIVED],
  PENDING_REVIEW: [PostStatus.PUBLISHED, PostStatus.DRAFT],
  PUBLISHED: [PostStatus.ARCHIVED, PostStatus.DRAFT, PostStatus.PRIVATE],
  REJECTED: [PostStatus.PUBLISHED, PostStatus.DRAFT],
  ARCHIVED: [PostStatus.PUBLISHED, PostStatus.DRAFT],
  PRIVATE: [PostStatus.PUBLISHED, PostStatus.DRAFT, PostStatus.ARCHIVED],
};

/** The statuses an author still owns: they edit, delete and submit only these. */
const AUTHOR_OWNED: ReadonlySet<PostStatus> = new Set([PostStatus.DRAFT, PostStatus.REJECTED]);
const APPROVABLE: ReadonlySet<PostStatus> = new Set([PostStatus.PENDING_REVIEW, PostStatus.REJECTED]);
/** Not public yet, not put away. */
const PREVIEWABLE: ReadonlySet<PostStatus> = new Set([PostStatus.DRAFT, PostStatus.PENDING_REVIEW, PostStatus.REJECTED]);

const allow = (status: PostStatus, scheduled = false): PostDecision => ({ allowed: true, next: { status, scheduled } });
const refuse = (refusal: PostRefusal): PostDecision => ({ allowed: false, refusal });

/**
 * The one transition table: the decision for `command` by `actor` on a post in `state`. A status
 * change drops a schedule; an edit that keeps the status keeps it.
 */
export function decide(state: PostState, command: PostCommand, actor: PostActor): PostDecision {
  const { status, scheduled } = state;
  switch (command.type) {
    case 'save': {
      if (actor === 'author') return AUTHOR_OWNED.has(status) ? allow(PostStatus.DRAFT) : refuse('author-cannot-edit');
      if (actor !== 'admin') return refuse('not-allowed');
      const to = command.to ?? status;
      if (to === status) return allow(status, scheduled);
      return ADMIN_STATUS_MOVES[status].includes(to) ? allow(to) : refuse('illegal-transition');
    }
    case 'submit':
      if (actor === 'system') return refuse('not-allowed');
      return AUTHOR_OWNED.has(status) ? allow(PostStatus.PENDING_REVIEW) : refuse('cannot-submit');
    case 'approve':
      if (actor !== 'admin') return refuse('not-allowed');
      if (!APPROVABLE.has(status)) return refuse('cannot-approve');
      return command.scheduled ? allow(PostStatus.PENDING_REVIEW, true) : allow(PostStatus.PUBLISHED);
    case 'reject':
      if (actor !== 'admin') return refuse('not-allowed');
      return status === PostStatus.PENDING_REVIEW ? allow(PostStatus.REJECTED) : refuse('cannot-reject');
    case 'reschedule':
    case 'cancelSchedule':
      if (actor !== 'admin') return refuse('not-allowed');
      if (status !== PostStatus.PENDING_REVIEW || !scheduled) return refuse('not-scheduled');
      return allow(PostStatus.PENDING_REVIEW, command.type === 'reschedule');
    case 'publishDue':
      if (actor !== 'system') return refuse('not-allowed');
      return status === PostStatus.PENDING_REVIEW && scheduled ? allow(PostStatus.PUBLISHED) : refuse('not-due');
    case 'delete':
      if (actor === 'admin') return allow(status, scheduled);
      return actor === 'author' && AUTHOR_OWNED.has(status) ? allow(status, scheduled) : refuse('cannot-delete');
    case 'preview':
      if (actor === 'system') return refuse('not-allowed');
      return PREVIEWABLE.has(status) ? allow(status, scheduled) : refuse('not-previewable');
  }
}

/**
 * What a caller may do with a post, as post answers list it (`allowedActions`): the editor, the
 * author's lists and the back office show exactly these controls. `setStatus:<S>` is an admin's
 * save that moves the post to S.
 */
export const POST_ACTIONS = [
  'edit',
  'delete',
  'submit',
  'approve',
  'schedule',
  'reject',
  'reschedule',
  'cancelSchedule',
  'preview',
  'autosave',
  'setStatus:DRAFT',
  'setStatus:PUBLISHED',
  'setStatus:PRIVATE',
  'setStatus:ARCHIVED',
] as const;
export type PostAction = (typeof POST_ACTIONS)[number];

const COMMAND_OF: Record<PostAction, PostCommand> = {
  edit: { type: 'save' },
  delete: { type: 'delete' },
  submit: { type: 'submit' },
  approve: { type: 'approve', scheduled: false },
  schedule: { type: 'approve', scheduled: true },
  reject: { type: 'reject' },
  reschedule: { type: 'reschedule' },
  cancelSchedule: { type: 'cancelSchedule' },
  preview: { type: 'preview' },
  // Autosave writes a draft's text without a status; it is offered where an author could save (DRAFT, REJECTED).
  autosave: { type: 'save' },
  'setStatus:DRAFT': { type: 'save', to: PostStatus.DRAFT },
  'setStatus:PUBLISHED': { type: 'save', to: PostStatus.PUBLISHED },
  'setStatus:PRIVATE': { type: 'save', to: PostStatus.PRIVATE },
  'setStatus:ARCHIVED': { type: 'save', to: PostStatus.ARCHIVED },
};

/** The actions `actor` may take on a post in `state` (an admin who is also its author gets the admin's list). */
export function allowedActions(state: PostState, actor: Exclude<PostActor, 'system'>, ownPost = actor === 'author'): PostAction[] {
  return POST_ACTIONS.filter((action) => {
    if (action === 'autosave') return AUTHOR_OWNED.has(state.status);
    if (action.startsWith('setStatus:')) {
      const command = COMMAND_OF[action] as { type: 'save'; to: PostStatus };
      return actor === 'admin' && command.to !== state.status && decide(state, command, actor).allowed;
    }
    // Submitting belongs to the author's own posts (an admin publishes others' instead).
    if (action === 'submit' && !ownPost) return false;
    return decide(state, COMMAND_OF[action], actor).allowed;
  });
}
