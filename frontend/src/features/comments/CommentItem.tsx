import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { AvatarImage } from '../../components/islands/form-controls';
import { COMMENT_INDENT_LEVELS, COMMENT_MAX_LEVEL, commentDateTime, CommentsTexts, hideDescription, relativeTime } from './texts';
import { hideComment, type CommentNode } from './comment-api';
import CommentForm from './CommentForm';
import { countNoun, Nouns } from '../../lib/texts/nouns';

// The report and hide dialogs load when first opened: most readers never open one, and the post
// page's JavaScript stays within its budget (engagement.spec.ts).
const ReportDialog = lazy(() => import('./ModerationDialogs').then((module) => ({ default: module.ReportDialog })));
const HideDialog = lazy(() => import('./ModerationDialogs').then((module) => ({ default: module.HideDialog })));

export interface Viewer {
  id: number;
  isAdmin: boolean;
  /** Set while a moderator has stopped the reader commenting: until when (null: for good) and why. */
  muted?: { until: string | null; reason: string } | null;
}

export interface CommentActions {
  reply: (parent: CommentNode, content: string) => Promise<string | undefined>;
  edit: (comment: CommentNode, content: string) => Promise<string | undefined>;
  remove: (comment: CommentNode) => Promise<void>;
  loadReplies: (comment: CommentNode) => Promise<void>;
  /** After the report dialog sent its report. */
  reported: (comment: CommentNode) => void;
  /** After the hide dialog hid the comment. */
  hidden: (comment: CommentNode) => void;
}

/**
 * 'Unknown User' when the author's account is gone, 'Anonymous User' for a deleted comment (whose
 * author is no longer shown) or an author without a name (docs/requirements.md#comments-section).
 */
export function authorName(comment: CommentNode): string {
  if (comment.deleted) return CommentsTexts.ANONYMOUS_USER;
  // A reply from the fediverse: its remote author's name and handle (docs/federation.md).
  if (!comment.author)
    return comment.remoteAuthor ? `${comment.remoteAuthor.name} (${comment.remoteAuthor.handle})` : CommentsTexts.UNKNOWN_USER;
  return comment.author.fullName?.trim() || CommentsTexts.ANONYMOUS_USER;
}

/** Created and updated differ (the server sets both at once on a new comment, updated on an edit only). */
export function isEdited(comment: CommentNode): boolean {
  const created = new Date(comment.createdAt).getTime();
  const updated = new Date(comment.updatedAt).getTime();
  return !comment.deleted && Number.isFinite(created) && Number.isFinite(updated) && updated !== created;
}

const LINK_BUTTON = 'rounded px-1 text-sm font-medium text-slate-700 underline-offset-2 hover:underline dark:text-slate-300';

interface ItemProps {
  comment: CommentNode;
  viewer: Viewer | null;
  actions: CommentActions;
  /** The clock once hydrated (relative times); undefined on the server and at hydration (the full time). */
  now: number | undefined;
  /** The comment a `#comment-{id}` address points to: highlighted and focusable. */
  targetId: number | undefined;
}

/** One comment with its actions and, below, its replies (indented 24 px a level, at most 2 levels). */
export function CommentItem({ comment, viewer, actions, now, targetId }: ItemProps) {
  const [mode, setMode] = useState<'reply' | 'edit'>();
  const [dialog, setDialog] = useState<'report' | 'hide'>();
  const article = useRef<HTMLElement>(null);
  // A report or hide that went through removes its button: focus goes to the comment itself.
  const [focusComment, setFocusComment] = useState(false);
  useEffect(() => {
    if (!focusComment) return;
    article.current?.focus();
    setFocusComment(false);
  }, [focusComment]);
  const replyButton = useRef<HTMLButtonElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  // When a form closes, focus goes back to the button that opened it.
  const closed = useRef<'reply' | 'edit'>(undefined);
  const close = () => {
    closed.current = mode;
    setMode(undefined);
  };
  useEffect(() => {
    if (mode || !closed.current) return;
    (closed.current === 'reply' ? replyButton : editButton).current?.focus();
    closed.current = undefined;
  }, [mode]);
  const [loadingReplies, setLoadingReplies] = useState(false);
  const name = authorName(comment);
  const own = !!viewer && comment.author?.id === viewer.id;
  // Levels stop at 3: a reply there would land beside the comment, not under it, so none is offered.
  const hiddenByModerator = comment.moderation === 'HIDDEN';
  const held = comment.moderation === 'HELD';
  const canReply = !!viewer && !viewer.muted && !comment.deleted && !hiddenByModerator && !held && comment.level < COMMENT_MAX_LEVEL;
  const canEdit = own && !comment.deleted && !hiddenByModerator;
  const canReport = !!viewer && !own && !comment.deleted && comment.canReport;
  const canHide = !!viewer && !comment.deleted && !hiddenByModerator && comment.canHide;
  const canDelete = !!viewer && !comment.deleted && (own || viewer.isAdmin);
  const hiddenReplies = comment.replyCount - comment.replies.length;
  const created = new Date(comment.createdAt);
  const targeted = comment.id === targetId;

  return (
    <li
      id={`comment-${comment.id}`}
      data-comment-id={comment.id}
      data-level={comment.level}
      tabIndex={targeted ? -1 : undefined}
      aria-current={targeted ? 'location' : undefined}
      className={
        targeted
          ? 'scroll-mt-24 rounded-lg bg-amber-50 outline-none ring-2 ring-amber-500 ring-offset-2 dark:bg-amber-950/40 dark:ring-amber-400 dark:ring-offset-slate-950'
          : 'scroll-mt-24'
      }
    >
      <article
        ref={article}
        tabIndex={-1}
        className="comment-article"
        aria-label={`Comment by ${name}`}
        data-moderation={comment.moderation}
      >
        <header className="comment-meta">
          <AvatarImage name={comment.author ? name : null} src={comment.author?.avatar} size="sm" />
          <span className="comment-author" data-author-name>
            {name}
          </span>
          <time
            dateTime={Number.isNaN(created.getTime()) ? undefined : created.toISOString()}
            title={commentDateTime(comment.createdAt)}
            className="text-slate-600 dark:text-slate-400"
          >
            {now === undefined ? commentDateTime(comment.createdAt) : relativeTime(comment.createdAt, now)}
          </time>
          {isEdited(comment) && !hiddenByModerator && <span className="text-slate-600 dark:text-slate-400">{CommentsTexts.EDITED}</span>}
          {held && (
            <span
              className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/60 dark:text-amber-100"
              data-testid="awaiting-moderation"
            >
              {CommentsTexts.AWAITING_MODERATION}
            </span>
          )}
        </header>
        {mode === 'edit' ? (
          <CommentForm
            label="Edit your comment"
            submitLabel="Save Comment"
            initial={comment.content}
            autoFocus
            onSubmit={async (content) => {
              const failure = await actions.edit(comment, content);
              if (!failure) close();
              return failure;
            }}
            onCancel={close}
          />
        ) : comment.deleted ? (
          <p className="mt-1 text-sm italic text-slate-600 dark:text-slate-400">{CommentsTexts.DELETED_MARKER}</p>
        ) : hiddenByModerator ? (
          <p className="mt-1 text-sm italic text-slate-600 dark:text-slate-400" data-testid="hidden-marker">
            {CommentsTexts.HIDDEN_MARKER}
          </p>
        ) : (
          // Text, never HTML: React escapes it; line breaks kept by CSS.
          <p className="comment-text" data-comment-text>
            {comment.content}
          </p>
        )}
        {held && mode !== 'edit' && <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{CommentsTexts.HELD_NOTE}</p>}
        {mode !== 'edit' && (canReply || canEdit || canDelete || canReport || canHide) && (
          <div className="mt-1 flex flex-wrap gap-2">
            {canReply && (
              <button
                ref={replyButton}
                type="button"
                className={LINK_BUTTON}
                aria-expanded={mode === 'reply'}
                onClick={() => (mode === 'reply' ? close() : setMode('reply'))}
              >
                Reply<span className="sr-only"> to {name}</span>
              </button>
            )}
            {canEdit && (
              <button ref={editButton} type="button" className={LINK_BUTTON} onClick={() => setMode('edit')}>
                Edit<span className="sr-only"> your comment</span>
              </button>
            )}
            {canDelete && (
              <button
                type="button"
                className={`${LINK_BUTTON} text-red-700 dark:text-red-300`}
                onClick={() => void actions.remove(comment)}
              >
                Delete<span className="sr-only"> comment by {name}</span>
              </button>
            )}
            {canHide && (
              <button type="button" className={LINK_BUTTON} aria-haspopup="dialog" onClick={() => setDialog('hide')}>
                Hide<span className="sr-only"> comment by {name}</span>
              </button>
            )}
            {canReport && (
              <button type="button" className={LINK_BUTTON} aria-haspopup="dialog" onClick={() => setDialog('report')}>
                Report<span className="sr-only"> comment by {name}</span>
              </button>
            )}
          </div>
        )}
        {mode === 'reply' && (
          <CommentForm
            label={`Reply to ${name}`}
            submitLabel="Reply"
            autoFocus
            onSubmit={async (content) => {
              const failure = await actions.reply(comment, content);
              if (!failure) close();
              return failure;
            }}
            onCancel={close}
          />
        )}
        {dialog === 'report' && (
          <Suspense fallback={null}>
            <ReportDialog
              comment={comment}
              authorName={name}
              onCancel={() => setDialog(undefined)}
              onDone={() => {
                setDialog(undefined);
                setFocusComment(true);
                actions.reported(comment);
              }}
            />
          </Suspense>
        )}
        {dialog === 'hide' && (
          <Suspense fallback={null}>
            <HideDialog
              description={hideDescription(`${name}'s comment`)}
              hide={(reason) => hideComment(comment, reason)}
              onCancel={() => setDialog(undefined)}
              onDone={() => {
                setDialog(undefined);
                setFocusComment(true);
                actions.hidden(comment);
              }}
            />
          </Suspense>
        )}
      </article>
      {(comment.replies.length > 0 || hiddenReplies > 0) && (
        // 24 px a level (2 px rule + 22 px), no further than COMMENT_INDENT_LEVELS levels.
        <div
          data-replies-of={comment.id}
          className={comment.level < COMMENT_INDENT_LEVELS ? 'border-l-2 border-slate-200 pl-[22px] dark:border-slate-800' : ''}
        >
          {comment.replies.length > 0 && (
            <ul>
              {comment.replies.map((reply) => (
                <CommentItem key={reply.id} comment={reply} viewer={viewer} actions={actions} now={now} targetId={targetId} />
              ))}
            </ul>
          )}
          {hiddenReplies > 0 && (
            <button
              type="button"
              className={`${LINK_BUTTON} text-brand-700 dark:text-brand-100`}
              aria-busy={loadingReplies || undefined}
              onClick={async () => {
                setLoadingReplies(true);
                await actions.loadReplies(comment);
                setLoadingReplies(false);
              }}
            >
              {loadingReplies ? 'Loading...' : `Show ${countNoun(hiddenReplies, Nouns.REPLY)}`}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** A page's comments as a list (each with its thread), or 'No comments yet': the island's list and the server-rendered first page alike. */
export function CommentList({ comments, ...item }: { comments: CommentNode[] } & Omit<ItemProps, 'comment'>) {
  if (comments.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{CommentsTexts.NO_COMMENTS}</p>;
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Comments">
      {comments.map((comment) => (
        <CommentItem key={comment.id} comment={comment} {...item} />
      ))}
    </ul>
  );
}
