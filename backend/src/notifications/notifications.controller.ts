import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { AuthUser } from '../auth/auth-user';
import { ApiEnvelope, ApiPagedEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { Page, PageQueryDto } from '../common/pagination/page';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import {
  MarkedReadDto,
  NotificationDto,
  NotificationPreferencesDto,
  UnreadCountDto,
  UnsubscribeDto,
  UnsubscribeQueryDto,
  UpdateNotificationPreferencesDto,
} from './dto/notification.dto';
import { NotificationInboxService, UNREAD_COUNT } from './notification-inbox.service';
import { NotificationsMessages } from './notifications.messages';

/** Unsubscribe links are opened without a session: a tight limit per client address against token guessing. */
const UNSUBSCRIBE_LIMIT = Throttle({ default: { limit: 30, ttl: 60_000 } });

@ApiTags('Notifications')
@Controller('notifications')
export class NotificationsController {
  constructor(private readonly inbox: NotificationInboxService) {}

  @Get()
  @Auth()
  @ApiOperation({ summary: "The caller's notifications: unread first, then newest (each with the link to open)" })
  @ApiPagedEnvelope(NotificationDto)
  @ApiErrors(400)
  async list(@Query() query: PageQueryDto, @CurrentUser() user: AuthUser): Promise<WithMessage<Page<NotificationDto>>> {
    return withMessage(await this.inbox.list(user, query.page, query.size), NotificationsMessages.LIST);
  }

  @Get('unread-count')
  @Auth({ alongside: [UNREAD_COUNT] })
  @ApiOperation({ summary: "How many of the caller's notifications are unread (the header's bell)" })
  @ApiEnvelope(UnreadCountDto)
  async unreadCount(@CurrentUser() user: AuthUser): Promise<WithMessage<UnreadCountDto>> {
    // Read with the session (one round trip); on its own when the caller was resolved without it (a page's later call).
    const read = user.alongside?.[UNREAD_COUNT.key];
    return withMessage({ count: typeof read === 'number' ? read : await this.inbox.unreadCount(user) }, NotificationsMessages.UNREAD);
  }

  @Post('read-all')
  @HttpCode(200)
  @Auth()
  @ApiOperation({ summary: "Marks every one of the caller's notifications read" })
  @ApiEnvelope(MarkedReadDto)
  async readAll(@CurrentUser() user: AuthUser): Promise<WithMessage<MarkedReadDto>> {
    return withMessage({ updated: await this.inbox.markAllRead(user) }, NotificationsMessages.READ_ALL);
  }

  @Post(':id/read')
  @HttpCode(200)
  @Auth()
  @ApiParam({ name: 'id', description: 'Notification id (a positive whole number)', schema: { type: 'integer', minimum: 1 } })
  @ApiOperation({ summary: "Marks one of the caller's notifications read; 404 for another's or an unknown id" })
  @ApiEnvelope(UnreadCountDto, { description: 'The unread count after it' })
  @ApiErrors(400, 404)
  async read(
    @Param('id', new ParseIdPipe(NotificationsMessages.INVALID_ID)) id: number,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<UnreadCountDto>> {
    await this.inbox.markRead(user, id);
    return withMessage({ count: await this.inbox.unreadCount(user) }, NotificationsMessages.READ);
  }

  @Get('preferences')
  @Auth()
  @ApiOperation({ summary: "The caller's notification preferences (the types that apply to their role) and the digest switch" })
  @ApiEnvelope(NotificationPreferencesDto)
  async preferences(@CurrentUser() user: AuthUser): Promise<WithMessage<NotificationPreferencesDto>> {
    return withMessage(await this.inbox.preferences(user), NotificationsMessages.PREFERENCES);
  }

  @Put('preferences')
  @Auth()
  @ApiOperation({
    summary: 'Changes the listed types (in-app, e-mail) and the digest switch; a type that does not apply to the role is 400',
  })
  @ApiEnvelope(NotificationPreferencesDto)
  @ApiErrors(400)
  async updatePreferences(
    @Body() dto: UpdateNotificationPreferencesDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<NotificationPreferencesDto>> {
    return withMessage(await this.inbox.updatePreferences(user, dto), NotificationsMessages.PREFERENCES_SAVED);
  }

  @Get('unsubscribe')
  @UNSUBSCRIBE_LIMIT
  @ApiOperation({ summary: "What an e-mail's unsubscribe link stops (no sign-in; changes nothing: mail scanners open links)" })
  @ApiEnvelope(UnsubscribeDto)
  @ApiErrors(400)
  async unsubscribePreview(@Query() query: UnsubscribeQueryDto): Promise<WithMessage<UnsubscribeDto>> {
    return withMessage(await this.inbox.unsubscribePreview(query.token), NotificationsMessages.UNSUBSCRIBE_PREVIEW);
  }

  @Post('unsubscribe')
  @HttpCode(200)
  @UNSUBSCRIBE_LIMIT
  @ApiOperation({
    summary:
      "Stops the e-mails the token names (no sign-in). RFC 8058 one-click: mail providers POST the form body 'List-Unsubscribe=One-Click' to the List-Unsubscribe address",
  })
  @ApiEnvelope(UnsubscribeDto)
  @ApiErrors(400)
  async unsubscribe(@Query() query: UnsubscribeQueryDto): Promise<WithMessage<UnsubscribeDto>> {
    return withMessage(await this.inbox.unsubscribe(query.token), NotificationsMessages.UNSUBSCRIBED);
  }
}
