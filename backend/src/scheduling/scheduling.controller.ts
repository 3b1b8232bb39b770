import { Body, Controller, Delete, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { PostResponseDto } from '../posts/dto/post-response.dto';
import { RoleName } from '../users/roles';
import { PostScheduleDto } from './dto/schedule.dto';
import { SchedulingMessages } from './scheduling.messages';
import { SchedulingService } from './scheduling.service';

@ApiTags('Reviews')
@Controller('blog/posts/admin')
export class SchedulingController {
  constructor(private readonly scheduling: SchedulingService) {}

  @Put(':id/schedule')
  @Auth({ role: RoleName.ADMIN, forbidden: SchedulingMessages.FORBIDDEN_SCHEDULE })
  @ApiOperation({
    summary:
      'Reschedule a scheduled post (admin): an approved post waiting for its time (PENDING_REVIEW with scheduledAt) gets a new publishAt ' +
      '(ISO 8601 with a zone, at least 1 minute in the future, at most 1 year ahead; else 400). A post that is not scheduled is 409',
  })
  @ApiEnvelope(PostResponseDto)
  @ApiErrors(400, 404, 409)
  async reschedulePost(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: PostScheduleDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<PostResponseDto>> {
    return withMessage(await this.scheduling.reschedule(id, dto.publishAt, user), SchedulingMessages.RESCHEDULED);
  }

  @Delete(':id/schedule')
  @Auth({ role: RoleName.ADMIN, forbidden: SchedulingMessages.FORBIDDEN_SCHEDULE })
  @ApiOperation({
    summary:
      'Cancel a schedule (admin): the post stays PENDING_REVIEW without scheduledAt, back in the review queue. A post that is not scheduled is 409',
  })
  @ApiEnvelope(PostResponseDto)
  @ApiErrors(400, 404, 409)
  async cancelPostSchedule(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<WithMessage<PostResponseDto>> {
    return withMessage(await this.scheduling.cancel(id, user), SchedulingMessages.CANCELLED);
  }
}
