import { ConflictException, ForbiddenException, HttpException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { AuditLinks, AuditType } from '../audit/audit.types';
import type { AuthUser } from '../common/auth-user';
import { ContentEvents } from '../common/content-events';
import { TooManyRequestsException } from '../common/too-many-requests';
import { CommentsMessages } from '../comments/comments.messages';
import { CommentLockRow, CommentsRepository, PostRef } from '../comments/comments.repository';
import { CommentsService, countsInTotals } from '../comments/comments.service';
import { CommentModeration } from '../comments/entities/comment.entity';
import { APP_CONFIG, type AppConfig } from '../config/env';
import { NotificationsService } from '../notifications/notifications.service';
import { PostStatus } from '../posts/entities/post.entity';
import { PostsService } from '../posts/posts.service';
import { RoleName } from '../users/entities/role.entity';
import { CommentPolicy } from './comment-policy';
import { BulkAction, CommentBulkDto, CommentReportCreateDto, QueueFilter, QueueSort, UserMuteDto } from './dto/moderation-input.dto';
import {
  BulkResultDto,
  CommentModerationStateDto,
  CommentReportCreatedDto,
  ModerationQueuePageDto,
  UserMuteStatusDto,
} from './dto/moderation-response.dto';
import { ModerationMessages } from './moderation.messages';
import { ModerationRepository } from './moderation.repository';

const excerpt = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/** A comment under its locks, with its post. */
interface LockedComment {
  comment: CommentLockRow;
  post: PostRef;
}

/**
 * Comment moderation (issue 19 §2): readers' reports, hiding (admins, and authors on their own
 * posts), restoring (which also approves a HELD comment), deleting and dismissing reports from
 * the queue, and muting users. Every write takes the locks in the comment writers' order (the
 * post's row, then the comment's; CommentsService), moves the post's comment_count and the
 * parent's reply_count when a comment enters or leaves VISIBLE, and writes its audit entry in the
 * same transaction; the caches showing the post drop before the answer.
 */
@Injectable()
export class ModerationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly comments: CommentsRepository,
    private readonly commentsService: CommentsService,
    private readonly posts: PostsService,
    private readonly repository: ModerationRepository,
    private readonly audit: AuditService,
    private readonly contentEvents: ContentEvents,
    private readonly policy: CommentPolicy,
    private readonly notifications: NotificationsService,
  ) {}

  async report(id: number, dto: CommentReportCreateDto, user: AuthUser): Promise<CommentReportCreatedDto> {
    const createdAt = await this.dataSource.transaction(async (manager) => {
      const rows = (await manager.query(
        `SELECT c.user_id, c.deleted_at, c.moderation, p.status FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.id = $1`,
        [id],
      )) as { user_id: number | null; deleted_at: Date | null; moderation: CommentModeration; status: string }[];
      const comment = rows[0];
      // Only what the reader can see: a live, visible comment on a published post.
      if (!comment || comment.deleted_at || comment.status !== PostStatus.PUBLISHED || comment.moderation !== CommentModeration.VISIBLE) {
        throw new NotFoundException(ModerationMessages.NOT_FOUND);
      }
      if (comment.user_id === user.id) throw new ForbiddenException(ModerationMessages.OWN_COMMENT);
      // One reporter's reports one at a time, so the daily limit holds under concurrency.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('comment-reports'), $1)`, [user.id]);
      const limit = this.config.moderation.reportsPerDay;
      const recent = await this.repository.reportsSince(manager, user.id, 24);
      if (recent.count >= limit) {
        // One more report is allowed once the oldest counted one is a day old.
        throw new TooManyRequestsException(ModerationMessages.REPORT_LIMIT(limit), recent.oldestLeavesInSeconds);
      }
      // UQ_comment_reports_reporter decides, also between two reports sent at once.
      const at = await this.repository.insertReport(manager, id, user.id, dto.reason, dto.details ?? null);
      if (!at) throw new ConflictException(ModerationMessages.ALREADY_REPORTED);
      // The admins are told with the report or not at all.
      await this.notifications.record(manager, { type: 'COMMENT_REPORTED', actorId: user.id, commentId: id, reason: dto.reason });
      return at;
    });
    return { commentId: id, reason: dto.reason, createdAt: createdAt.toISOString() };
  }

  /** Hide with a reason: an admin, or the author of the comment's post. */
  async hide(id: number, reason: string, actor: AuthUser): Promise<CommentModerationStateDto> {
    const { post, state } = await this.inTransaction(id, async (manager, { comment, post: locked }) => {
      const isAdmin = actor.role === RoleName.ADMIN;
      if (!isAdmin && locked.author_id !== actor.id) throw new ForbiddenException(ModerationMessages.FORBIDDEN_HIDE);
      if (comment.moderation === CommentModeration.HIDDEN) throw new ConflictException(ModerationMessages.ALREADY_HIDDEN);
      if (countsInTotals(comment)) await this.moveCounters(manager, comment, -1);
      await this.repository.setHidden(manager, id, reason, actor.id);
      await this.notifications.record(manager, { type: 'COMMENT_HIDDEN', actorId: actor.id, commentId: id, reason });
      await this.audit.record(manager, {
        type: AuditType.COMMENT_HIDDEN,
        actorId: actor.id,
        targetType: 'comment',
        targetId: id,
        title: 'Comment hidden',
        description: `A comment on '${locked.slug}' was hidden by ${isAdmin ? 'an admin' : "the post's author"}: ${excerpt(reason)}`,
        link: AuditLinks.comment(id),
        details: { postId: locked.id, reason, by: isAdmin ? 'ADMIN' : 'POST_AUTHOR', before: comment.moderation },
      });
      return { moderation: CommentModeration.HIDDEN, hiddenReason: reason };
    });
    await this.countersChanged(post);
    return { id, ...state, reportCount: await this.repository.reportCount(id) };
  }

  /** Back to VISIBLE from HIDDEN or HELD (approving a held comment). */
  async restore(id: number, actor: AuthUser): Promise<CommentModerationStateDto> {
    const { post } = await this.inTransaction(id, async (manager, { comment, post: locked }) => {
      if (comment.moderation === CommentModeration.VISIBLE) throw new ConflictException(ModerationMessages.NOT_MODERATED);
      await this.repository.setVisible(manager, id);
      await this.moveCounters(manager, comment, +1);
      // An approved HELD comment is published now: its reply and post-comment notifications go out now, not before.
      if (comment.moderation === CommentModeration.HELD && comment.user_id !== null) {
        await this.commentsService.notifyPublished(manager, { id, postId: comment.post_id, actorId: comment.user_id, repliedToId: comment.parent_id });
      }
      await this.audit.record(manager, {
        type: AuditType.COMMENT_RESTORED,
        actorId: actor.id,
        targetType: 'comment',
        targetId: id,
        title: comment.moderation === CommentModeration.HELD ? 'Held comment approved' : 'Comment restored',
        description: `A ${comment.moderation === CommentModeration.HELD ? 'held' : 'hidden'} comment on '${locked.slug}' is visible again`,
        link: AuditLinks.comment(id),
        details: { postId: locked.id, before: comment.moderation },
      });
      return {};
    });
    await this.countersChanged(post);
    return { id, moderation: CommentModeration.VISIBLE, hiddenReason: null, reportCount: await this.repository.reportCount(id) };
  }

  /** The admin delete of CommentsService (placeholder when it has replies), with its audit entry. */
  async remove(id: number, actor: AuthUser): Promise<void> {
    const content = await this.repository.contentOf(id);
    await this.commentsService.remove(id, actor, async (manager, comment) => {
      await this.audit.record(manager, {
        type: AuditType.COMMENT_DELETED,
        actorId: actor.id,
        targetType: 'comment',
        targetId: id,
        title: 'Comment deleted',
        description: `A comment was deleted from the moderation queue: ${excerpt(content ?? '')}`,
        link: null,
        details: { postId: comment.post_id, authorId: comment.user_id, moderation: comment.moderation, content },
      });
    });
  }

  async dismissReports(id: number, actor: AuthUser): Promise<CommentModerationStateDto> {
    const { state } = await this.inTransaction(id, async (manager, { comment, post }) => {
      const dismissed = await this.repository.dismissReports(manager, id);
      if (!dismissed) throw new ConflictException(ModerationMessages.NO_OPEN_REPORTS);
      await this.audit.record(manager, {
        type: AuditType.COMMENT_REPORTS_DISMISSED,
        actorId: actor.id,
        targetType: 'comment',
        targetId: id,
        title: 'Comment reports dismissed',
        description: `${dismissed} report${dismissed === 1 ? '' : 's'} of a comment on '${post.slug}' dismissed`,
        link: AuditLinks.comment(id),
        details: { postId: post.id, dismissed },
      });
      return { moderation: comment.moderation, hiddenReason: null };
    });
    const [row] = (await this.dataSource.query('SELECT hidden_reason FROM comments WHERE id = $1', [id])) as { hidden_reason: string | null }[];
    return { id, moderation: state.moderation, hiddenReason: row?.hidden_reason ?? null, reportCount: 0 };
  }

  /** Each id on its own (one transaction each): what the single action would have answered. */
  async bulk(dto: CommentBulkDto, actor: AuthUser): Promise<BulkResultDto[]> {
    const results: BulkResultDto[] = [];
    for (const id of [...new Set(dto.ids)]) {
      try {
        await this.single(dto.action, id, dto.reason ?? '', actor);
        results.push({ id, status: dto.action === 'delete' ? 204 : 200, ok: true, message: SINGLE_MESSAGES[dto.action] });
      } catch (error) {
        if (!(error instanceof HttpException)) throw error;
        const body = error.getResponse();
        const message = typeof body === 'string' ? body : String((body as { message?: unknown }).message ?? error.message);
        results.push({ id, status: error.getStatus(), ok: false, message });
      }
    }
    return results;
  }

  private single(action: BulkAction, id: number, reason: string, actor: AuthUser): Promise<unknown> {
    switch (action) {
      case 'hide':
        return this.hide(id, reason, actor);
      case 'restore':
        return this.restore(id, actor);
      case 'delete':
        return this.remove(id, actor);
      case 'dismiss':
        return this.dismissReports(id, actor);
    }
  }

  queue(filter: QueueFilter, sort: QueueSort, search: string | undefined, page: number, size: number): Promise<ModerationQueuePageDto> {
    return this.repository.queue(filter, sort, search || undefined, page, size);
  }

  async mute(userId: number, dto: UserMuteDto, actor: AuthUser): Promise<UserMuteStatusDto> {
    if (userId === actor.id) throw new ForbiddenException(ModerationMessages.MUTE_SELF);
    const until = dto.until === null ? null : new Date(dto.until);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.userExists(manager, userId))) throw new NotFoundException(ModerationMessages.USER_NOT_FOUND);
      await this.repository.upsertMute(manager, userId, until, dto.reason, actor.id);
      await this.audit.record(manager, {
        type: AuditType.USER_MUTED,
        actorId: actor.id,
        targetType: 'user',
        targetId: userId,
        title: 'User muted',
        description: `Commenting stopped ${until ? `until ${this.policy.siteTime(until)}` : 'for good'}: ${excerpt(dto.reason)}`,
        link: AuditLinks.user(userId),
        details: { until: until?.toISOString() ?? null, forever: until === null, reason: dto.reason },
      });
    });
    return this.muteStatus(userId);
  }

  async unmute(userId: number, actor: AuthUser): Promise<UserMuteStatusDto> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.userExists(manager, userId))) throw new NotFoundException(ModerationMessages.USER_NOT_FOUND);
      // An expired mute is no mute: lifting it is 409 like lifting none (its row goes all the same).
      const active = await this.policy.activeMute(manager, userId);
      await this.repository.deleteMute(manager, userId);
      if (!active) throw new ConflictException(ModerationMessages.NOT_MUTED);
      await this.audit.record(manager, {
        type: AuditType.USER_UNMUTED,
        actorId: actor.id,
        targetType: 'user',
        targetId: userId,
        title: 'User unmuted',
        description: 'The user can comment again',
        link: AuditLinks.user(userId),
        details: { until: active.mutedUntil?.toISOString() ?? null, reason: active.reason },
      });
    });
    return this.muteStatus(userId);
  }

  async muteStatus(userId: number): Promise<UserMuteStatusDto> {
    const mute = await this.policy.activeMute(this.dataSource.manager, userId);
    return {
      userId,
      mutedUntil: mute?.mutedUntil ? mute.mutedUntil.toISOString() : null,
      mutedForever: !!mute && mute.mutedUntil === null,
      muteReason: mute?.reason ?? null,
    };
  }

  /**
   * Runs `work` with the comment's post and row locked (the comment writers' order); 404 for a
   * comment that is gone or deleted.
   */
  private async inTransaction<T>(id: number, work: (manager: EntityManager, locked: LockedComment) => Promise<T>): Promise<{ post: PostRef; state: T }> {
    return this.dataSource.transaction(async (manager) => {
      const postId = await this.comments.postIdOf(manager, id);
      if (postId === undefined) throw new NotFoundException(CommentsMessages.NOT_FOUND);
      const post = await this.comments.lockPost(manager, postId);
      const comment = await this.comments.lock(manager, id);
      if (!post || !comment || comment.deleted_at) throw new NotFoundException(CommentsMessages.NOT_FOUND);
      return { post, state: await work(manager, { comment, post }) };
    });
  }

  /** The comment enters (+1) or leaves (-1) the counts: its post's comment_count and its parent's reply_count. */
  private async moveCounters(manager: EntityManager, comment: CommentLockRow, delta: 1 | -1): Promise<void> {
    if (comment.parent_id !== null) await this.comments.addToReplyCount(manager, comment.parent_id, delta);
    await this.posts.adjustCounters(manager, comment.post_id, { comments: delta });
  }

  private countersChanged(post: PostRef): Promise<void> {
    return this.contentEvents.changed({ kind: 'post-counters', postId: post.id, slug: post.slug, counter: 'comments' });
  }
}

const SINGLE_MESSAGES: Record<BulkAction, string> = {
  hide: ModerationMessages.HIDDEN,
  restore: ModerationMessages.RESTORED,
  delete: ModerationMessages.DELETED,
  dismiss: ModerationMessages.DISMISSED,
};
