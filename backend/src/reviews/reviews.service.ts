import { BadRequestException, ConflictException, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { AuditLinks, AuditType } from '../audit/audit.types';
import type { AuthUser } from '../auth/auth-user';
import { CLOCK, Clock } from '../common/clock';
import { siteTimeFormatter } from '../common/site-time';
import { APP_CONFIG, AppConfig } from '../config/env';
import { NotificationsService } from '../notifications/notifications.service';
import { RevisionKind } from '../revisions/entities/post-revision.entity';
import { PostStatus } from '../posts/entities/post.entity';
import { RevisionsService } from '../revisions/revisions.service';
import { PostsService } from '../posts/posts.service';
import { parsePublishTime } from '../scheduling/publish-time';
import { SchedulingMessages } from '../scheduling/scheduling.messages';
import { RoleName } from '../auth/roles';
import { PostReviewDto } from './dto/review-input.dto';
import { PostReviewResponseDto, PostReviewResultDto } from './dto/review-response.dto';
import { PostReview, ReviewStatus } from './entities/post-review.entity';
import { toReviewResponse } from './review.mapper';
import { ReviewsMessages } from './reviews.messages';

const APPROVABLE = new Set([PostStatus.PENDING_REVIEW, PostStatus.REJECTED]);
const REJECTABLE = new Set([PostStatus.PENDING_REVIEW]);

/** Admin decisions on posts: APPROVED publishes, REJECTED (with a reason) sends it back. Every review is kept. */
@Injectable()
export class ReviewsService {
  /** Times in audit descriptions as the pages show them (the site's zone, named). */
  private readonly siteTime: (date: Date) => string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly posts: PostsService,
    private readonly audit: AuditService,
    private readonly notifications: NotificationsService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly revisions: RevisionsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.siteTime = siteTimeFormatter(config.siteTimeZone);
  }

  async review(postId: number, dto: PostReviewDto, reviewer: AuthUser): Promise<{ result: PostReviewResultDto; message: string }> {
    if (dto.status === ReviewStatus.REJECTED && !dto.rejectionReason) {
      throw new BadRequestException({ message: ReviewsMessages.REASON_REQUIRED, errors: { rejectionReason: [ReviewsMessages.REASON_REQUIRED] } });
    }
    // APPROVED with a publish time schedules the post instead of publishing it (issue 20).
    const publishAt = this.publishTime(dto);
    let before: { status: PostStatus; slug: string } | undefined;
    const reviewId = await this.dataSource.transaction(async (manager) => {
      const post = await this.posts.lockForUpdate(manager, postId);
      before = { status: post.status, slug: post.slug };
      if (dto.status === ReviewStatus.APPROVED) {
        if (!APPROVABLE.has(post.status)) throw new ConflictException(ReviewsMessages.cannotApprove(post.status));
        if (publishAt) await this.posts.schedule(manager, postId, publishAt, reviewer.id);
        else await this.posts.setStatus(manager, postId, PostStatus.PUBLISHED, post.publishedAt ?? new Date());
      } else {
        if (!REJECTABLE.has(post.status)) throw new ConflictException(ReviewsMessages.cannotReject(post.status));
        await this.posts.setStatus(manager, postId, PostStatus.REJECTED);
      }
      const review = manager.create(PostReview, {
        postId,
        reviewerId: reviewer.id,
        status: dto.status,
        reviewNote: dto.reviewNote ?? null,
        adminNotes: dto.adminNotes ?? null,
        rejectionReason: dto.status === ReviewStatus.REJECTED ? (dto.rejectionReason ?? null) : null,
      });
      const saved = await manager.save(PostReview, review);
      const approved = dto.status === ReviewStatus.APPROVED;
      await this.revisions.pin(manager, postId, approved ? RevisionKind.APPROVED : RevisionKind.REJECTED, reviewer.id);
      if (publishAt) {
        await this.audit.record(manager, {
          type: AuditType.POST_SCHEDULED,
          actorId: reviewer.id,
          targetType: 'post',
          targetId: postId,
          title: 'Post scheduled',
          description: `"${post.title}" was approved and scheduled for ${this.siteTime(publishAt)}`,
          link: AuditLinks.adminPost(postId),
          details: { from: post.status, via: 'review', reviewId: saved.id, publishAt: publishAt.toISOString(), requestedPublishAt: post.requestedPublishAt?.toISOString() ?? null },
        });
        await this.notifications.record(manager, { type: 'POST_APPROVED', actorId: reviewer.id, postId, publishAt });
        return saved.id;
      }
      await this.audit.record(manager, {
        type: approved ? AuditType.POST_PUBLISHED : AuditType.POST_REJECTED,
        actorId: reviewer.id,
        targetType: 'post',
        targetId: postId,
        title: approved ? 'Post published' : 'Post rejected',
        description: approved ? `"${post.title}" was approved and published` : `"${post.title}" was rejected: ${saved.rejectionReason ?? ''}`,
        link: approved ? AuditLinks.publicPost(post.slug) : AuditLinks.adminPost(postId),
        details: {
          ...(approved ? { from: post.status, via: 'review', reviewId: saved.id } : { reviewId: saved.id, reason: saved.rejectionReason }),
          // A scheduled post decided otherwise (published now, rejected): the schedule it dropped.
          ...(post.scheduledAt ? { droppedSchedule: post.scheduledAt.toISOString() } : {}),
        },
      });
      await this.notifications.record(
        manager,
        approved ? { type: 'POST_APPROVED', actorId: reviewer.id, postId } : { type: 'POST_REJECTED', actorId: reviewer.id, postId, reason: saved.rejectionReason ?? '' },
      );
      return saved.id;
    });
    const post = await this.posts.findOrFail(postId);
    if (before) await this.posts.notifyChanged(postId, before, { status: post.status, slug: post.slug });
    const review = await this.dataSource.manager.findOneOrFail(PostReview, { where: { id: reviewId }, relations: { reviewer: true } });
    return {
      result: { post: await this.posts.toResponse(post), review: toReviewResponse(review, true) },
      message: publishAt ? SchedulingMessages.APPROVED_AND_SCHEDULED : dto.status === ReviewStatus.APPROVED ? ReviewsMessages.APPROVED : ReviewsMessages.REJECTED,
    };
  }

  /** The review's publish time: only with APPROVED, checked against the clock (400 `errors.publishAt`); undefined when none was given. */
  private publishTime(dto: PostReviewDto): Date | undefined {
    if (dto.publishAt === undefined || dto.publishAt === null) return undefined;
    if (dto.status !== ReviewStatus.APPROVED) {
      const message = SchedulingMessages.PUBLISH_AT_ONLY_WHEN_APPROVING;
      throw new BadRequestException({ message, errors: { publishAt: [message] } });
    }
    return parsePublishTime(dto.publishAt, this.clock.now(), 'publishAt', SchedulingMessages.PUBLISH_AT_LABEL);
  }

  /** Newest first. Admins, and the post's author for their own post (without the internal admin notes). */
  async history(postId: number, user: AuthUser): Promise<PostReviewResponseDto[]> {
    // Readers are refused before the lookup, so they cannot probe which post ids exist.
    if (user.role === RoleName.USER) throw new ForbiddenException(ReviewsMessages.FORBIDDEN_HISTORY);
    const post = await this.posts.findOrFail(postId);
    const isAdmin = user.role === RoleName.ADMIN;
    if (!isAdmin && post.authorId !== user.id) throw new ForbiddenException(ReviewsMessages.FORBIDDEN_HISTORY);
    const reviews = await this.dataSource.manager.find(PostReview, {
      where: { postId },
      relations: { reviewer: true },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    return reviews.map((review) => toReviewResponse(review, isAdmin));
  }
}
