import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Auth, CurrentUser, OptionalAuth, TokenScope } from '../auth/auth.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import { CommentRateLimit } from './comment-rate-limit.guard';
import { CommentsMessages } from './comments.messages';
import { CommentsService, CreatedComment } from './comments.service';
import {
  CommentAdminQueryDto,
  CommentByUserQueryDto,
  CommentCreateDto,
  CommentMineQueryDto,
  CommentPostCreateDto,
  CommentPostQueryDto,
  CommentRecentQueryDto,
  CommentSearchQueryDto,
  CommentUpdateDto,
  CommentUserQueryDto,
} from './dto/comment-input.dto';
import {
  CommentActivityDto,
  CommentActivityPageDto,
  CommentPageDto,
  CommentResponseDto,
  CommentStatsDto,
} from './dto/comment-response.dto';

const CREATE_NOTE =
  "Content is trimmed, 1–200 characters, stored as typed (plain text). Only on PUBLISHED posts (else 404 'Post not found.'). " +
  'parentId: a live comment of the same post (404 when unknown or deleted, 400 when of another post); a reply is one level below ' +
  'its parent, and a reply to a level-3 comment joins it at level 3 under the same parent.';
const DELETE_NOTE =
  "The owner, or an admin (others 403). A comment with replies stays as '[This comment has been deleted]' with its replies; one " +
  'without replies is removed, and so is a deleted parent left without replies. The post commentCount drops by one.';

function created(result: CreatedComment): WithMessage<CommentResponseDto> {
  return withMessage(result.comment, result.isReply ? CommentsMessages.REPLY_ADDED : CommentsMessages.ADDED);
}

/** docs/requirements.md#api-comments: the post's comments under /blog. */
@ApiTags('Comments')
@Controller('blog')
export class PostCommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Get('posts/:id/comments')
  @ApiOperation({
    summary:
      "A published post's top-level comments, newest first by default (sortBy createdAt, sortDir asc|desc), each with its whole thread of replies (oldest first); " +
      "commentId answers the page holding that comment's thread instead of page (404 'Comment not found.' when it is not on this post)",
  })
  // canHide/canReport and one's own held comments need the caller; the list stays public for any session (spec).
  @OptionalAuth({ anonymousOnFailure: true })
  @ApiEnvelope(CommentPageDto)
  @ApiErrors(400, 404)
  listPostComments(
    @Param('id', ParseIdPipe) id: number,
    @Query() query: CommentPostQueryDto,
    @CurrentUser() user: AuthUser | undefined,
  ): Promise<CommentPageDto> {
    return this.comments.listForPost(id, query.page, query.size, query.sortDir ?? 'desc', query.commentId, user);
  }

  @Post('posts/:id/comments')
  @CommentRateLimit()
  @Auth({ role: RoleName.USER, forbidden: CommentsMessages.FORBIDDEN_COMMENT, unauthenticated: CommentsMessages.LOGIN_REQUIRED })
  @TokenScope('comments:write')
  @ApiOperation({ summary: `Comment on a post, or reply with parentId (any signed-in user). ${CREATE_NOTE}` })
  @ApiEnvelope(CommentResponseDto, { status: 201 })
  @ApiErrors(400, 404)
  async createPostComment(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: CommentPostCreateDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<CommentResponseDto>> {
    return created(await this.comments.create({ postId: id, content: dto.content, parentId: dto.parentId }, user));
  }

  @Delete('comments/:id')
  @HttpCode(204)
  @Auth()
  @TokenScope('comments:write')
  @ApiOperation({ summary: `Delete a comment. ${DELETE_NOTE}` })
  @ApiNoContentResponse({ description: 'Deleted (no body)' })
  @ApiErrors(400, 404)
  async deleteBlogComment(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<void> {
    await this.comments.remove(id, user);
  }
}

/** docs/requirements.md#api-comments 'Comments service'. Static paths come before /comments/{id}/... */
@ApiTags('Comments')
@Controller('comments')
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Post()
  @CommentRateLimit()
  @Auth({ role: RoleName.USER, forbidden: CommentsMessages.FORBIDDEN_COMMENT, unauthenticated: CommentsMessages.LOGIN_REQUIRED })
  @TokenScope('comments:write')
  @ApiOperation({ summary: `Comment on a post, or reply with parentId (any signed-in user). ${CREATE_NOTE}` })
  @ApiEnvelope(CommentResponseDto, { status: 201 })
  @ApiErrors(400, 404)
  async createComment(@Body() dto: CommentCreateDto, @CurrentUser() user: AuthUser): Promise<WithMessage<CommentResponseDto>> {
    return created(await this.comments.create(dto, user));
  }

  @Get('post/:postId')
  @ApiOperation({
    summary:
      "A published post's top-level comments, newest first, each with its whole thread (public; same as GET /blog/posts/{id}/comments); " +
      "commentId answers the page holding that comment's thread",
  })
  // canHide/canReport and one's own held comments need the caller; the list stays public for any session (spec).
  @OptionalAuth({ anonymousOnFailure: true })
  @ApiEnvelope(CommentPageDto)
  @ApiErrors(400, 404)
  listCommentsByPost(
    @Param('postId', ParseIdPipe) postId: number,
    @Query() query: CommentPostQueryDto,
    @CurrentUser() user: AuthUser | undefined,
  ): Promise<CommentPageDto> {
    return this.comments.listForPost(postId, query.page, query.size, query.sortDir ?? 'desc', query.commentId, user);
  }

  @Get('my-comments')
  @Auth()
  @ApiOperation({ summary: "The caller's comments (not deleted) with their posts, newest first (sortDirection asc for oldest first)" })
  @ApiEnvelope(CommentActivityPageDto)
  @ApiErrors(400)
  listMyComments(@Query() query: CommentMineQueryDto, @CurrentUser() user: AuthUser): Promise<CommentActivityPageDto> {
    return this.comments.mine(user, query.page, query.size, query.sortDirection ?? 'desc');
  }

  @Get('my-recent')
  @Auth()
  @ApiOperation({ summary: "The caller's latest comments (limit, default 3, at most 20), with post title/slug, reply count and root flag" })
  @ApiEnvelope(CommentActivityDto, { isArray: true })
  @ApiErrors(400)
  listMyRecentComments(@Query() query: CommentRecentQueryDto, @CurrentUser() user: AuthUser): Promise<CommentActivityDto[]> {
    return this.comments.myRecent(user, query.limit);
  }

  @Get('search')
  @ApiOperation({
    summary:
      'Comments on published posts whose text has the keyword (whole words, case-insensitive, the last word also as a prefix), newest first; optional postId (public)',
  })
  @ApiEnvelope(CommentActivityPageDto)
  @ApiErrors(400, 404)
  searchComments(@Query() query: CommentSearchQueryDto): Promise<CommentActivityPageDto> {
    return this.comments.search(query.keyword, query.postId, query.page, query.size);
  }

  @Get('stats/post/:postId')
  @ApiOperation({ summary: 'totalComments (not deleted, = the post commentCount) and uniqueCommenters of a published post (public)' })
  @ApiEnvelope(CommentStatsDto)
  @ApiErrors(400, 404)
  getPostCommentStats(@Param('postId', ParseIdPipe) postId: number): Promise<CommentStatsDto> {
    return this.comments.stats(postId);
  }

  @Get('admin/recent')
  @Auth({ role: RoleName.ADMIN, forbidden: CommentsMessages.FORBIDDEN_ADMIN })
  @ApiOperation({ summary: 'Every comment (not deleted) on any post, newest first (admin); size defaults to 20' })
  @ApiEnvelope(CommentActivityPageDto)
  @ApiErrors(400)
  listRecentCommentsAdmin(@Query() query: CommentAdminQueryDto): Promise<CommentActivityPageDto> {
    return this.comments.adminRecent(query.page, query.size);
  }

  @Get('user/:userId')
  @ApiOperation({
    summary: "A user's comments on published posts, newest first (public). 404 'User không tồn tại'; 400 'Tham số không hợp lệ'",
  })
  @ApiEnvelope(CommentActivityPageDto)
  @ApiErrors(400, 404)
  listUserComments(
    @Param('userId', new ParseIdPipe(CommentsMessages.INVALID_PARAMS)) userId: number,
    @Query() query: CommentUserQueryDto,
  ): Promise<CommentActivityPageDto> {
    return this.comments.byUser(userId, query.page, query.size);
  }

  @Get('by-user/:userId')
  @ApiOperation({
    summary:
      "A user's comments on published posts (public): page zero-based (the client sends its one-based page minus one), limit, sort newest|oldest|createdAt,desc|createdAt,asc. 404 'User không tồn tại'; 400 'Tham số không hợp lệ'",
  })
  @ApiEnvelope(CommentActivityPageDto)
  @ApiErrors(400, 404)
  listCommentsByUser(
    @Param('userId', new ParseIdPipe(CommentsMessages.INVALID_PARAMS)) userId: number,
    @Query() query: CommentByUserQueryDto,
  ): Promise<CommentActivityPageDto> {
    return this.comments.byUser(userId, query.page, query.limit, query.sort ?? 'newest');
  }

  @Get(':id/replies')
  @ApiOperation({ summary: 'The replies of a comment, oldest first, each with its own replies (public)' })
  // canHide/canReport and one's own held comments need the caller; the list stays public for any session (spec).
  @OptionalAuth({ anonymousOnFailure: true })
  @ApiEnvelope(CommentResponseDto, { isArray: true })
  @ApiErrors(400, 404)
  listCommentReplies(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser | undefined): Promise<CommentResponseDto[]> {
    return this.comments.replies(id, user);
  }

  @Put(':id')
  @Auth()
  @TokenScope('comments:write')
  @ApiOperation({ summary: 'Edit the text of an own comment (owner only; content rules as on create); updatedAt changes' })
  @ApiEnvelope(CommentResponseDto)
  @ApiErrors(400, 404)
  async updateComment(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: CommentUpdateDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<CommentResponseDto>> {
    return withMessage(await this.comments.update(id, dto.content, user), CommentsMessages.UPDATED);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth()
  @TokenScope('comments:write')
  @ApiOperation({ summary: `Delete a comment. ${DELETE_NOTE}` })
  @ApiNoContentResponse({ description: 'Deleted (no body)' })
  @ApiErrors(400, 404)
  async deleteComment(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<void> {
    await this.comments.remove(id, user);
  }
}
