import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Auth, CurrentUser, TokenScope } from '../auth/auth.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import { PreviewLinkDto, PreviewPostDto } from './dto/preview-link.dto';
import { PreviewsMessages } from './previews.messages';
import { PreviewsService } from './previews.service';

const WHO = 'Admins any post, authors their own (others 403; readers 403; an unknown post 404)';

/** A post's preview links, managed by whoever may edit it. */
@ApiTags('Preview links')
@Controller('blog/posts/:id/preview-links')
export class PreviewLinksController {
  constructor(private readonly previews: PreviewsService) {}

  @Post()
  @Auth({ role: RoleName.AUTHOR, forbidden: PreviewsMessages.FORBIDDEN })
  @TokenScope('posts:write')
  @ApiParam({ name: 'id', description: 'Post id' })
  @ApiOperation({
    summary: `Create a preview link (signed token, 7 days) of a DRAFT, PENDING_REVIEW or REJECTED post (other statuses 409). ${WHO}`,
  })
  @ApiEnvelope(PreviewLinkDto, { status: 201 })
  @ApiErrors(400, 404, 409)
  async createPreviewLink(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<WithMessage<PreviewLinkDto>> {
    return withMessage(await this.previews.create(id, user), PreviewsMessages.CREATED);
  }

  @Get()
  @Auth({ role: RoleName.AUTHOR, forbidden: PreviewsMessages.FORBIDDEN })
  @ApiParam({ name: 'id', description: 'Post id' })
  @ApiOperation({ summary: `The post's live preview links (neither expired nor revoked), newest first. ${WHO}` })
  @ApiEnvelope(PreviewLinkDto, { isArray: true })
  @ApiErrors(400, 404)
  listPreviewLinks(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<PreviewLinkDto[]> {
    return this.previews.list(id, user);
  }

  @Delete(':linkId')
  @HttpCode(204)
  @Auth({ role: RoleName.AUTHOR, forbidden: PreviewsMessages.FORBIDDEN })
  @TokenScope('posts:write')
  @ApiParam({ name: 'id', description: 'Post id' })
  @ApiParam({ name: 'linkId', description: 'Preview link id' })
  @ApiOperation({
    summary: `Revoke a preview link at once (its address answers 404 from then on); an unknown or already revoked link is 404. ${WHO}`,
  })
  @ApiNoContentResponse({ description: 'Revoked (no body)' })
  @ApiErrors(400, 404)
  async revokePreviewLink(
    @Param('id', ParseIdPipe) id: number,
    @Param('linkId', ParseIdPipe) linkId: number,
    @CurrentUser() user: AuthUser,
  ): Promise<void> {
    await this.previews.revoke(id, linkId, user);
  }
}

/** What a preview link shows: anyone holding the token (rate-limited like every public read). */
@ApiTags('Preview links')
@Controller('blog/preview')
export class PreviewReadController {
  constructor(private readonly previews: PreviewsService) {}

  @Get(':token')
  @ApiParam({ name: 'token', description: 'The token of a preview link (the last segment of its url)' })
  @ApiOperation({
    summary:
      "A post as saved now, through a preview link (public; never the author's e-mail) with the link's expiry. " +
      "404 'This preview link is invalid or has expired.' for a bad, expired or revoked token, or a post that is published, archived, private or deleted",
  })
  @ApiEnvelope(PreviewPostDto)
  @ApiErrors(404)
  readPreview(@Param('token') token: string): Promise<PreviewPostDto> {
    return this.previews.read(token);
  }
}
