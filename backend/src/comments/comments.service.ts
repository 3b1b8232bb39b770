import { ContentEvents } from '../common/content-events';
import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import type { SortDirection } from '../common/pagination/sort';
import { NotificationsService } from '../notifications/notifications.service';
import type { NotificationEvent } from '../notifications/notification.types';
import { PostStatus } from '../posts/entities/post.entity';
import { PostsService } from '../posts/posts.service';
import { RoleName } from '../auth/roles';
import { CommentPolicy } from '../moderation/comment-policy';
import { buildThreads, CommentRow, CommentViewer, toCommentActivity, toCommentPage, toCommentResponse } from './comment.mapper';
import { CommentsMessages } from './comments.messages';
import { CommentLockRow, CommentsRepository, PostRef } from './comments.repository';
import { ByUserSort } from './dto/comment-input.dto';
import { CommentActivityDto, CommentActivityPageDto, CommentPageDto, CommentResponseDto, CommentStatsDto } from './dto/comment-response.dto';
import { CommentModeration, MAX_COMMENT_LEVEL } from './entities/comment.entity';

export interface CommentCreateInput {
  postId: number;
  content: string;
  parentId?: number | null;
}

export interface CreatedComment {
  comment: CommentResponseDto;
  isReply: boolean;
}

/** Whether a comment counts in its post's comment_count and its parent's reply_count: VISIBLE and not deleted (issue 19). */
export const countsInTotals = (comment: Pick<CommentLockRow, 'deleted_at' | 'moderation'>): boolean =>
  !comment.deleted_at && comment.moderation === CommentModeration.VISIBLE;

function fieldError(field: string, message: string): BadRequestException {
  return new BadRequestException({ message, errors: { [field]: [message] } });
}

/**
 * The comment rules: only on published posts, levels 0..3, owners edit and delete, admins delete
 * any (DESIGN.md §4). Every write changes the comment row(s), the parent's reply_count and the
 * post's comment_count (PostsService.adjustCounters) in one transaction; locks are always taken
 * in one order: the post's row (FOR NO KEY UPDATE, so it is not deleted meanwhile; the counter
 * update needs that lock anyway), then the comment rows child before parent; concurrent writers
 * never deadlock or lose a count.
 *
 * Deletion: a comment with replies becomes a placeholder ('[This comment has been deleted]', its
 * replies kept); one without replies is removed, and so is every placeholder above it that is
 * left without replies. comment_count counts comments that are not deleted and VISIBLE (a HIDDEN
 * or HELD comment is not counted, issue 19), so deleting a counted comment subtracts exactly one;
 * reply_count counts VISIBLE reply rows (deleted placeholders included, as before), while whether
 * a row has replies at all is read from the rows (a hidden reply keeps its parent too).
 *
 * Moderation (issue 19): a muted user may not comment or edit (CommentPolicy); a new comment the
 * holding rules catch is written HELD (not counted, shown to its author only, until approved).
 */
@Injectable()
export class CommentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly comments: CommentsRepository,
    private readonly posts: PostsService,
    private readonly contentEvents: ContentEvents,
    private readonly policy: CommentPolicy,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * A page of a post's top-level comments, each with its whole thread (oldest reply first). With
   * `commentId`, the page that holds that comment's thread instead of `page` (a link to
   * `#comment-{id}`): 404 'Comment not found.' when it is not a comment of this post.
   */
  async listForPost(
    postId: number,
    page: number,
    size: number,
    dir: SortDirection = 'desc',
    commentId?: number,
    caller?: AuthUser,
  ): Promise<CommentPageDto> {
    const post = await this.publishedPost(postId);
    const viewerId = caller?.id ?? null;
    if (commentId !== undefined) {
      const position = await this.comments.rootPosition(postId, commentId, viewerId, dir);
      if (position === undefined) throw new NotFoundException(CommentsMessages.NOT_FOUND);
      page = Math.floor(position / size);
    }
    const [roots, total] = await Promise.all([
      this.comments.rootsPage(postId, viewerId, dir, size, page * size),
      this.comments.countRoots(postId, viewerId),
    ]);
    const below = await this.comments.descendants(
      roots.map((root) => root.id),
      viewerId,
    );
    const viewer = await this.viewerOf(caller, post, [...roots, ...below]);
    const threads = buildThreads(below, viewer);
    return toCommentPage(
      roots.map((root) => toCommentResponse(root, threads.get(root.id) ?? [], viewer)),
      total,
      page,
      size,
    );
  }

  /** The replies of a comment (each with its own replies), oldest first. */
  async replies(id: number, caller?: AuthUser): Promise<CommentResponseDto[]> {
    const comment = await this.comments.findOne(id);
    if (!comment || !this.shownTo(comment, caller)) throw new NotFoundException(CommentsMessages.NOT_FOUND);
    const post = await this.publishedPost(comment.post_id, CommentsMessages.NOT_FOUND);
    const below = await this.comments.descendants([id], caller?.id ?? null);
    const threads = buildThreads(below, await this.viewerOf(caller, post, below));
    return threads.get(id) ?? [];
  }

  /** A HELD comment exists for its author only (and the moderation queue). */
  private shownTo(comment: CommentRow, caller?: AuthUser): boolean {
    return comment.moderation !== CommentModeration.HELD || (caller !== undefined && comment.author_id === caller.id);
  }

  /** canHide/canReport context: moderates = the post's author or an admin; the caller's reports among these comments. */
  private async viewerOf(caller: AuthUser | undefined, post: PostRef, rows: CommentRow[]): Promise<CommentViewer> {
    if (!caller) return { userId: null, moderates: false, reported: new Set() };
    return {
      userId: caller.id,
      moderates: caller.role === RoleName.ADMIN || post.author_id === caller.id,
      reported: await this.comments.reportedBy(
        caller.id,
        rows.map((row) => row.id),
      ),
    };
  }

  /**
   * Reads first, locks last (issue 19 §3: replies to one busy thread queue on its locks): the
   * checks, the holding rules and the notifications' recipients are read (and their e-mail jobs
   * written, invisible until the commit) without locks; then the post's counter update takes the
   * post's lock (re-checking it is still published) and the parent's reply_count update its row's
   * lock (re-checking the parent), in the writers' order, and only the comment and its
   * notification rows are written under them, in one transaction.
   */
  async create(input: CommentCreateInput, user: AuthUser): Promise<CreatedComment> {
    let post: PostRef | undefined;
    // Read back inside the transaction: once committed, the post (and the comment) may be deleted at once.
    let counted = false;
    const row = await this.dataSource.transaction(async (manager) => {
      // A muted user learns it first, whatever the post (issue 19).
      await this.policy.assertMayComment(manager, user.id);
      const found = await this.comments.findPost(input.postId, manager);
      if (!found || found.status !== PostStatus.PUBLISHED) throw new NotFoundException(CommentsMessages.POST_NOT_FOUND);
      const moderation = (await this.policy.holdReason(manager, user.id, input.content)) ? CommentModeration.HELD : CommentModeration.VISIBLE;
      counted = moderation === CommentModeration.VISIBLE;
      let parentId: number | null = null;
      let level = 0;
      if (input.parentId) {
        const parent = this.replyTarget(await this.comments.peek(manager, input.parentId), input.postId, user);
        if (parent.level < MAX_COMMENT_LEVEL) {
          parentId = parent.id;
          level = parent.level + 1;
        } else {
          // A reply to a level-3 comment joins it at level 3, under the same parent.
          parentId = parent.parent_id;
          level = MAX_COMMENT_LEVEL;
        }
      }
      const id = await this.comments.nextId(manager);
      const planned = counted ? await this.notifications.prepare(manager, ...this.publishedEvents(id, input.postId, user.id, input.parentId ?? null)) : [];

      // The locks: the post first (a held comment is not counted, but locks it all the same).
      post = await this.comments.addToPublishedPostComments(manager, input.postId, counted ? 1 : 0);
      if (!post) throw new NotFoundException(CommentsMessages.POST_NOT_FOUND);
      if (input.parentId) {
        // Child before parent: the comment replied to, when the reply goes under its parent (level 3).
        if (input.parentId !== parentId) this.replyTarget(await this.comments.lock(manager, input.parentId), input.postId, user);
        const parent = await this.comments.addToReplyCount(manager, parentId as number, counted ? 1 : 0);
        if (input.parentId === parentId) this.replyTarget(parent, input.postId, user);
        else if (!parent) throw new NotFoundException(CommentsMessages.NOT_FOUND);
      }
      const created = await this.comments.insert(manager, { id, postId: input.postId, userId: user.id, parentId, level, content: input.content, moderation });
      await this.notifications.write(manager, planned);
      return created;
    });
    if (post) {
      if (counted) await this.countersChanged(post);
      else await this.contentEvents.changed({ kind: 'post-comments', postId: post.id, slug: post.slug });
    }
    const moderates = user.role === RoleName.ADMIN || post?.author_id === user.id;
    return { comment: toCommentResponse(row, [], { userId: user.id, moderates, reported: new Set() }), isReply: !!input.parentId };
  }

  /** The comment replied to, when this user may reply to it on this post: 404 otherwise (another reader's HELD comment does not exist for them). */
  private replyTarget(parent: CommentLockRow | undefined, postId: number, user: AuthUser): CommentLockRow {
    if (!parent || parent.deleted_at || (parent.moderation === CommentModeration.HELD && parent.user_id !== user.id)) {
      throw new NotFoundException(CommentsMessages.NOT_FOUND);
    }
    if (parent.post_id !== postId) throw fieldError('parentId', CommentsMessages.PARENT_OTHER_POST);
    return parent;
  }

  /**
   * The notifications of a comment that readers can now see, with it or not at all (issue 19): the
   * replied-to author and the post's author. A HELD comment gets them when it is approved
   * (ModerationService.restore), not before.
   */
  async notifyPublished(manager: EntityManager, comment: { id: number; postId: number; actorId: number; repliedToId: number | null }): Promise<void> {
    await this.notifications.record(manager, ...this.publishedEvents(comment.id, comment.postId, comment.actorId, comment.repliedToId));
  }

  private publishedEvents(commentId: number, postId: number, actorId: number, repliedToId: number | null): NotificationEvent[] {
    const onPost: NotificationEvent = { type: 'POST_COMMENT', actorId, commentId, postId, repliedToId: repliedToId ?? undefined };
    return repliedToId ? [{ type: 'COMMENT_REPLY', actorId, commentId, repliedToId }, onPost] : [onPost];
  }

  /** The owner changes the text of a live comment on a published post. */
  async update(id: number, content: string, user: AuthUser): Promise<CommentResponseDto> {
    await this.policy.assertMayComment(this.dataSource.manager, user.id);
    const comment = await this.comments.findOne(id);
    if (!comment || comment.deleted_at) throw new NotFoundException(CommentsMessages.NOT_FOUND);
    if (comment.author_id !== user.id) throw new ForbiddenException(CommentsMessages.FORBIDDEN_UPDATE);
    if (comment.moderation === CommentModeration.HIDDEN) throw new ForbiddenException(CommentsMessages.HIDDEN_NO_EDIT);
    const post = await this.publishedPost(comment.post_id);
    // The holding rules again (a benign comment edited into spam is held), under the comment writers' locks.
    const held = await this.dataSource.transaction(async (manager) => {
      await this.comments.lockPost(manager, post.id);
      const locked = await this.comments.lock(manager, id);
      if (!locked || locked.deleted_at) throw new NotFoundException(CommentsMessages.NOT_FOUND);
      const hold = locked.moderation === CommentModeration.VISIBLE && (await this.policy.holdReason(manager, user.id, content, id)) !== null;
      if (!(await this.comments.updateContent(id, content, manager))) throw new NotFoundException(CommentsMessages.NOT_FOUND);
      if (hold) {
        await this.comments.setModeration(manager, id, CommentModeration.HELD);
        if (locked.parent_id !== null) await this.comments.addToReplyCount(manager, locked.parent_id, -1);
        await this.posts.adjustCounters(manager, post.id, { comments: -1 });
      }
      return hold;
    });
    // The post's page shows its first comments (and, when the edit held it, its count): drop it before answering.
    if (held) await this.countersChanged(post);
    else await this.contentEvents.changed({ kind: 'post-comments', postId: post.id, slug: post.slug });
    const [row, below] = await Promise.all([this.comments.findOne(id), this.comments.descendants([id], user.id)]);
    if (!row) throw new NotFoundException(CommentsMessages.NOT_FOUND);
    const viewer = await this.viewerOf(user, post, below);
    return toCommentResponse(row, buildThreads(below, viewer).get(id) ?? [], viewer);
  }

  /**
   * The owner, or an admin: see the class comment for what stays. `alsoInTransaction` runs in the
   * same transaction after the delete (the moderation queue writes its audit entry there).
   */
  async remove(id: number, user: AuthUser, alsoInTransaction?: (manager: EntityManager, comment: CommentLockRow) => Promise<void>): Promise<void> {
    const postId = await this.dataSource.transaction(async (manager) => {
      // The post first (as its deletion does), then the comment rows, child before parent.
      const ownerPost = await this.comments.postIdOf(manager, id);
      if (ownerPost === undefined) throw new NotFoundException(CommentsMessages.NOT_FOUND);
      await this.comments.lockPost(manager, ownerPost);
      const comment = await this.comments.lock(manager, id);
      if (!comment || comment.deleted_at) throw new NotFoundException(CommentsMessages.NOT_FOUND);
      if (comment.user_id !== user.id && user.role !== RoleName.ADMIN) throw new ForbiddenException(CommentsMessages.FORBIDDEN_DELETE);
      if (await this.comments.hasReplies(manager, id)) {
        // The placeholder stays where it was in its parent's reply_count (counted when VISIBLE).
        await this.comments.markDeleted(manager, id);
      } else {
        await this.comments.deleteRow(manager, id);
        // Up the thread: a placeholder left without replies goes too. A removed row leaves its
        // parent's reply_count when it was counted there (VISIBLE: live or a placeholder).
        let removed: Pick<CommentLockRow, 'parent_id' | 'moderation'> = comment;
        while (removed.parent_id !== null) {
          const parent = await this.comments.addToReplyCount(manager, removed.parent_id, removed.moderation === CommentModeration.VISIBLE ? -1 : 0);
          if (!parent || !parent.deleted_at || (await this.comments.hasReplies(manager, parent.id))) break;
          await this.comments.deleteRow(manager, parent.id);
          removed = parent;
        }
      }
      if (countsInTotals(comment)) await this.posts.adjustCounters(manager, comment.post_id, { comments: -1 });
      await alsoInTransaction?.(manager, comment);
      return comment.post_id;
    });
    const post = await this.comments.findPost(postId);
    if (post) await this.countersChanged(post);
  }

  /** A user's comments on published posts (public), newest or oldest first. */
  async byUser(userId: number, page: number, size: number, sort: ByUserSort | SortDirection = 'desc'): Promise<CommentActivityPageDto> {
    if (!(await this.comments.userExists(userId))) throw new NotFoundException(CommentsMessages.USER_NOT_FOUND);
    const dir: SortDirection = sort === 'oldest' || sort === 'createdAt,asc' || sort === 'asc' ? 'asc' : 'desc';
    return this.activityPage({ userId, publishedOnly: true, visibleOnly: true }, dir, page, size);
  }

  /** The caller's own comments (any post status). */
  mine(user: AuthUser, page: number, size: number, dir: SortDirection = 'desc'): Promise<CommentActivityPageDto> {
    return this.activityPage({ userId: user.id }, dir, page, size);
  }

  async myRecent(user: AuthUser, limit: number): Promise<CommentActivityDto[]> {
    return (await this.comments.recentActivity({ userId: user.id }, limit)).map(toCommentActivity);
  }

  /** Keyword search in comments on published posts (one post, or all). */
  async search(keyword: string, postId: number | undefined, page: number, size: number): Promise<CommentActivityPageDto> {
    if (postId !== undefined) await this.publishedPost(postId);
    return this.activityPage({ keyword, postId, publishedOnly: true, visibleOnly: true }, 'desc', page, size);
  }

  async stats(postId: number): Promise<CommentStatsDto> {
    await this.publishedPost(postId);
    return { postId, ...(await this.comments.postStats(postId)) };
  }

  /** Every live comment, newest first (admins). */
  adminRecent(page: number, size: number): Promise<CommentActivityPageDto> {
    return this.activityPage({}, 'desc', page, size);
  }

  private async activityPage(
    filter: Parameters<CommentsRepository['activityPage']>[0],
    dir: SortDirection,
    page: number,
    size: number,
  ): Promise<CommentActivityPageDto> {
    const { rows, total } = await this.comments.activityPage(filter, dir, size, page * size);
    return toCommentPage(rows.map(toCommentActivity), total, page, size);
  }

  /** The post, when it is PUBLISHED; 404 otherwise (comments live on published posts only). */
  /**
   * After the commit, before the answer: the post's comment count changed. Every cache drops what
   * shows it (this instance synchronously, so the commenter's next read has the new count).
   */
  private countersChanged(post: PostRef): Promise<void> {
    return this.contentEvents.changed({ kind: 'post-counters', postId: post.id, slug: post.slug, counter: 'comments' });
  }

  private async publishedPost(postId: number, message: string = CommentsMessages.POST_NOT_FOUND): Promise<PostRef> {
    const post = await this.comments.findPost(postId);
    if (!post || post.status !== PostStatus.PUBLISHED) throw new NotFoundException(message);
    return post;
  }
}
