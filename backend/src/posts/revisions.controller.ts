import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Auth, CurrentUser, TokenScope } from '../auth/auth.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import {
  ReviewDiffDto,
  RevisionCompareQueryDto,
  RevisionDiffDto,
  RevisionDto,
  RevisionListQueryDto,
  RevisionPageDto,
} from '../revisions/dto/revision.dto';
import { PostResponseDto } from './dto/post-response.dto';
import { PostVersionConflictEnvelopeDto, RevisionRestoreDto } from './dto/post-version.dto';
import { PostRevisionsService } from './post-revisions.service';
import { PostsMessages } from './posts.messages';
import { PostsService } from './posts.service';

const WHO = 'Admins any post, authors their own (readers and others 403, an unknown post 404)';

/** A post's revisions, their diffs and the reviewer's diff: who may see them is who may edit the post. */
@ApiTags('Revisions')
@Controller('blog/posts')
export class RevisionsController {
  constructor(
    private readonly posts: PostsService,
    private readonly revisions: PostRevisionsService,
  ) {}

  @Get(':id/revisions')
  @Auth({ forbidden: PostsMessages.FORBIDDEN_ACCESS })
  @ApiOperation({ summary: `A post's revisions, newest first (size up to 100). ${WHO}` })
  @ApiEnvelope(RevisionPageDto)
  @ApiErrors(400, 404)
  async listPostRevisions(
    @Param('id', ParseIdPipe) id: number,
    @Query() query: RevisionListQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<RevisionPageDto> {
    return this.revisions.list(id, query.page, query.size, user);
  }

  // Before :revisionId, which would take "compare" for an id.
  @Get(':id/revisions/compare')
  @Auth({ forbidden: PostsMessages.FORBIDDEN_ACCESS })
  @ApiOperation({
    summary: `A word-level diff (jsdiff diffWordsWithSpace on the Markdown) of title, summary and body, and the tag changes, from revision \`from\` to revision \`to\` (omitted: the post as saved now). ${WHO}`,
  })
  @ApiEnvelope(RevisionDiffDto)
  @ApiErrors(400, 404)
  async compareRevisions(
    @Param('id', ParseIdPipe) id: number,
    @Query() query: RevisionCompareQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<RevisionDiffDto> {
    return this.revisions.compare(id, query.from, query.to, user);
  }

  @Get(':id/revisions/:revisionId')
  @Auth({ forbidden: PostsMessages.FORBIDDEN_ACCESS })
  @ApiOperation({ summary: `One revision with its text (read-only). ${WHO}` })
  @ApiEnvelope(RevisionDto)
  @ApiErrors(400, 404)
  async getPostRevision(
    @Param('id', ParseIdPipe) id: number,
    @Param('revisionId', ParseIdPipe) revisionId: number,
    @CurrentUser() user: AuthUser,
  ): Promise<RevisionDto> {
    return this.revisions.get(id, revisionId, user);
  }

  @Post(':id/revisions/:revisionId/restore')
  @HttpCode(200)
  @Auth({ forbidden: PostsMessages.FORBIDDEN_UPDATE })
  @TokenScope('posts:write')
  @ApiOperation({
    summary:
      `Make a revision's text (title, summary, body, tags, thumbnail, SEO) the post's, kept as a new RESTORED revision. ${WHO}. ` +
      'Same rules as an update by the caller: authors DRAFT and REJECTED posts only (saved as a DRAFT), else 409; `version` as on update.',
  })
  @ApiEnvelope(PostResponseDto)
  @ApiErrors(400, 404)
  @ApiResponse({
    status: 409,
    description: 'A status rule, or a stale version (then data holds current and yours)',
    type: PostVersionConflictEnvelopeDto,
  })
  async restorePostRevision(
    @Param('id', ParseIdPipe) id: number,
    @Param('revisionId', ParseIdPipe) revisionId: number,
    @Body() dto: RevisionRestoreDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<PostResponseDto>> {
    const result = await this.posts.restore(id, revisionId, dto.version, user);
    return withMessage(
      result.post,
      result.skippedTags.length
        ? PostsMessages.skippedTags(PostsMessages.REVISION_RESTORED, result.skippedTags)
        : PostsMessages.REVISION_RESTORED,
    );
  }

  @Get(':id/review-diff')
  @Auth({ forbidden: PostsMessages.FORBIDDEN_ACCESS })
  @ApiOperation({
    summary: `The reviewer's diff: the post's last rejection (reason, reviewer, time) and the diff from the revision pinned at it to the newest revision (the resubmission); both null when it was never rejected. ${WHO}`,
  })
  @ApiEnvelope(ReviewDiffDto)
  @ApiErrors(400, 404)
  async getPostReviewDiff(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<ReviewDiffDto> {
    return this.revisions.reviewDiff(id, user);
  }
}
