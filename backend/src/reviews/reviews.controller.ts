import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import { PostReviewDto } from './dto/review-input.dto';
import { PostReviewResponseDto, PostReviewResultDto } from './dto/review-response.dto';
import { ReviewsMessages } from './reviews.messages';
import { ReviewsService } from './reviews.service';

@ApiTags('Reviews')
@Controller('blog')
export class ReviewsController {
  constructor(private readonly reviews: ReviewsService) {}

  @Put('posts/admin/:id/review')
  @Auth({ role: RoleName.ADMIN, forbidden: ReviewsMessages.FORBIDDEN_REVIEW })
  @ApiOperation({
    summary:
      'Review a post (admin). APPROVED publishes a PENDING_REVIEW or REJECTED post (sets publishedAt), or with publishAt schedules it ' +
      '(it stays PENDING_REVIEW with scheduledAt until the scheduler publishes it at that time; message "Post approved and scheduled."); ' +
      'REJECTED needs a rejectionReason and applies to PENDING_REVIEW posts (a scheduled one included: its schedule is dropped). Other statuses are 409.',
  })
  @ApiEnvelope(PostReviewResultDto)
  @ApiErrors(400, 404, 409)
  async reviewPost(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: PostReviewDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<PostReviewResultDto>> {
    const { result, message } = await this.reviews.review(id, dto, user);
    return withMessage(result, message);
  }

  @Get('post-reviews/:id/history')
  @Auth()
  @ApiOperation({ summary: "A post's reviews, newest first: admins, or the post's author (adminNotes hidden from authors)" })
  @ApiEnvelope(PostReviewResponseDto, { isArray: true })
  @ApiErrors(400, 404)
  getPostReviewHistory(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<PostReviewResponseDto[]> {
    return this.reviews.history(id, user);
  }
}
