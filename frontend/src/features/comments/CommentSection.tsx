import { Component, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { commentErrors, commentIdOfHash, CommentsTexts, mutedNotice } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { Alert, useViewer } from '../../components/islands/form-controls';
import {
  addComment,
  deleteComment,
  fetchCommentCount,
  fetchComments,
  fetchCommentsAround,
  fetchReplies,
  updateComment,
  type CommentNode,
} from './comment-api';
import CommentForm from './CommentForm';
import { CommentList, type CommentActions } from './CommentItem';
import { readRenderedPage, type RenderedPage } from './rendered-page';
import { whenViewerKnown } from '../../lib/viewer';

interface Props {
  postId: number;
  /** The post's comment count as the server rendered it. */
  initialCount: number;
  /**
   * The first page as the server rendered it (the cached anonymous page is dropped when a comment
   * changes): its ids, counts and flags; its HTML comes as `rendered`. Undefined when that read
   * failed, and the section then reads it itself.
   */
  initialPage?: RenderedPage;
  /**
   * The server-rendered first page (the page's 'rendered' slot, RenderedComments: what readers
   * without JavaScript and search engines read), shown until the section has taken it over.
   */
  rendered?: ReactNode;
  loginHref: string;
  registerHref: string;
}

/** Applies `change` to the comment `id` anywhere in the tree (null removes it). */
function updateTree(nodes: CommentNode[], id: number, change: (node: CommentNode) => CommentNode | null): CommentNode[] {
  const result: CommentNode[] = [];
  for (const node of nodes) {
    if (node.id === id) {
      const changed = change(node);
      if (changed) result.push(changed);
    } else {
      result.push(node.replies.length > 0 ? { ...node, replies: updateTree(node.replies, id, change) } : node);
    }
  }
  return result;
}

/**
 * After a delete: the comment goes, or stays as the deleted marker when it has replies; its parent
 * counts one reply fewer, and a deleted parent left without replies goes too, up the thread (as the
 * server does).
 */
function afterDelete(nodes: CommentNode[], target: CommentNode): CommentNode[] {
  const keep = target.replyCount > 0 || target.replies.length > 0;
  const walk = (list: CommentNode[]): CommentNode[] => {
    const result: CommentNode[] = [];
    for (const node of list) {
      if (node.id === target.id) {
        if (keep) result.push({ ...node, deleted: true, author: null, content: CommentsTexts.DELETED_MARKER });
        continue;
      }
      if (node.replies.length === 0) {
        result.push(node);
        continue;
      }
      const replies = walk(node.replies);
      const lost = node.replies.length - replies.length;
      const changed = lost > 0 || replies.some((reply, index) => reply !== node.replies[index]);
      if (!changed) {
        result.push(node);
        continue;
      }
      const replyCount = Math.max(0, node.replyCount - lost);
      if (node.deleted && replyCount === 0 && replies.length === 0) continue;
      result.push({ ...node, replies, replyCount });
    }
    return result;
  };
  return walk(nodes);
}

type Notice = { kind: 'success' | 'error'; text: string };

/**
 * The clock for relative times: undefined on the server and while hydrating (the comments show
 * their full time then, so the hydrated text matches the server's), then now, every minute (so
 * that 'Just now' becomes '1 minute ago').
 */
function useNow(): number | undefined {
  const [now, setNow] = useState<number>();
  useEffect(() => {
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

function contains(nodes: CommentNode[], id: number): boolean {
  return nodes.some((node) => node.id === id || contains(node.replies, id));
}

/** `current` followed by the comments of `pages` it does not hold yet, in order. */
function appendNew(current: CommentNode[], ...pages: CommentNode[][]): CommentNode[] {
  const known = new Set(current.map((comment) => comment.id));
  const added = pages.flat().filter((comment) => !known.has(comment.id) && known.add(comment.id));
  return added.length ? [...current, ...added] : current;
}

function Comments({ postId, initialCount, initialPage, rendered, loginHref, registerHref }: Props) {
  // The page is the same for everyone: the reader comes from the personal fragment (lib/viewer.ts).
  const viewerState = useViewer();
  const viewer = viewerState.known ? viewerState.viewer : null;
  const pending = !viewerState.known;
  const [comments, setComments] = useState<CommentNode[]>([]);
  // Until then the server's first page is shown as it came (`rendered`), and `comments` is empty.
  const [takenOver, setTakenOver] = useState(!initialPage);
  const listBox = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<'loading' | 'loaded' | 'error'>(initialPage ? 'loaded' : 'loading');
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(initialPage ? !initialPage.last : false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState(false);
  const [count, setCount] = useState(initialCount);
  const [notice, setNotice] = useState<Notice>();
  const noticeTimer = useRef<number>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const now = useNow();
  // The comment a #comment-{id} address points to, and whether it still needs scrolling to.
  const [targetId, setTargetId] = useState<number>();
  const [scrollPending, setScrollPending] = useState(false);
  // What the async loads below read after an await (state in their closures would be old).
  const latest = useRef({ comments, page });
  latest.current = { comments, page };

  const say = useCallback((next: Notice) => {
    setNotice(next);
    window.clearTimeout(noticeTimer.current);
    noticeTimer.current = window.setTimeout(() => setNotice(undefined), next.kind === 'success' ? 3000 : 5000);
  }, []);
  useEffect(() => () => window.clearTimeout(noticeTimer.current), []);

  const loaded = useRef(!!initialPage);
  const refresh = useCallback(async () => {
    if (!loaded.current) setStatus('loading');
    try {
      const [first, total] = await Promise.all([fetchComments(postId, 0), fetchCommentCount(postId).catch(() => undefined)]);
      setComments(first.comments);
      setTakenOver(true);
      if (total !== undefined) setCount(total);
      setPage(0);
      setHasMore(!first.last);
      setMoreError(false);
      setStatus('loaded');
      loaded.current = true;
    } catch {
      // Before anything loaded, the error state says it (with Try Again); after, a notice over the list.
      if (loaded.current) say({ kind: 'error', text: CommentsTexts.REFRESH_FAILED });
      else setStatus('error');
    }
  }, [postId, say]);

  useEffect(() => {
    // The server's page is taken over once, when mounting (before a #comment-{id} address is
    // followed below, which looks for the comment among the list's); read from the API when
    // there is none, or when it cannot be read back.
    const taken = initialPage && listBox.current ? readRenderedPage(listBox.current, initialPage, postId) : undefined;
    if (!taken) {
      void refresh();
      return;
    }
    latest.current.comments = taken;
    setComments(taken);
    setTakenOver(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refresh]);

  // The server's first page is everyone's: a reader's own held comments and their report and hide
  // actions come with the first page read for them, once they are known. It takes the place of the
  // server's; pages read since (a #comment-{id} link's) stay.
  const viewerId = viewer?.id;
  useEffect(() => {
    if (viewerId === undefined || !initialPage) return;
    let stale = false;
    fetchComments(postId, 0)
      .then((first) => {
        if (stale) return;
        setComments((current) => appendNew(first.comments, current));
        setTakenOver(true);
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [viewerId, postId, initialPage]);

  /**
   * Shows the comment a `#comment-{id}` address points to: when it is not on the pages shown,
   * the page that holds its thread is read (?commentId) with the pages before it, so the list
   * stays whole; threads come whole, so the comment is shown however deep it is.
   */
  const showTarget = useCallback(
    async (id: number) => {
      setTargetId(id);
      if (!contains(latest.current.comments, id)) {
        try {
          const around = await fetchCommentsAround(postId, id);
          const shown = latest.current.page;
          const between = await Promise.all(
            Array.from({ length: Math.max(0, around.page - shown - 1) }, (_, index) => fetchComments(postId, shown + 1 + index)),
          );
          setComments((current) => appendNew(current, ...between.map((next) => next.comments), around.comments));
          if (around.page > shown) {
            setPage(around.page);
            setHasMore(!around.last);
          }
        } catch (error) {
          say({ kind: 'error', text: errorText(error, commentErrors(CommentsTexts.LOAD_MORE_FAILED)) });
          return;
        }
      }
      setScrollPending(true);
    },
    [postId, say],
  );

  useEffect(() => {
    const follow = () => {
      const id = commentIdOfHash(window.location.hash);
      if (id !== undefined) void showTarget(id);
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [showTarget]);

  // Once the target is rendered: into view, focused (keyboard and screen-reader users start there).
  useEffect(() => {
    if (!scrollPending || targetId === undefined) return;
    const element = document.getElementById(`comment-${targetId}`);
    if (!element) return;
    setScrollPending(false);
    element.scrollIntoView({ block: 'center' });
    element.focus({ preventScroll: true });
  }, [scrollPending, targetId, comments]);

  async function loadMore() {
    setLoadingMore(true);
    setMoreError(false);
    try {
      const next = await fetchComments(postId, page + 1);
      setComments((current) => appendNew(current, next.comments));
      setPage(page + 1);
      setHasMore(!next.last);
    } catch {
      setMoreError(true);
    } finally {
      setLoadingMore(false);
    }
  }

  async function add(content: string): Promise<string | undefined> {
    // Sent before the reader is known (the form shows while the fragment is on its way): wait for it.
    if (!(await whenViewerKnown())) return CommentsTexts.LOGIN_REQUIRED;
    try {
      const created = await addComment(postId, content);
      setComments((current) => [created, ...current]);
      // A held comment is not counted until a moderator lets it through.
      if (created.moderation === 'HELD') say({ kind: 'success', text: CommentsTexts.HELD_ADDED });
      else {
        setCount((value) => value + 1);
        say({ kind: 'success', text: CommentsTexts.ADDED });
      }
      return undefined;
    } catch (error) {
      return errorText(error, commentErrors(CommentsTexts.ADD_FAILED));
    }
  }

  const actions: CommentActions = useMemo(
    () => ({
      async reply(parent, content) {
        try {
          const created = await addComment(postId, content, parent);
          const under = created.parentId ?? parent.id;
          const visible = created.moderation !== 'HELD';
          setComments((current) =>
            updateTree(current, under, (node) => ({
              ...node,
              replies: [...node.replies, created],
              replyCount: node.replyCount + (visible ? 1 : 0),
            })),
          );
          if (visible) setCount((value) => value + 1);
          say({ kind: 'success', text: visible ? CommentsTexts.REPLY_ADDED : CommentsTexts.HELD_ADDED });
          return undefined;
        } catch (error) {
          return errorText(error, commentErrors(CommentsTexts.REPLY_FAILED));
        }
      },
      async edit(comment, content) {
        try {
          const updated = await updateComment(comment, content);
          setComments((current) =>
            updateTree(current, comment.id, (node) => ({
              ...node,
              content: updated.content,
              updatedAt: updated.updatedAt,
              moderation: updated.moderation,
            })),
          );
          // An edit the holding rules catch is held: it leaves the count until a moderator approves it.
          const heldNow = updated.moderation === 'HELD' && comment.moderation !== 'HELD';
          if (heldNow) setCount((value) => Math.max(0, value - 1));
          say({ kind: 'success', text: heldNow ? CommentsTexts.HELD_ADDED : CommentsTexts.UPDATED });
          return undefined;
        } catch (error) {
          return errorText(error, commentErrors(CommentsTexts.UPDATE_FAILED));
        }
      },
      async remove(comment) {
        if (!window.confirm(CommentsTexts.DELETE_CONFIRM)) return;
        try {
          await deleteComment(comment);
          setComments((current) => afterDelete(current, comment));
          // Its buttons are gone: focus moves to the section's heading.
          heading.current?.focus();
          setCount((value) => Math.max(0, value - 1));
          say({ kind: 'success', text: CommentsTexts.REMOVED });
        } catch (error) {
          say({ kind: 'error', text: errorText(error, commentErrors(CommentsTexts.DELETE_FAILED)) });
        }
      },
      reported(comment) {
        setComments((current) => updateTree(current, comment.id, (node) => ({ ...node, canReport: false })));
        say({ kind: 'success', text: CommentsTexts.REPORTED });
      },
      hidden(comment) {
        setComments((current) =>
          updateTree(current, comment.id, (node) => ({ ...node, moderation: 'HIDDEN', content: CommentsTexts.HIDDEN_MARKER })),
        );
        say({ kind: 'success', text: CommentsTexts.HIDDEN });
      },
      async loadReplies(comment) {
        try {
          const replies = await fetchReplies(comment);
          setComments((current) =>
            updateTree(current, comment.id, (node) => ({ ...node, replies, replyCount: Math.max(node.replyCount, replies.length) })),
          );
        } catch (error) {
          say({ kind: 'error', text: errorText(error, commentErrors(CommentsTexts.REFRESH_FAILED)) });
        }
      },
    }),
    [postId, say],
  );

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="comments-heading" ref={heading} tabIndex={-1} className="text-2xl font-bold">
          Comments ({count})
        </h2>
        <button type="button" className="btn-ghost" onClick={() => void refresh()}>
          Refresh<span className="sr-only"> comments</span>
        </button>
      </div>
      <div aria-live="polite" className="mt-3 empty:hidden">
        {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      </div>
      {/* Until the reader is known both are rendered, and <html data-signed-in> (global.css) shows
          the one the signed-in hint expects: filling in the reader then shifts nothing. */}
      {!viewer && (
        <p
          className={`${pending ? 'personal-anonymous ' : ''}mt-4 rounded-lg bg-slate-50 p-4 text-slate-700 dark:bg-slate-900 dark:text-slate-300`}
        >
          {CommentsTexts.LOGIN_REQUIRED}{' '}
          <a href={loginHref} className="font-medium text-brand-700 underline dark:text-brand-100">
            Log in
          </a>
          {' or '}
          <a href={registerHref} className="font-medium text-brand-700 underline dark:text-brand-100">
            register
          </a>
          {' to join the discussion.'}
        </p>
      )}
      {viewer?.muted ? (
        <p
          className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
          data-testid="comment-muted"
        >
          {mutedNotice(viewer.muted.until, viewer.muted.reason)}
        </p>
      ) : (
        (pending || viewer) && (
          <div className={pending ? 'personal-signed-in' : undefined}>
            <CommentForm label="Write a comment" submitLabel="Post Comment" onSubmit={add} />
          </div>
        )
      )}
      <div className="mt-6" ref={listBox}>
        {status === 'loading' ? (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {CommentsTexts.LOADING}
          </p>
        ) : status === 'error' ? (
          <div className="space-y-3">
            <Alert>{CommentsTexts.REFRESH_FAILED}</Alert>
            <button type="button" className="btn-secondary" onClick={() => void refresh()}>
              Try Again
            </button>
          </div>
        ) : takenOver ? (
          <CommentList comments={comments} viewer={viewer} actions={actions} now={now} targetId={targetId} />
        ) : (
          rendered
        )}
        {status === 'loaded' && hasMore && (
          <div className="mt-4 flex flex-col items-center gap-2">
            {moreError && <Alert>{CommentsTexts.LOAD_MORE_FAILED}</Alert>}
            <button
              type="button"
              className="btn-secondary"
              onClick={() => void loadMore()}
              disabled={loadingMore}
              aria-busy={loadingMore || undefined}
            >
              {loadingMore ? 'Loading more...' : 'Load More Comments'}
            </button>
          </div>
        )}
      </div>
    </>
  );
}

interface BoundaryState {
  failed: boolean;
  attempt: number;
}

/** 'Comment System Error' with Try Again (mounts the section anew) and Reload Page, when the section crashes. */
class CommentBoundary extends Component<{ children: (attempt: number) => ReactNode }, BoundaryState> {
  state: BoundaryState = { failed: false, attempt: 0 };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  componentDidCatch(error: unknown): void {
    console.error('Comment section crashed', error);
  }

  render() {
    if (!this.state.failed) return this.props.children(this.state.attempt);
    return (
      <div
        role="alert"
        className="rounded-xl border border-red-200 bg-red-50 p-6 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
      >
        <h2 id="comments-heading" className="text-lg font-semibold">
          {CommentsTexts.SYSTEM_ERROR}
        </h2>
        <p className="mt-1 text-sm">{CommentsTexts.SYSTEM_ERROR_MESSAGE}</p>
        <div className="mt-4 flex gap-2">
          <button
            type="button"
            className="btn-primary"
            onClick={() => this.setState((state) => ({ failed: false, attempt: state.attempt + 1 }))}
          >
            Try Again
          </button>
          <button type="button" className="btn-secondary" onClick={() => window.location.reload()}>
            Reload Page
          </button>
        </div>
      </div>
    );
  }
}

/**
 * The post page's comments section (docs/requirements.md#comment-list-widget): pages of 10 with Load More Comments, nested
 * replies, '(edited)', the deleted marker, reply / edit / delete for the viewer's own comments
 * (admins delete any), the login prompt for visitors, and 'Comment System Error' when it crashes.
 * The first page comes rendered by the server; a `#comment-{id}` address on a later page loads
 * the pages up to it and scrolls to the comment.
 */
export default function CommentSection(props: Props) {
  return <CommentBoundary>{(attempt) => <Comments key={attempt} {...props} />}</CommentBoundary>;
}
