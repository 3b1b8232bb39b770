import { BadRequestException, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { CLOCK, Clock } from '../common/clock';
import { PostsService } from '../posts/posts.service';
import { DomainEvents } from '../events/domain-events.service';
import { LifecycleMessages } from '../posts/lifecycle/lifecycle.messages';
import { PostLifecycle } from '../posts/lifecycle/post-lifecycle.service';
import { parsePublishTime } from '../posts/lifecycle/publish-time';
import { SchedulingMessages } from '../scheduling/scheduling.messages';
import { RoleName } from '../users/roles';
import { PostReviewDto } from './dto/review-input.dto';
import { PostReviewResponseDto, PostReviewResultDto } from './dto/review-response.dto';
import { PostReview, ReviewStatus } from './entities/post-review.entity';
import { toReviewResponse } from './review.mapper';
import { ReviewsMessages } from './reviews.messages';

/** Admin decisions on posts: APPROVED publishes, REJECTED (with a reason) sends it back. Every review is kept. */
@Injectable()
export class ReviewsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly posts: PostsService,
    private readonly lifecycle: PostLifecycle,
    private readonly events: DomainEvents,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async review(postId: number, dto: PostReviewDto, reviewer: AuthUser): Promise<{ result: PostReviewResultDto; message: string }> {
    if (dto.status === ReviewStatus.REJECTED && !dto.rejectionReason) {
      throw new BadRequestException({
        message: ReviewsMessages.REASON_REQUIRED,
        errors: { rejectionReason: [ReviewsMessages.REASON_REQUIRED] },
      });
    }
    // APPROVED with a publish time schedules the post instead of publishing it.
    const publishAt = this.publishTime(dto);
    const approved = dto.status === ReviewStatus.APPROVED;
    const reviewId = await this.events.transaction(async (tx) => {
      await this.lifecycle.lock(tx.manager, postId);
      const review = await tx.manager.save(
        PostReview,
        tx.manager.create(PostReview, {
          postId,
          reviewerId: reviewer.id,
          status: dto.status,
          reviewNote: dto.reviewNote ?? null,
          adminNotes: dto.adminNotes ?? null,
          rejectionReason: approved ? null : (dto.rejectionReason ?? null),
        }),
      );
      const command = approved ? ({ type: 'approve', scheduled: !!publishAt } as const) : ({ type: 'reject' } as const);
      await this.lifecycle.transition(
        tx,
        postId,
        command,
        { kind: 'admin', user: reviewer },
        { publishAt, reviewId: review.id, reason: review.rejectionReason ?? undefined },
      );
      return review.id;
    });
    const post = await this.posts.findOrFail(postId);
    const review = await this.dataSource.manager.findOneOrFail(PostReview, { where: { id: reviewId }, relations: { reviewer: true } });
    return {
      result: { post: await this.posts.toResponse(post, reviewer), review: toReviewResponse(review, true) },
      message: publishAt ? SchedulingMessages.APPROVED_AND_SCHEDULED : approved ? ReviewsMessages.APPROVED : ReviewsMessages.REJECTED,
    };
  }

  /** The review's publish time: only with APPROVED, checked against the clock (400 `errors.publishAt`); undefined when none was given. */
  private publishTime(dto: PostReviewDto): Date | undefined {
    if (dto.publishAt === undefined || dto.publishAt === null) return undefined;
    if (dto.status !== ReviewStatus.APPROVED) {
      const message = SchedulingMessages.PUBLISH_AT_ONLY_WHEN_APPROVING;
      throw new BadRequestException({ message, errors: { publishAt: [message] } });
    }
    return parsePublishTime(dto.publishAt, this.clock.now(), 'publishAt', LifecycleMessages.PUBLISH_AT_LABEL);
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
