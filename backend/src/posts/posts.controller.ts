import {
  applyDecorators,
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import { ApiBody, ApiHeader, ApiNoContentResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { CLOCK, Clock } from '../common/clock';
import { SubmitForReviewDto } from './dto/submit-for-review.dto';
import { LifecycleMessages } from './lifecycle/lifecycle.messages';
import { parsePublishTime } from './lifecycle/publish-time';
import { Auth, CurrentUser, TokenScope } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import { PostAdminQueryDto, PostAuthorSaveDto, PostMineQueryDto, PostSaveDto } from './dto/post-input.dto';
import { PostPreviewDto, PostPreviewResponseDto } from './dto/post-preview.dto';
import { MyPostCountsDto, PostAdminPageDto, PostResponseDto } from './dto/post-response.dto';
import { PostVersionConflictEnvelopeDto } from './dto/post-version.dto';
import { previewMarkdown } from '../common/markdown';
import { PostsMessages } from './posts.messages';
import { PostsService, SaveResult } from './posts.service';

function answer(result: SaveResult, message: string): WithMessage<PostResponseDto> {
  return withMessage(result.post, result.skippedTags.length ? PostsMessages.skippedTags(message, result.skippedTags) : message);
}

/** `If-Match: "3"` (or W/"3", or 3) → 3; absent or `*` → no check; anything else is a 400 on `version`. */
export function versionFromIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?([1-9]\d{0,9})"?\s*$/.exec(header);
  const version = match ? Number(match[1]) : NaN;
  if (!(version <= 2147483647))
    throw new BadRequestException({ message: PostsMessages.IF_MATCH_INVALID, errors: { version: [PostsMessages.IF_MATCH_INVALID] } });
  return version;
}

/** The update endpoints: If-Match documented, and the 409 with both versions. */
const Versioned = () =>
  applyDecorators(
    ApiHeader({
      name: 'if-match',
      required: false,
      description: 'The post version the edit is based on, as "<n>" (the body field `version` wins)',
    }),
    ApiResponse({
      status: 409,
      description: 'A used slug, a status rule, or a stale version (then data holds current and yours)',
      type: PostVersionConflictEnvelopeDto,
    }),
  );

const SAVE_NOTE =
  'Checks in order: title, content, slug, slug format (400 with the spec texts); a used slug is 409. Unknown or inactive tagSlugs are skipped and named in the message.';

@ApiTags('Posts')
@Controller('blog/posts')
export class PostsController {
  constructor(
    private readonly posts: PostsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('admin/all')
  @Auth({ role: RoleName.ADMIN, forbidden: PostsMessages.FORBIDDEN_POSTS })
  @ApiOperation({ summary: 'Every post, any status (admin); sortBy createdAt|updatedAt|publishedAt|title|viewCount, status, search' })
  @ApiEnvelope(PostAdminPageDto)
  @ApiErrors(400)
  listAllPostsAdmin(@Query() query: PostAdminQueryDto, @CurrentUser() admin: AuthUser): Promise<PostAdminPageDto> {
    return this.posts.listAll(query, admin);
  }

  @Get()
  @Auth({ role: RoleName.ADMIN, forbidden: PostsMessages.FORBIDDEN_POSTS })
  @ApiOperation({ summary: 'Every post, any status (admin); same as /blog/posts/admin/all' })
  @ApiEnvelope(PostAdminPageDto)
  @ApiErrors(400)
  listPosts(@Query() query: PostAdminQueryDto, @CurrentUser() admin: AuthUser): Promise<PostAdminPageDto> {
    return this.posts.listAll(query, admin);
  }

  @Get('author/my-posts')
  @Auth({ role: RoleName.AUTHOR, forbidden: PostsMessages.FORBIDDEN_POSTS })
  @ApiOperation({ summary: "The caller's own posts, newest first (AUTHOR); size up to 1000, optional status" })
  @ApiEnvelope(PostAdminPageDto)
  @ApiErrors(400)
  listMyPosts(@Query() query: PostMineQueryDto, @CurrentUser() user: AuthUser): Promise<PostAdminPageDto> {
    return this.posts.listMine(query, user);
  }

  @Get('author/my-posts/counts')
  @Auth({ role: RoleName.AUTHOR, forbidden: PostsMessages.FORBIDDEN_POSTS })
  @ApiOperation({ summary: "How many of the caller's own posts each status holds, and in all (AUTHOR); one read for My Posts' filters" })
  @ApiEnvelope(MyPostCountsDto)
  countMyPosts(@CurrentUser() user: AuthUser): Promise<MyPostCountsDto> {
    return this.posts.countMine(user);
  }

  @Post('author/create')
  @Auth({ role: RoleName.AUTHOR, forbidden: PostsMessages.FORBIDDEN_CREATE, unauthenticated: PostsMessages.AUTH_REQUIRED })
  @TokenScope('posts:write')
  @ApiOperation({ summary: `Create an own post, always as a DRAFT (AUTHOR; status and isFeatured are ignored). ${SAVE_NOTE}` })
  @ApiEnvelope(PostResponseDto, { status: 201 })
  @ApiErrors(400, 409)
  async createAuthorPost(@Body() dto: PostAuthorSaveDto, @CurrentUser() user: AuthUser): Promise<WithMessage<PostResponseDto>> {
    return answer(await this.posts.create(dto, user, 'author'), PostsMessages.SAVED_AS_DRAFT);
  }

  @Put('author/:id')
  @Auth({ role: RoleName.AUTHOR, forbidden: PostsMessages.FORBIDDEN_UPDATE, unauthenticated: PostsMessages.AUTH_REQUIRED })
  @TokenScope('posts:write')
  @ApiOperation({
    summary: `Edit an own DRAFT or REJECTED post; it is saved as a DRAFT (AUTHOR). A PUBLISHED, PENDING_REVIEW, ARCHIVED or PRIVATE post is 409. ${SAVE_NOTE}`,
  })
  @ApiEnvelope(PostResponseDto)
  @ApiErrors(400, 404)
  @Versioned()
  async updateAuthorPost(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: PostAuthorSaveDto,
    @CurrentUser() user: AuthUser,
    @Headers('if-match') ifMatch?: string,
  ): Promise<WithMessage<PostResponseDto>> {
    return answer(await this.posts.update(id, dto, user, 'author', versionFromIfMatch(ifMatch)), PostsMessages.SAVED_AS_DRAFT);
  }

  @Post('author/:id/submit-for-review')
  @HttpCode(200)
  @Auth({ role: RoleName.AUTHOR, forbidden: PostsMessages.FORBIDDEN_UPDATE })
  @TokenScope('posts:write')
  @ApiOperation({
    summary:
      "Submit an own DRAFT or REJECTED post for review (→ PENDING_REVIEW); other statuses are 409; someone else's post is 403 for every role, admins included, as on PUT. The body is optional: requestedPublishAt " +
      '(ISO 8601 with a zone, at least 1 minute in the future, at most 1 year ahead) is the time the author asks for; the reviewer may keep or change it',
  })
  // The body is optional: spec clients send none.
  @ApiBody({ type: SubmitForReviewDto, required: false })
  @ApiEnvelope(PostResponseDto)
  @ApiErrors(400, 404, 409)
  async submitPostForReview(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: SubmitForReviewDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<PostResponseDto>> {
    const text = dto?.requestedPublishAt;
    const requested =
      text === undefined || text === null
        ? null
        : parsePublishTime(text, this.clock.now(), 'requestedPublishAt', LifecycleMessages.REQUESTED_LABEL);
    return withMessage(await this.posts.submitForReview(id, user, requested), PostsMessages.SUBMITTED);
  }

  @Post('preview')
  @HttpCode(200)
  @Auth({ role: RoleName.AUTHOR, forbidden: PostsMessages.FORBIDDEN_CREATE, unauthenticated: PostsMessages.AUTH_REQUIRED })
  @TokenScope('posts:write')
  @ApiOperation({
    summary:
      "The editor's preview (AUTHOR or ADMIN): the content rendered by the server's own Markdown renderer and allow-list (the HTML a save stores " +
      'as contentHtml), reading time (words / 200 rounded up, at least 1) and word count. Content rules as on save (trimmed, required, at most 200,000 characters); nothing is stored',
  })
  @ApiEnvelope(PostPreviewResponseDto)
  @ApiErrors(400)
  previewPost(@Body() dto: PostPreviewDto): PostPreviewResponseDto {
    return previewMarkdown(dto.content);
  }

  @Get(':id')
  @Auth()
  @ApiOperation({ summary: 'A post by id, any status: admins any post, authors their own (others 403)' })
  @ApiEnvelope(PostResponseDto)
  @ApiErrors(400, 404)
  getPostById(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<PostResponseDto> {
    return this.posts.get(id, user);
  }

  @Post()
  @Auth({ role: RoleName.ADMIN, forbidden: PostsMessages.FORBIDDEN_CREATE, unauthenticated: PostsMessages.AUTH_REQUIRED })
  @ApiOperation({ summary: `Create a post (admin); status defaults to DRAFT (PUBLISHED sets publishedAt). ${SAVE_NOTE}` })
  @ApiEnvelope(PostResponseDto, { status: 201 })
  @ApiErrors(400, 409)
  async createPost(@Body() dto: PostSaveDto, @CurrentUser() user: AuthUser): Promise<WithMessage<PostResponseDto>> {
    return answer(await this.posts.create(dto, user, 'admin'), PostsMessages.CREATED);
  }

  @Put(':id')
  @Auth({ role: RoleName.AUTHOR, forbidden: PostsMessages.FORBIDDEN_UPDATE, unauthenticated: PostsMessages.AUTH_REQUIRED })
  @TokenScope('posts:write')
  @ApiOperation({
    summary:
      `Update a post, partially. Admins: any post, status changes per docs/requirements.md#post-transitions (illegal ones 409). ` +
      `Authors: like PUT /blog/posts/author/{id}. ${SAVE_NOTE}`,
  })
  @ApiEnvelope(PostResponseDto)
  @ApiErrors(400, 404)
  @Versioned()
  async updatePost(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: PostSaveDto,
    @CurrentUser() user: AuthUser,
    @Headers('if-match') ifMatch?: string,
  ): Promise<WithMessage<PostResponseDto>> {
    const mode = user.role === RoleName.ADMIN ? 'admin' : 'author';
    return answer(
      await this.posts.update(id, dto, user, mode, versionFromIfMatch(ifMatch)),
      mode === 'admin' ? PostsMessages.UPDATED : PostsMessages.SAVED_AS_DRAFT,
    );
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ role: RoleName.AUTHOR, forbidden: PostsMessages.FORBIDDEN_DELETE })
  @TokenScope('posts:write')
  @ApiOperation({ summary: 'Delete a post: admins any, authors their own DRAFT or REJECTED posts' })
  @ApiNoContentResponse({ description: 'Deleted (no body)' })
  @ApiErrors(400, 404)
  async deletePost(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<void> {
    await this.posts.remove(id, user);
  }
}
