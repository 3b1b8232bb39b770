import { ConflictException, ForbiddenException, HttpException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { TooManyRequestsException } from '../common/too-many-requests';
import { CommentModeration } from '../comments/entities/comment.entity';
import type { MoveRefusal } from '../comments/visibility/comment-moves';
import { actorOf, commentFacts, CommentVisibility } from '../comments/visibility/comment-visibility.service';
import { APP_CONFIG, type AppConfig } from '../config/env';
import { DomainEvents } from '../events/domain-events.service';
import { PostStatus } from '../posts/entities/post.entity';
import { RoleName } from '../users/roles';
import { UserLifecycleService } from '../users/user-lifecycle.service';
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

/** The moderation texts of the visibility moves a moderator may not make. */
const refusedModeration = (refusal: MoveRefusal): Error | undefined => {
  if (refusal === 'already-hidden') return new ConflictException(ModerationMessages.ALREADY_HIDDEN);
  if (refusal === 'not-moderated') return new ConflictException(ModerationMessages.NOT_MODERATED);
  return undefined;
};

/**
 * Comment moderation: readers' reports, hiding (admins, and authors on their own
 * posts), restoring (which also approves a HELD comment), deleting and dismissing reports from
 * the queue; muting users goes through the user lifecycle (UserLifecycleService). Who may is checked
 * here; the visibility moves, their counters and events are CommentVisibility's, and the audit
 * entries, notifications and cache notices follow those events (audit/comment-audit.subscriber.ts,
 * notifications/comment-notifications.subscriber.ts, comments/visibility/comment-cache.subscriber.ts).
 */
@Injectable()
export class ModerationService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly visibility: CommentVisibility,
    private readonly events: DomainEvents,
    private readonly repository: ModerationRepository,
    private readonly userLifecycle: UserLifecycleService,
  ) {}

  /**
   * An erased account's reports go with it, in the erasure's transaction: each
   * comment's report_count loses the account's open report, so it still equals the open reports.
   */
  withdrawReportsOf(manager: EntityManager, reporterId: number): Promise<number> {
    return this.repository.withdrawReportsOf(manager, reporterId);
  }

  async report(id: number, dto: CommentReportCreateDto, user: AuthUser): Promise<CommentReportCreatedDto> {
    const createdAt = await this.events.transaction(async ({ manager, record }) => {
      const rows = (await manager.query(
        `SELECT c.id, c.post_id, c.parent_id, c.user_id, c.deleted_at, c.moderation, p.status, p.slug, p.author_id FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.id = $1`,
        [id],
      )) as {
        id: number;
        post_id: number;
        parent_id: number | null;
        user_id: number | null;
        deleted_at: Date | null;
        moderation: CommentModeration;
        status: string;
        slug: string;
        author_id: number | null;
      }[];
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
      const report = await this.repository.insertReport(manager, id, user.id, dto.reason, dto.details ?? null);
      if (!report) throw new ConflictException(ModerationMessages.ALREADY_REPORTED);
      // The admins are told with the report or not at all (the notifications' subscriber, in this transaction).
      const post = { id: comment.post_id, status: comment.status, slug: comment.slug, author_id: comment.author_id };
      await record({
        name: 'comment.reported',
        actor: actorOf(user),
        data: {
          ...commentFacts(comment, post, { visibility: comment.moderation, deleted: false }),
          reportId: report.id,
          reason: dto.reason,
        },
      });
      return report.createdAt;
    });
    return { commentId: id, reason: dto.reason, createdAt: createdAt.toISOString() };
  }

  /** Hide with a reason: an admin, or the author of the comment's post. */
  async hide(id: number, reason: string, actor: AuthUser): Promise<CommentModerationStateDto> {
    await this.visibility.move(
      id,
      actorOf(actor),
      ({ post }) => {
        const isAdmin = actor.role === RoleName.ADMIN;
        if (!isAdmin && post.author_id !== actor.id) throw new ForbiddenException(ModerationMessages.FORBIDDEN_HIDE);
        return { move: 'hide', reason, by: isAdmin ? 'ADMIN' : 'POST_AUTHOR' };
      },
      refusedModeration,
    );
    return { id, moderation: CommentModeration.HIDDEN, hiddenReason: reason, reportCount: await this.repository.reportCount(id) };
  }

  /** Back to VISIBLE from HIDDEN (restore) or HELD (approving a held comment). */
  async restore(id: number, actor: AuthUser): Promise<CommentModerationStateDto> {
    await this.visibility.move(
      id,
      actorOf(actor),
      ({ comment }) => ({ move: comment.moderation === CommentModeration.HELD ? 'approve' : 'restore' }),
      refusedModeration,
    );
    return { id, moderation: CommentModeration.VISIBLE, hiddenReason: null, reportCount: await this.repository.reportCount(id) };
  }

  /** An admin's delete from the queue: as CommentsService's (placeholder when it has replies); the event keeps its text for the audit log. */
  async remove(id: number, actor: AuthUser): Promise<void> {
    await this.visibility.move(id, actorOf(actor), () => ({ move: 'delete', via: 'moderation-queue' }));
  }

  async dismissReports(id: number, actor: AuthUser): Promise<CommentModerationStateDto> {
    const moderation = await this.visibility.locked(id, async ({ manager, record }, { comment, post }) => {
      const dismissed = await this.repository.dismissReports(manager, id);
      if (!dismissed) throw new ConflictException(ModerationMessages.NO_OPEN_REPORTS);
      await record({
        name: 'comment.reports_dismissed',
        actor: actorOf(actor),
        data: { ...commentFacts(comment, post, { visibility: comment.moderation, deleted: false }), dismissed },
      });
      return comment.moderation;
    });
    return { id, moderation, hiddenReason: await this.repository.hiddenReason(id), reportCount: 0 };
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

  /** Muting is the user lifecycle's (it writes the mute, its event and its audit entry); the answer is the mute in force. */
  async mute(userId: number, dto: UserMuteDto, actor: AuthUser): Promise<UserMuteStatusDto> {
    await this.userLifecycle.mute(userId, { until: dto.until === null ? null : new Date(dto.until), reason: dto.reason }, actor);
    return this.muteStatus(userId);
  }

  async unmute(userId: number, actor: AuthUser): Promise<UserMuteStatusDto> {
    await this.userLifecycle.unmute(userId, actor);
    return this.muteStatus(userId);
  }

  async muteStatus(userId: number): Promise<UserMuteStatusDto> {
    const mute = await this.repository.activeMute(userId);
    return {
      userId,
      mutedUntil: mute?.mutedUntil ? mute.mutedUntil.toISOString() : null,
      mutedForever: !!mute && mute.mutedUntil === null,
      muteReason: mute?.reason ?? null,
    };
  }
}

const SINGLE_MESSAGES: Record<BulkAction, string> = {
  hide: ModerationMessages.HIDDEN,
  restore: ModerationMessages.RESTORED,
  delete: ModerationMessages.DELETED,
  dismiss: ModerationMessages.DISMISSED,
};
