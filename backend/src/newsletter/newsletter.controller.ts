import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import {
  ConfirmInfoDto,
  FollowDto,
  FollowerCountDto,
  FollowTargetParams,
  MyFollowsDto,
  PreferencesDto,
  SubscribeDto,
  SubscriberSummaryDto,
  TokenQueryDto,
  UnsubscribeInfoDto,
  UpdatePreferencesDto,
} from './dto/newsletter.dto';
import { NewsletterMessages } from './newsletter.messages';
import { SubscriptionsService } from './subscriptions.service';

/** Links opened without a session: a tight limit per client address against token guessing. */
const LINK_LIMIT = Throttle({ default: { limit: 30, ttl: 60_000 } });
/** The visitor's form sends e-mail: fewer still. */
const SUBSCRIBE_LIMIT = Throttle({ default: { limit: 5, ttl: 60_000 } });
const READER = Auth({ unauthenticated: NewsletterMessages.AUTH_REQUIRED });
const TARGET_DOC = [
  ApiParam({ name: 'kind', enum: ['publication', 'author', 'tag'] }),
  ApiParam({
    name: 'targetId',
    description: '0 for the publication; the author user id; the tag id',
    schema: { type: 'integer', minimum: 0 },
  }),
];
const withTarget = (target: object, key: string, descriptor: PropertyDescriptor) => {
  for (const decorate of TARGET_DOC) decorate(target, key, descriptor);
};

@ApiTags('Newsletter')
@Controller('newsletter')
export class NewsletterController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  // ---- a signed-in reader ----

  @Get('follows')
  @READER
  @ApiOperation({
    summary: "The caller's e-mail follows (the publication, authors, tags) and their cadence; subscriber null before the first follow",
  })
  @ApiEnvelope(MyFollowsDto)
  async listNewsletterFollows(@CurrentUser() user: AuthUser): Promise<WithMessage<MyFollowsDto>> {
    return withMessage(await this.subscriptions.listOwn(user), NewsletterMessages.FOLLOWS);
  }

  @Put('follows/:kind/:targetId')
  @READER
  @withTarget
  @ApiOperation({
    summary:
      "Follow by e-mail with one call (idempotent): the publication (publication/0), an author (author/<userId>) or a tag (tag/<tagId>). The account's own address, active at once; session only (no API-token scope writes follows)",
  })
  @ApiEnvelope(FollowDto)
  @ApiErrors(400, 404, 409)
  async followByEmail(@Param() params: FollowTargetParams, @CurrentUser() user: AuthUser): Promise<WithMessage<FollowDto>> {
    return withMessage(await this.subscriptions.followOwn(user, params.kind, params.targetId), NewsletterMessages.FOLLOWED);
  }

  @Delete('follows/:kind/:targetId')
  @READER
  @withTarget
  @ApiOperation({ summary: 'Unfollow (idempotent: not following is no error); session only' })
  @ApiEnvelope('null')
  @ApiErrors(400)
  async unfollowByEmail(@Param() params: FollowTargetParams, @CurrentUser() user: AuthUser): Promise<WithMessage<null>> {
    await this.subscriptions.unfollowOwn(user, params.kind, params.targetId);
    return withMessage(null, NewsletterMessages.UNFOLLOWED);
  }

  @Put('settings')
  @READER
  @ApiOperation({
    summary: "The caller's cadence: 'instant' (one e-mail per post) or 'weekly' with digestWeekday (0 = Sunday … 6); session only",
  })
  @ApiEnvelope(SubscriberSummaryDto)
  @ApiErrors(400, 409)
  async updateNewsletterSettings(
    @Body() dto: UpdatePreferencesDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<SubscriberSummaryDto>> {
    return withMessage(await this.subscriptions.updateOwnSettings(user, dto), NewsletterMessages.PREFERENCES_SAVED);
  }

  @Get('followers/count')
  @Auth({ role: RoleName.AUTHOR, forbidden: NewsletterMessages.AUTHOR_FORBIDDEN, unauthenticated: NewsletterMessages.AUTH_REQUIRED })
  @ApiOperation({ summary: "How many active subscribers follow the caller (an author) by e-mail: the author's dashboard" })
  @ApiEnvelope(FollowerCountDto)
  async newsletterFollowerCount(@CurrentUser() user: AuthUser): Promise<WithMessage<FollowerCountDto>> {
    return withMessage({ count: await this.subscriptions.followerCount(user.id) }, NewsletterMessages.COUNT);
  }

  // ---- a visitor: double opt-in ----

  @Post('subscribe')
  @HttpCode(202)
  @SUBSCRIBE_LIMIT
  @ApiOperation({
    summary:
      'A visitor follows by e-mail (no account, no password): a confirmation link is e-mailed (double opt-in). The answer is the same whatever the address (new, pending, already subscribed, suppressed): it never tells whether an address is subscribed. 5 a minute per client address',
  })
  @ApiEnvelope('null', { status: 202 })
  @ApiErrors(400, 404, 429)
  async subscribeToNewsletter(@Body() dto: SubscribeDto): Promise<WithMessage<null>> {
    await this.subscriptions.subscribeVisitor(dto);
    return withMessage(null, NewsletterMessages.SUBSCRIBE_SENT);
  }

  @Get('confirm')
  @LINK_LIMIT
  @ApiOperation({
    summary: 'What a confirmation link confirms (changes nothing: mail scanners open links); 400 invalid or replaced, 410 expired',
  })
  @ApiEnvelope(ConfirmInfoDto)
  @ApiErrors(400, 410, 429)
  async newsletterConfirmInfo(@Query() query: TokenQueryDto): Promise<WithMessage<ConfirmInfoDto>> {
    return withMessage(await this.subscriptions.confirmInfo(query.token), NewsletterMessages.CONFIRM_CHECKED);
  }

  @Post('confirm')
  @HttpCode(200)
  @LINK_LIMIT
  @ApiOperation({
    summary:
      'Confirms the subscription: active, following what the link names; answers the preferences token. Using the link again changes nothing; 400 invalid or replaced, 410 expired',
  })
  @ApiEnvelope(ConfirmInfoDto)
  @ApiErrors(400, 410, 429)
  async confirmNewsletter(@Query() query: TokenQueryDto): Promise<WithMessage<ConfirmInfoDto>> {
    return withMessage(await this.subscriptions.confirm(query.token), NewsletterMessages.CONFIRMED);
  }

  // ---- the preferences page (the signed link of every e-mail) ----

  @Get('preferences')
  @LINK_LIMIT
  @ApiOperation({ summary: "A subscriber's preferences by the signed link of their e-mails (no sign-in): follows, cadence" })
  @ApiEnvelope(PreferencesDto)
  @ApiErrors(400, 404, 429)
  async newsletterPreferences(@Query() query: TokenQueryDto): Promise<WithMessage<PreferencesDto>> {
    return withMessage(await this.subscriptions.preferences(query.token), NewsletterMessages.PREFERENCES);
  }

  @Put('preferences')
  @LINK_LIMIT
  @ApiOperation({ summary: "Switch between 'instant' and a 'weekly' digest on a weekday (signed link)" })
  @ApiEnvelope(PreferencesDto)
  @ApiErrors(400, 404, 429)
  async updateNewsletterPreferences(
    @Query() query: TokenQueryDto,
    @Body() dto: UpdatePreferencesDto,
  ): Promise<WithMessage<PreferencesDto>> {
    return withMessage(await this.subscriptions.updatePreferences(query.token, dto), NewsletterMessages.PREFERENCES_SAVED);
  }

  @Delete('preferences/follows/:followId')
  @LINK_LIMIT
  @ApiParam({ name: 'followId', schema: { type: 'integer', minimum: 1 } })
  @ApiOperation({ summary: "Removes one follow of the subscriber (signed link); 404 for another subscriber's or an unknown follow" })
  @ApiEnvelope(PreferencesDto)
  @ApiErrors(400, 404, 429)
  async removeNewsletterFollow(
    @Query() query: TokenQueryDto,
    @Param('followId', new ParseIdPipe(NewsletterMessages.FOLLOW_NOT_FOUND)) followId: number,
  ): Promise<WithMessage<PreferencesDto>> {
    return withMessage(await this.subscriptions.removeFollowByToken(query.token, followId), NewsletterMessages.FOLLOW_REMOVED);
  }

  @Post('preferences/unsubscribe-all')
  @HttpCode(200)
  @LINK_LIMIT
  @ApiOperation({ summary: 'Unsubscribes from every newsletter e-mail: every follow goes (signed link)' })
  @ApiEnvelope(PreferencesDto)
  @ApiErrors(400, 404, 429)
  async unsubscribeFromAllNewsletters(@Query() query: TokenQueryDto): Promise<WithMessage<PreferencesDto>> {
    return withMessage(await this.subscriptions.unsubscribeAllByToken(query.token), NewsletterMessages.UNSUBSCRIBED_ALL);
  }

  // ---- one-click unsubscribe ----

  @Get('unsubscribe')
  @LINK_LIMIT
  @ApiOperation({
    summary:
      "What an e-mail's unsubscribe link stops: one follow, or everything (the digest's); changes nothing (mail scanners open links)",
  })
  @ApiEnvelope(UnsubscribeInfoDto)
  @ApiErrors(400, 429)
  async newsletterUnsubscribeInfo(@Query() query: TokenQueryDto): Promise<WithMessage<UnsubscribeInfoDto>> {
    return withMessage(await this.subscriptions.unsubscribeInfo(query.token), NewsletterMessages.UNSUBSCRIBE_CHECKED);
  }

  @Post('unsubscribe')
  @HttpCode(200)
  @LINK_LIMIT
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    required: false,
    schema: { type: 'object', properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] } } },
  })
  @ApiOperation({
    summary:
      "Unsubscribes what the token names, ONLY that follow (or everything for the digest's token); no sign-in, no cookie, no Origin needed. RFC 8058 one-click: mail providers POST the form body 'List-Unsubscribe=One-Click'. Again: no error",
  })
  @ApiEnvelope(UnsubscribeInfoDto)
  @ApiErrors(400, 429)
  async newsletterUnsubscribe(@Query() query: TokenQueryDto): Promise<WithMessage<UnsubscribeInfoDto>> {
    const info = await this.subscriptions.unsubscribe(query.token);
    return withMessage(info, info.scope === 'all' ? NewsletterMessages.UNSUBSCRIBED_ALL : NewsletterMessages.UNSUBSCRIBED);
  }
}
