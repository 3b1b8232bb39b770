import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { ApiEnvelope, ApiPagedEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { Page } from '../common/pagination/page';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import {
  LikeCheckDto,
  LikeCountDto,
  LikeMineQueryDto,
  LikeRecentQueryDto,
  LikeRecordDto,
  LikesTestDto,
  LikeStateDto,
} from './dto/like.dto';
import { LikesMessages } from './likes.messages';
import { LikeOutcome, LikesService } from './likes.service';

/** 'Invalid post ID.' for an id that is not a positive whole number (docs/requirements.md#validation-like). */
const PostId = () => Param('id', new ParseIdPipe(LikesMessages.INVALID_POST_ID));
const ID_PARAM = ApiParam({ name: 'id', description: 'Post id (a positive whole number)', schema: { type: 'integer', minimum: 1 } });
const WRITE_AUTH = Auth({ unauthenticated: LikesMessages.LOGIN_REQUIRED });

const liked = (outcome: LikeOutcome): WithMessage<LikeStateDto> =>
  withMessage(outcome.state, outcome.changed ? LikesMessages.LIKED : LikesMessages.ALREADY_LIKED);
const toggled = (outcome: LikeOutcome): WithMessage<LikeStateDto> =>
  withMessage(outcome.state, outcome.state.liked ? LikesMessages.LIKED : LikesMessages.UNLIKED);

@ApiTags('Likes')
@Controller('likes')
export class LikesController {
  constructor(private readonly likes: LikesService) {}

  @Get('test')
  @ApiOperation({ summary: 'Whether the likes API answers (public)' })
  @ApiEnvelope(LikesTestDto)
  testLikes(): WithMessage<LikesTestDto> {
    return withMessage({ service: 'likes', status: 'UP', timestamp: new Date().toISOString() }, LikesMessages.TEST);
  }

  @Post('post/:id/toggle')
  @HttpCode(200)
  @WRITE_AUTH
  @ID_PARAM
  @ApiOperation({
    summary: 'Like the published post when the caller does not like it yet, else unlike it; answers whether it is now liked and its count',
  })
  @ApiEnvelope(LikeStateDto)
  @ApiErrors(400, 404)
  async toggleLike(@PostId() id: number, @CurrentUser() user: AuthUser): Promise<WithMessage<LikeStateDto>> {
    return toggled(await this.likes.toggle(user, id));
  }

  @Post('post/:id')
  @HttpCode(200)
  @WRITE_AUTH
  @ID_PARAM
  @ApiOperation({ summary: 'Like a published post (liking it again changes nothing); 404 for an unknown or unpublished post' })
  @ApiEnvelope(LikeStateDto)
  @ApiErrors(400, 404)
  async likePost(@PostId() id: number, @CurrentUser() user: AuthUser): Promise<WithMessage<LikeStateDto>> {
    return liked(await this.likes.like(user, id));
  }

  @Delete('post/:id')
  @WRITE_AUTH
  @ID_PARAM
  @ApiOperation({ summary: "Unlike a post; 404 'Post not found or not liked.' when the caller does not like it" })
  @ApiEnvelope(LikeStateDto)
  @ApiErrors(400, 404)
  async unlikePost(@PostId() id: number, @CurrentUser() user: AuthUser): Promise<WithMessage<LikeStateDto>> {
    return withMessage((await this.likes.unlike(user, id)).state, LikesMessages.UNLIKED);
  }

  @Get('post/:id/status')
  @Auth()
  @ID_PARAM
  @ApiOperation({ summary: 'Whether the caller likes the published post, and its like count' })
  @ApiEnvelope(LikeStateDto)
  @ApiErrors(400, 404)
  getLikeStatus(@PostId() id: number, @CurrentUser() user: AuthUser): Promise<LikeStateDto> {
    return this.likes.status(user, id);
  }

  @Get('post/:id/count')
  @ID_PARAM
  @ApiOperation({ summary: "The published post's like count (public)" })
  @ApiEnvelope(LikeCountDto)
  @ApiErrors(400, 404)
  getLikeCount(@PostId() id: number): Promise<LikeCountDto> {
    return this.likes.count(id);
  }

  @Get('post/:id/check')
  @Auth()
  @ID_PARAM
  @ApiOperation({ summary: 'Whether the caller likes the published post' })
  @ApiEnvelope(LikeCheckDto)
  @ApiErrors(400, 404)
  checkLike(@PostId() id: number, @CurrentUser() user: AuthUser): Promise<LikeCheckDto> {
    return this.likes.check(user, id);
  }

  @Get('user/my-likes')
  @Auth()
  @ApiOperation({
    summary:
      "The caller's likes of published posts; sortBy createdAt (when liked, default) | postTitle | userName (the post's author), sortDirection desc (default) | asc",
  })
  @ApiPagedEnvelope(LikeRecordDto)
  @ApiErrors(400)
  listMyLikes(@Query() query: LikeMineQueryDto, @CurrentUser() user: AuthUser): Promise<Page<LikeRecordDto>> {
    return this.likes.mine(user, query);
  }

  @Get('user/my-likes/recent')
  @Auth()
  @ApiOperation({ summary: "The caller's latest likes of published posts, newest first (limit defaults to 3)" })
  @ApiEnvelope(LikeRecordDto, { isArray: true })
  @ApiErrors(400)
  listMyRecentLikes(@Query() query: LikeRecentQueryDto, @CurrentUser() user: AuthUser): Promise<LikeRecordDto[]> {
    return this.likes.recent(user, query.limit);
  }
}

/** The older like calls under the post (docs/requirements.md#api-likes: POST and DELETE /blog/posts/{id}/like). */
@ApiTags('Likes')
@Controller('blog/posts')
export class PostLikesController {
  constructor(private readonly likes: LikesService) {}

  @Post(':id/like')
  @HttpCode(200)
  @WRITE_AUTH
  @ID_PARAM
  @ApiOperation({ summary: 'Like a published post (older path; the same as POST /likes/post/{id})' })
  @ApiEnvelope(LikeStateDto)
  @ApiErrors(400, 404)
  async likeBlogPost(@PostId() id: number, @CurrentUser() user: AuthUser): Promise<WithMessage<LikeStateDto>> {
    return liked(await this.likes.like(user, id));
  }

  @Delete(':id/like')
  @WRITE_AUTH
  @ID_PARAM
  @ApiOperation({ summary: 'Unlike a post (older path; the same as DELETE /likes/post/{id})' })
  @ApiEnvelope(LikeStateDto)
  @ApiErrors(400, 404)
  async unlikeBlogPost(@PostId() id: number, @CurrentUser() user: AuthUser): Promise<WithMessage<LikeStateDto>> {
    return withMessage((await this.likes.unlike(user, id)).state, LikesMessages.UNLIKED);
  }
}
