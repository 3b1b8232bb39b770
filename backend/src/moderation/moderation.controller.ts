import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Auth, CurrentUser, TokenScope } from '../auth/auth.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import { CommentBulkDto, CommentHideDto, CommentQueueQueryDto, CommentReportCreateDto, UserMuteDto } from './dto/moderation-input.dto';
import {
  BulkResultDto,
  CommentModerationStateDto,
  CommentReportCreatedDto,
  ModerationQueuePageDto,
  UserMuteStatusDto,
} from './dto/moderation-response.dto';
import { ModerationMessages } from './moderation.messages';
import { ModerationService } from './moderation.service';

const ADMIN = Auth({ role: RoleName.ADMIN, forbidden: ModerationMessages.FORBIDDEN_ADMIN });

/** What readers and post authors do about a comment. */
@ApiTags('Moderation')
@Controller('comments')
export class CommentModerationController {
  constructor(private readonly moderation: ModerationService) {}

  @Post(':id/reports')
  @Auth()
  @TokenScope('comments:write')
  @ApiOperation({
    summary:
      'Report a visible comment (any signed-in reader): reason SPAM | HARASSMENT | OFF_TOPIC | OTHER (details required for OTHER, at most 500 characters). ' +
      "Once per comment per reader (409), never one's own (403), at most REPORT_LIMIT_PER_DAY reports a day (429)",
  })
  @ApiEnvelope(CommentReportCreatedDto, { status: 201 })
  @ApiErrors(400, 404, 409, 429)
  async reportComment(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: CommentReportCreateDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<CommentReportCreatedDto>> {
    return withMessage(await this.moderation.report(id, dto, user), ModerationMessages.REPORTED);
  }

  @Post(':id/hide')
  @HttpCode(200)
  @Auth()
  @TokenScope('comments:write')
  @ApiOperation({
    summary:
      "Hide a comment with a reason: an admin, or the author of the comment's post (others 403). Readers see '[This comment has been hidden by a moderator]', replies kept; " +
      "it leaves commentCount and its parent's replyCount. Already hidden: 409",
  })
  @ApiEnvelope(CommentModerationStateDto)
  @ApiErrors(400, 404, 409)
  async hideComment(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: CommentHideDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<CommentModerationStateDto>> {
    return withMessage(await this.moderation.hide(id, dto.reason, user), ModerationMessages.HIDDEN);
  }
}

/** The moderation queue and muting (admins). */
@ApiTags('Moderation')
@Controller('admin')
export class AdminModerationController {
  constructor(private readonly moderation: ModerationService) {}

  @Get('comments')
  @ADMIN
  @ApiOperation({
    summary:
      "The moderation queue (admin): filter reported (open reports, default) | hidden | held | all (not deleted); search in the text and the author's name or e-mail; " +
      'sort newest (default) | reports (most open reports first); each row with its post, parent and open reports',
  })
  @ApiEnvelope(ModerationQueuePageDto)
  @ApiErrors(400)
  listModerationQueue(@Query() query: CommentQueueQueryDto): Promise<ModerationQueuePageDto> {
    return this.moderation.queue(query.filter ?? 'reported', query.sort ?? 'newest', query.search, query.page, query.size);
  }

  @Post('comments/bulk')
  @HttpCode(200)
  @ADMIN
  @ApiOperation({
    summary:
      'One action on up to 100 comments (admin): hide (reason required), restore, delete, dismiss; a result per id, each in its own transaction',
  })
  @ApiEnvelope(BulkResultDto, { isArray: true })
  @ApiErrors(400)
  async bulkModerateComments(@Body() dto: CommentBulkDto, @CurrentUser() user: AuthUser): Promise<WithMessage<BulkResultDto[]>> {
    return withMessage(await this.moderation.bulk(dto, user), ModerationMessages.BULK_DONE);
  }

  @Post('comments/:id/restore')
  @HttpCode(200)
  @ADMIN
  @ApiOperation({ summary: 'Make a hidden or held comment visible again (admin; approving a held one publishes it). Neither: 409' })
  @ApiEnvelope(CommentModerationStateDto)
  @ApiErrors(400, 404, 409)
  async restoreComment(
    @Param('id', ParseIdPipe) id: number,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<CommentModerationStateDto>> {
    return withMessage(await this.moderation.restore(id, user), ModerationMessages.RESTORED);
  }

  @Delete('comments/:id')
  @HttpCode(204)
  @ADMIN
  @ApiOperation({
    summary:
      "Delete a comment from the queue (admin): as DELETE /comments/{id} ('[This comment has been deleted]' when it has replies), audit-logged",
  })
  @ApiNoContentResponse({ description: 'Deleted (no body)' })
  @ApiErrors(400, 404)
  async deleteModeratedComment(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<void> {
    await this.moderation.remove(id, user);
  }

  @Post('comments/:id/dismiss-reports')
  @HttpCode(200)
  @ADMIN
  @ApiOperation({ summary: "Dismiss a comment's open reports (admin); the reporters cannot report it again. None open: 409" })
  @ApiEnvelope(CommentModerationStateDto)
  @ApiErrors(400, 404, 409)
  async dismissCommentReports(
    @Param('id', ParseIdPipe) id: number,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<CommentModerationStateDto>> {
    return withMessage(await this.moderation.dismissReports(id, user), ModerationMessages.DISMISSED);
  }

  @Post('users/:id/mute')
  @HttpCode(200)
  @ADMIN
  @ApiOperation({
    summary:
      'Stop a user commenting (admin): until an ISO date-time in the future, or null for good, with a reason; replaces a mute in force. Not oneself (403)',
  })
  @ApiEnvelope(UserMuteStatusDto)
  @ApiErrors(400, 404)
  async muteUser(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: UserMuteDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<UserMuteStatusDto>> {
    return withMessage(await this.moderation.mute(id, dto, user), ModerationMessages.MUTED);
  }

  @Delete('users/:id/mute')
  @ADMIN
  @ApiOperation({ summary: 'Let a muted user comment again (admin). Not muted (or the mute already ended): 409' })
  @ApiEnvelope(UserMuteStatusDto)
  @ApiErrors(400, 404, 409)
  async unmuteUser(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<WithMessage<UserMuteStatusDto>> {
    return withMessage(await this.moderation.unmute(id, user), ModerationMessages.UNMUTED);
  }
}
