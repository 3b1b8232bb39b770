import { Component, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { commentErrors, CommentsTexts } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { Alert } from '../../components/islands/form-controls';
import { addComment, deleteComment, fetchCommentCount, fetchComments, fetchReplies, updateComment, type CommentNode } from './comment-api';
import CommentForm from './CommentForm';
import { CommentItem, type CommentActions, type Viewer } from './CommentItem';

interface Props {
  postId: number;
  /** The post's comment count as the server rendered it. */
  initialCount: number;
  /** The signed-in reader (signed-in pages are never cached), or null for a visitor. */
  viewer: Viewer | null;
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

/** Re-renders every minute so that 'Just now' becomes '1 minute ago'. */
function useMinuteTick(): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTick((tick) => tick + 1), 60_000);
    return () => window.clearInterval(timer);
  }, []);
}

function Comments({ postId, initialCount, viewer, loginHref, registerHref }: Props) {
  const [comments, setComments] = useState<CommentNode[]>([]);
  const [status, setStatus] = useState<'loading' | 'loaded' | 'error'>('loading');
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState(false);
  const [count, setCount] = useState(initialCount);
  const [notice, setNotice] = useState<Notice>();
  const noticeTimer = useRef<number>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  useMinuteTick();

  const say = useCallback((next: Notice) => {
    setNotice(next);
    window.clearTimeout(noticeTimer.current);
    noticeTimer.current = window.setTimeout(() => setNotice(undefined), next.kind === 'success' ? 3000 : 5000);
  }, []);
  useEffect(() => () => window.clearTimeout(noticeTimer.current), []);

  const loaded = useRef(false);
  const refresh = useCallback(async () => {
    if (!loaded.current) setStatus('loading');
    try {
      const [first, total] = await Promise.all([fetchComments(postId, 0), fetchCommentCount(postId).catch(() => undefined)]);
      setComments(first.comments);
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
    void refresh();
  }, [refresh]);

  async function loadMore() {
    setLoadingMore(true);
    setMoreError(false);
    try {
      const next = await fetchComments(postId, page + 1);
      setComments((current) => {
        const known = new Set(current.map((comment) => comment.id));
        return [...current, ...next.comments.filter((comment) => !known.has(comment.id))];
      });
      setPage(page + 1);
      setHasMore(!next.last);
    } catch {
      setMoreError(true);
    } finally {
      setLoadingMore(false);
    }
  }

  async function add(content: string): Promise<string | undefined> {
    try {
      const created = await addComment(postId, content);
      setComments((current) => [created, ...current]);
      setCount((value) => value + 1);
      say({ kind: 'success', text: CommentsTexts.ADDED });
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
          // Under the comment answered, or beside it when that one is at the deepest level.
          const under = created.parentId ?? parent.id;
          setComments((current) => updateTree(current, under, (node) => ({ ...node, replies: [...node.replies, created], replyCount: node.replyCount + 1 })));
          setCount((value) => value + 1);
          say({ kind: 'success', text: CommentsTexts.REPLY_ADDED });
          return undefined;
        } catch (error) {
          return errorText(error, commentErrors(CommentsTexts.REPLY_FAILED));
        }
      },
      async edit(comment, content) {
        try {
          const updated = await updateComment(comment, content);
          setComments((current) => updateTree(current, comment.id, (node) => ({ ...node, content: updated.content, updatedAt: updated.updatedAt })));
          say({ kind: 'success', text: CommentsTexts.UPDATED });
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
      async loadReplies(comment) {
        try {
          const replies = await fetchReplies(comment);
          setComments((current) => updateTree(current, comment.id, (node) => ({ ...node, replies, replyCount: Math.max(node.replyCount, replies.length) })));
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
      {viewer ? (
        <CommentForm label="Write a comment" submitLabel="Post Comment" onSubmit={add} />
      ) : (
        <p className="mt-4 rounded-lg bg-slate-50 p-4 text-slate-700 dark:bg-slate-900 dark:text-slate-300">
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
      <div className="mt-6">
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
        ) : comments.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{CommentsTexts.NO_COMMENTS}</p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Comments">
            {comments.map((comment) => (
              <CommentItem key={comment.id} comment={comment} viewer={viewer} actions={actions} />
            ))}
          </ul>
        )}
        {status === 'loaded' && hasMore && (
          <div className="mt-4 flex flex-col items-center gap-2">
            {moreError && <Alert>{CommentsTexts.LOAD_MORE_FAILED}</Alert>}
            <button type="button" className="btn-secondary" onClick={() => void loadMore()} disabled={loadingMore} aria-busy={loadingMore || undefined}>
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
      <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100">
        <h2 id="comments-heading" className="text-lg font-semibold">
          {CommentsTexts.SYSTEM_ERROR}
        </h2>
        <p className="mt-1 text-sm">{CommentsTexts.SYSTEM_ERROR_MESSAGE}</p>
        <div className="mt-4 flex gap-2">
          <button type="button" className="btn-primary" onClick={() => this.setState((state) => ({ failed: false, attempt: state.attempt + 1 }))}>
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
 * The post page's comments section (spec 001 §2): pages of 10 with Load More Comments, nested
 * replies, '(edited)', the deleted marker, reply / edit / delete for the viewer's own comments
 * (admins delete any), the login prompt for visitors, and 'Comment System Error' when it crashes.
 * Comments are fetched after hydration, so the cached anonymous page never shows stale ones.
 */
export default function CommentSection(props: Props) {
  return <CommentBoundary>{(attempt) => <Comments key={attempt} {...props} />}</CommentBoundary>;
}
