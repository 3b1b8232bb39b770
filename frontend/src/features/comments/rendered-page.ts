/**
 * The comments' first page reaches the post page once: as HTML the server renders (readers
 * without JavaScript, search engines, 'View in article' links), not a second time as the
 * island's props (page weight). The island gets only what that HTML does not show
 * (ids, counts, flags: `RenderedPage`) and, when it hydrates, reads the rest (name, avatar, text,
 * time, level, moderation) back from the rendered list to take it over.
 */
import type { CommentNode, CommentPage } from './comment-api';

/** What the rendered HTML of one comment does not show. Flags and counts are left out when they are the usual value. */
export interface RenderedComment {
  id: number;
  /** The author's account (null: an account that is gone, 'Unknown User'). */
  authorId: number | null;
  /** Only when it differs from the replies rendered under it (more replies to show). */
  replyCount?: number;
  /** Only when it differs from the creation time (an edited comment). */
  updatedAt?: string;
  deleted?: true;
  canReport?: true;
  canHide?: true;
  verified?: true;
  /** A reply from the fediverse: who wrote it (docs/federation.md). */
  remoteAuthor?: CommentNode['remoteAuthor'];
}

/** The first page for the island: whether it is the last page, and every comment of its threads, parents before their replies. */
export interface RenderedPage {
  last: boolean;
  comments: RenderedComment[];
}

function sameInstant(a: string, b: string): boolean {
  return new Date(a).getTime() === new Date(b).getTime();
}

/** The server's side: the page's comments as ids, counts and flags. */
export function renderedPageOf(page: CommentPage): RenderedPage {
  const comments: RenderedComment[] = [];
  const walk = (nodes: CommentNode[]) => {
    for (const node of nodes) {
      const entry: RenderedComment = { id: node.id, authorId: node.author?.id ?? null };
      if (node.replyCount !== node.replies.length) entry.replyCount = node.replyCount;
      if (!sameInstant(node.updatedAt, node.createdAt)) entry.updatedAt = node.updatedAt;
      if (node.deleted) entry.deleted = true;
      if (node.canReport) entry.canReport = true;
      if (node.canHide) entry.canHide = true;
      if (node.author?.isVerified) entry.verified = true;
      if (node.remoteAuthor) entry.remoteAuthor = node.remoteAuthor;
      comments.push(entry);
      walk(node.replies);
    }
  };
  walk(page.comments);
  return { last: page.last, comments };
}

/**
 * The browser's side: the comments of the list rendered in `box` (CommentList's markup), joined
 * with `page`. Undefined when the two do not match (a comment in one and not the other): the
 * island then reads the page from the API instead.
 */
export function readRenderedPage(box: HTMLElement, page: RenderedPage, postId: number): CommentNode[] | undefined {
  const known = new Map(page.comments.map((comment) => [comment.id, comment]));
  let found = 0;
  const read = (item: Element, parentId: number | null): CommentNode | undefined => {
    const entry = known.get(Number((item as HTMLElement).dataset.commentId));
    const article = item.querySelector(':scope > article');
    if (!entry || !article) return undefined;
    found += 1;
    const replies: CommentNode[] = [];
    for (const reply of item.querySelectorAll(':scope > [data-replies-of] > ul > li[data-comment-id]')) {
      const node = read(reply, entry.id);
      if (!node) return undefined;
      replies.push(node);
    }
    const name = article.querySelector('[data-author-name]')?.textContent ?? '';
    const createdAt = article.querySelector('time')?.getAttribute('datetime') ?? '';
    const avatar = article.querySelector(':scope > header > img')?.getAttribute('src') ?? null;
    return {
      id: entry.id,
      postId,
      parentId,
      level: Number((item as HTMLElement).dataset.level),
      author: entry.authorId === null ? null : { id: entry.authorId, fullName: name, avatar, isVerified: entry.verified === true },
      // A deleted or hidden comment shows its marker instead of its text, and its text is never edited.
      content: article.querySelector('[data-comment-text]')?.textContent ?? '',
      createdAt,
      updatedAt: entry.updatedAt ?? createdAt,
      deleted: entry.deleted === true,
      moderation: (article as HTMLElement).dataset.moderation as CommentNode['moderation'],
      canReport: entry.canReport === true,
      canHide: entry.canHide === true,
      replyCount: entry.replyCount ?? replies.length,
      replies,
      ...(entry.remoteAuthor ? { remoteAuthor: entry.remoteAuthor } : {}),
    };
  };
  const list = box.querySelector('ul[aria-label="Comments"]');
  const comments: CommentNode[] = [];
  for (const item of list?.querySelectorAll(':scope > li[data-comment-id]') ?? []) {
    const node = read(item, null);
    if (!node) return undefined;
    comments.push(node);
  }
  return found === known.size ? comments : undefined;
}
