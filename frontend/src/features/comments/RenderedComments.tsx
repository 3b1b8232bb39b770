import type { CommentNode } from './comment-api';
import { CommentList, type CommentActions, type Viewer } from './CommentItem';

/** Static HTML has no event handlers: nothing here is ever called. */
const STATIC: CommentActions = {
  reply: () => Promise.reject(new Error('The rendered comment list has no actions')),
  edit: () => Promise.reject(new Error('The rendered comment list has no actions')),
  remove: () => Promise.reject(new Error('The rendered comment list has no actions')),
  loadReplies: () => Promise.reject(new Error('The rendered comment list has no actions')),
  reported: () => undefined,
  hidden: () => undefined,
};

/**
 * The post's first page of comments as the server renders it, with no island of its own: the
 * page's CommentSection shows it (slot 'rendered') and takes it over when it hydrates
 * (rendered-page.ts), so its text reaches the page once. The same markup as the section's list.
 */
export default function RenderedComments({ comments, viewer }: { comments: CommentNode[]; viewer: Viewer | null }) {
  return <CommentList comments={comments} viewer={viewer} actions={STATIC} now={undefined} targetId={undefined} />;
}
