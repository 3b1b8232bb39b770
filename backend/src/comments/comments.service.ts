import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import type { SortDirection } from '../common/pagination/sort';
import { PostStatus } from '../posts/entities/post.entity';
import { RoleName } from '../users/roles';
import { CommentPolicy } from './comment-policy';
import { buildThreads, CommentRow, CommentViewer, toCommentActivity, toCommentPage, toCommentResponse } from './comment.mapper';
import { CommentsMessages } from './comments.messages';
import { CommentLockRow, CommentsRepository, PostRef } from './comments.repository';
import { ByUserSort } from './dto/comment-input.dto';
import {
  CommentActivityDto,
  CommentActivityPageDto,
  CommentPageDto,
  CommentResponseDto,
  CommentStatsDto,
} from './dto/comment-response.dto';
import { CommentModeration, MAX_COMMENT_LEVEL, RemoteCommentAuthor } from './entities/comment.entity';
import { actorOf, CommentVisibility } from './visibility/comment-visibility.service';

export interface CommentCreateInput {
  postId: number;
  content: string;
  parentId?: number | null;
}

export interface CreatedComment {
  comment: CommentResponseDto;
  isReply: boolean;
}

function fieldError(field: string, message: string): BadRequestException {
  return new BadRequestException({ message, errors: { [field]: [message] } });
}

/**
 * The comment rules: only on published posts, levels 0..3, owners edit and delete, admins delete
 * any (docs/requirements.md#decision-counters). What a write does to the comment's visibility and to the counters (the
 * post's comment_count, the parent's reply_count), the deletion's placeholders and the events is
 * CommentVisibility's (visibility/): this service checks who may and what, and hands it the move.
 *
 * Moderation: a muted user may not comment or edit (CommentPolicy); a new comment the
 * holding rules catch is written HELD (not counted, shown to its author only, until approved).
 */
@Injectable()
export class CommentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly comments: CommentsRepository,
    private readonly visibility: CommentVisibility,
    private readonly policy: CommentPolicy,
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
    const viewerId = caller?.id ?? null;
    let checked: Promise<PostRef> | undefined;
    if (commentId !== undefined) {
      checked = this.publishedPost(postId);
      await checked;
      const position = await this.comments.rootPosition(postId, commentId, viewerId, dir);
      if (position === undefined) throw new NotFoundException(CommentsMessages.NOT_FOUND);
      page = Math.floor(position / size);
    }
    // The post's check, the page with its threads and the total at once: an unpublished post's
    // rows are read for nothing, but answered with the 404 all the same.
    const [post, { roots, below }, total] = await Promise.all([
      checked ?? this.publishedPost(postId),
      this.comments.threadsPage(postId, viewerId, dir, size, page * size),
      this.comments.countRoots(postId, viewerId),
    ]);
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
   * Reads first, locks last (replies to one busy thread queue on its locks): the
   * mute, the post, the parent and the holding rules are read without locks; then the post's row
   * is locked (re-checking it is still published) and the comment replied to (re-checking it), in
   * the writers' order, and CommentVisibility writes the comment, its counters and its event
   * (whose subscribers write the notifications) under them, in one transaction.
   */
  async create(input: CommentCreateInput, user: AuthUser): Promise<CreatedComment> {
    // Read back inside the transaction: once committed, the post (and the comment) may be deleted at once.
    const { row, post } = await this.visibility.transaction(async (tx) => {
      const { manager } = tx;
      // A muted user learns it first, whatever the post.
      await this.policy.assertMayComment(manager, user.id);
      const found = await this.comments.findPost(input.postId, manager);
      if (!found || found.status !== PostStatus.PUBLISHED) throw new NotFoundException(CommentsMessages.POST_NOT_FOUND);
      const holdReason = await this.policy.holdReason(manager, user.id, input.content);
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

      // The locks: the post first (a held comment is not counted, but locks it all the same).
      const locked = await this.comments.lockPost(manager, input.postId);
      if (!locked || locked.status !== PostStatus.PUBLISHED) throw new NotFoundException(CommentsMessages.POST_NOT_FOUND);
      if (input.parentId) {
        // Child before parent: the comment replied to, when the reply goes under its parent (level 3).
        if (input.parentId !== parentId) this.replyTarget(await this.comments.lock(manager, input.parentId), input.postId, user);
        const parent = await this.comments.lockReplyTarget(manager, parentId as number);
        if (input.parentId === parentId) this.replyTarget(parent, input.postId, user);
        else if (!parent) throw new NotFoundException(CommentsMessages.NOT_FOUND);
      }
      const created = await this.visibility.create(
        tx,
        locked,
        { postId: input.postId, userId: user.id, parentId, repliedToId: input.parentId ?? null, level, content: input.content, holdReason },
        actorOf(user),
      );
      return { row: created, post: locked };
    });
    const moderates = user.role === RoleName.ADMIN || post.author_id === user.id;
    return { comment: toCommentResponse(row, [], { userId: user.id, moderates, reported: new Set() }), isReply: !!input.parentId };
  }

  /**
   * A reply from the fediverse (docs/federation.md): no local author, always written HELD (the
   * moderation queue shows where it came from), under the post or the comment it answers (a reply
   * to a level-3 comment joins it under the same parent). Null when the post is not published,
   * the comment answered is gone or not on that post, or the Note was stored already.
   */
  async createRemote(input: {
    postId: number;
    repliedToId: number | null;
    content: string;
    remote: { uri: string; author: RemoteCommentAuthor };
  }): Promise<CommentRow | null> {
    return this.visibility.transaction(async (tx) => {
      const { manager } = tx;
      const known = (await manager.query('SELECT id FROM comments WHERE remote_uri = $1', [input.remote.uri])) as unknown[];
      if (known.length) return null;
      const locked = await this.comments.lockPost(manager, input.postId);
      if (!locked || locked.status !== PostStatus.PUBLISHED) return null;
      let parentId: number | null = null;
      let level = 0;
      if (input.repliedToId !== null) {
        const target = await this.comments.lock(manager, input.repliedToId);
        if (!target || target.post_id !== input.postId || target.deleted_at) return null;
        parentId = target.level < MAX_COMMENT_LEVEL ? target.id : target.parent_id;
        level = Math.min(target.level + 1, MAX_COMMENT_LEVEL);
      }
      return this.visibility.create(
        tx,
        locked,
        {
          postId: input.postId,
          userId: null,
          parentId,
          repliedToId: input.repliedToId,
          level,
          content: input.content,
          holdReason: 'From the fediverse',
          remote: input.remote,
        },
        null,
      );
    });
  }

  /** The comment a remote Note became (docs/federation.md), or undefined. */
  async findRemote(uri: string): Promise<{ id: number; postId: number; actor: string } | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT id, post_id AS "postId", remote_author->>'actor' AS actor FROM comments WHERE remote_uri = $1 AND deleted_at IS NULL`,
      [uri],
    )) as { id: number; postId: number; actor: string }[];
    return rows[0];
  }

  /** A remote Note was edited: its comment's text follows (its visibility stays). */
  async editRemote(id: number, content: string): Promise<void> {
    await this.visibility.move(id, null, () => ({ move: 'edit', content, holdReason: null }));
  }

  /** A remote Note was deleted, or its server blocked: its comment goes (a placeholder when replies are under it). */
  async deleteRemote(id: number): Promise<void> {
    await this.visibility.move(id, null, () => ({ move: 'delete', via: 'moderation-queue' }));
  }

  /** The comment replied to, when this user may reply to it on this post: 404 otherwise (another reader's HELD comment does not exist for them). */
  private replyTarget(parent: CommentLockRow | undefined, postId: number, user: AuthUser): CommentLockRow {
    if (!parent || parent.deleted_at || (parent.moderation === CommentModeration.HELD && parent.user_id !== user.id)) {
      throw new NotFoundException(CommentsMessages.NOT_FOUND);
    }
    if (parent.post_id !== postId) throw fieldError('parentId', CommentsMessages.PARENT_OTHER_POST);
    return parent;
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
    await this.visibility.move(id, actorOf(user), async ({ comment: locked }, manager) => ({
      move: 'edit',
      content,
      holdReason: locked.moderation === CommentModeration.VISIBLE ? await this.policy.holdReason(manager, user.id, content, id) : null,
    }));
    const [row, below] = await Promise.all([this.comments.findOne(id), this.comments.descendants([id], user.id)]);
    if (!row) throw new NotFoundException(CommentsMessages.NOT_FOUND);
    const viewer = await this.viewerOf(user, post, below);
    return toCommentResponse(row, buildThreads(below, viewer).get(id) ?? [], viewer);
  }

  /** The owner, or an admin: a placeholder when replies are under it, otherwise it goes (CommentVisibility). */
  async remove(id: number, user: AuthUser): Promise<void> {
    await this.visibility.move(id, actorOf(user), ({ comment }) => {
      if (comment.user_id !== user.id && user.role !== RoleName.ADMIN) throw new ForbiddenException(CommentsMessages.FORBIDDEN_DELETE);
      return { move: 'delete', via: 'thread' };
    });
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
  private async publishedPost(postId: number, message: string = CommentsMessages.POST_NOT_FOUND): Promise<PostRef> {
    const post = await this.comments.findPost(postId);
    if (!post || post.status !== PostStatus.PUBLISHED) throw new NotFoundException(message);
    return post;
  }
}
