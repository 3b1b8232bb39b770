import { BadRequestException, Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import {
  AuthorFederationDto,
  DeliveriesQueryDto,
  FederationBlockCreateDto,
  FederationBlockDto,
  FederationDeliveryDto,
  FederationOverviewDto,
  FederationReactionsDto,
  FederationSettingsDto,
  FederationStatusDto,
  FollowAccountDto,
  FollowersQueryDto,
  FollowingDto,
  RemoteFollowerDto,
} from './dto/federation.dto';
import { FollowError } from './federation.service';
import { FederationMessages as M } from './federation.messages';
import { FederationAdminService } from './federation-admin.service';

const ADMIN = Auth({ role: RoleName.ADMIN, forbidden: M.ADMIN_FORBIDDEN, unauthenticated: M.AUTH_REQUIRED });
const AUTHOR = Auth({ role: RoleName.AUTHOR, forbidden: M.AUTHOR_FORBIDDEN, unauthenticated: M.AUTH_REQUIRED });

/** The social web's back office (docs/federation.md#administration): on/off, followers, deliveries, blocks. */
@ApiTags('Admin federation')
@Controller('admin/federation')
export class FederationAdminController {
  constructor(private readonly admin: FederationAdminService) {}

  @Get()
  @ADMIN
  @ApiOperation({ summary: 'Federation: whether it runs and is on, the actors and their follower counts, deliveries by status (admin)' })
  @ApiEnvelope(FederationOverviewDto)
  getFederation(): Promise<FederationOverviewDto> {
    return this.admin.overview();
  }

  @Put()
  @ADMIN
  @ApiOperation({ summary: 'Turn federation on or off (admin): off, nothing is sent and the fediverse routes answer 404' })
  @ApiEnvelope(FederationOverviewDto)
  @ApiErrors(400)
  async setFederation(@Body() dto: FederationSettingsDto): Promise<WithMessage<FederationOverviewDto>> {
    return withMessage(await this.admin.setEnabled(dto.enabled), dto.enabled ? M.TURNED_ON : M.TURNED_OFF);
  }

  @Get('followers')
  @ADMIN
  @ApiOperation({ summary: "An actor's fediverse followers, newest first, at most 500 (admin)" })
  @ApiEnvelope(RemoteFollowerDto, { isArray: true })
  @ApiErrors(400)
  listFederationFollowers(@Query() query: FollowersQueryDto): Promise<RemoteFollowerDto[]> {
    return this.admin.followers(query.actor ?? 'site', 500);
  }

  @Get('deliveries')
  @ADMIN
  @ApiOperation({ summary: 'The newest 100 deliveries, or failed ones only (admin)' })
  @ApiEnvelope(FederationDeliveryDto, { isArray: true })
  @ApiErrors(400)
  listFederationDeliveries(@Query() query: DeliveriesQueryDto): Promise<FederationDeliveryDto[]> {
    return this.admin.deliveries(query.failed === 'true');
  }

  @Get('blocks')
  @ADMIN
  @ApiOperation({ summary: 'Blocked instances and actors (admin)' })
  @ApiEnvelope(FederationBlockDto, { isArray: true })
  listFederationBlocks(): Promise<FederationBlockDto[]> {
    return this.admin.blocks();
  }

  @Post('blocks')
  @ADMIN
  @ApiOperation({
    summary: 'Block an instance or an actor (admin): its activities are refused, its follows, reactions and replies removed',
  })
  @ApiEnvelope(FederationBlockDto, { status: 201 })
  @ApiErrors(400)
  async createFederationBlock(@Body() dto: FederationBlockCreateDto): Promise<WithMessage<FederationBlockDto>> {
    const value = dto.kind === 'instance' ? instanceOf(dto.value) : actorOf(dto.value);
    return withMessage(await this.admin.block(dto.kind, value), M.BLOCKED);
  }

  @Delete('blocks/:id')
  @ADMIN
  @HttpCode(204)
  @ApiOperation({ summary: 'Lift a block (admin)' })
  @ApiNoContentResponse({ description: 'Lifted (no body)' })
  @ApiErrors(400, 404)
  async deleteFederationBlock(@Param('id', new ParseIdPipe(M.INVALID_ID)) id: number): Promise<void> {
    if (!(await this.admin.unblock(id))) throw new NotFoundException(M.BLOCK_NOT_FOUND);
  }
}

/** An author's own fediverse handle and followers, and the fediverse reactions of a post. */
@ApiTags('Federation')
@Controller('federation')
export class FederationController {
  constructor(private readonly admin: FederationAdminService) {}

  @Get()
  @ApiOperation({ summary: "Whether this site is on the social web, its host and the publication's handle" })
  @ApiEnvelope(FederationStatusDto)
  getFederationStatus(): Promise<FederationStatusDto> {
    return this.admin.status();
  }

  @Get('me')
  @AUTHOR
  @ApiOperation({ summary: "The author's fediverse handle, follower count and newest 100 followers" })
  @ApiEnvelope(AuthorFederationDto)
  getMyFederation(@CurrentUser() user: AuthUser): Promise<AuthorFederationDto> {
    return this.admin.author(user.id);
  }

  @Get('me/following')
  @AUTHOR
  @ApiOperation({ summary: 'The fediverse accounts the author follows (PENDING until accepted), newest first, at most 500' })
  @ApiEnvelope(FollowingDto, { isArray: true })
  listMyFollowing(@CurrentUser() user: AuthUser): Promise<FollowingDto[]> {
    return this.admin.following(user.id);
  }

  @Post('me/following')
  @AUTHOR
  @ApiOperation({
    summary: 'Follow a fediverse account as the author: the account is looked up and a Follow is sent (PENDING until accepted)',
  })
  @ApiEnvelope(FollowingDto, { status: 201 })
  @ApiErrors(400, 404)
  async followAccount(@CurrentUser() user: AuthUser, @Body() dto: FollowAccountDto): Promise<WithMessage<FollowingDto>> {
    try {
      return withMessage(await this.admin.follow(user.id, dto.account), M.FOLLOW_SENT);
    } catch (error) {
      if (!(error instanceof FollowError)) throw error;
      if (error.reason === 'not-found') throw new NotFoundException(M.ACCOUNT_NOT_FOUND);
      if (error.reason === 'off') throw new NotFoundException(M.FEDERATION_OFF);
      throw new BadRequestException(error.reason === 'local' ? M.ACCOUNT_LOCAL : M.ACCOUNT_BLOCKED);
    }
  }

  @Delete('me/following/:id')
  @AUTHOR
  @HttpCode(204)
  @ApiOperation({ summary: 'Stop following a fediverse account (an Undo{Follow} is sent)' })
  @ApiNoContentResponse({ description: 'Unfollowed (no body)' })
  @ApiErrors(400, 404)
  async unfollowAccount(@CurrentUser() user: AuthUser, @Param('id', new ParseIdPipe(M.INVALID_ACCOUNT_ID)) id: number): Promise<void> {
    if (!(await this.admin.unfollow(user.id, id))) throw new NotFoundException(M.FOLLOWING_NOT_FOUND);
  }

  @Get('posts/:id/reactions')
  @ApiOperation({ summary: "A published post's likes and boosts from the fediverse (apart from Inkwell likes)" })
  @ApiEnvelope(FederationReactionsDto)
  @ApiErrors(400, 404)
  async getPostFederationReactions(@Param('id', new ParseIdPipe(M.INVALID_POST_ID)) id: number): Promise<FederationReactionsDto> {
    const counts = await this.admin.reactions(id);
    if (!counts) throw new NotFoundException(M.POST_NOT_FOUND);
    return counts;
  }
}

function instanceOf(value: string): string {
  const host = value
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '');
  if (!/^[a-z0-9.-]+(:\d{1,5})?$/.test(host) || (!host.includes('.') && !host.startsWith('localhost'))) {
    if (!/^\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?$/.test(host)) throw new BadRequestException(M.INSTANCE_INVALID);
  }
  return host;
}

function actorOf(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
  } catch {
    // below
  }
  throw new BadRequestException(M.ACTOR_INVALID);
}
