import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser, OptionalAuth } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import { TagCreateDto, TagQueryDto, TagUpdateDto } from './dto/tag-input.dto';
import { TagMovedDto, TagPageDto, TagResponseDto } from './dto/tag-response.dto';
import { TagsMessages } from './tags.messages';
import { TagsService } from './tags.service';

@ApiTags('Tags')
@Controller('blog/tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get('publish')
  @ApiOperation({ summary: 'Active tags with at least one published post; postCount counts published posts (public)' })
  @ApiEnvelope(TagResponseDto, { isArray: true })
  listPublishedTags(): Promise<TagResponseDto[]> {
    return this.tags.published();
  }

  @Get()
  @OptionalAuth()
  @ApiOperation({
    summary: 'Tags, paged (public). postCount counts published posts; for admins it counts posts of any status',
  })
  @ApiEnvelope(TagPageDto)
  @ApiErrors(400)
  listTags(@Query() query: TagQueryDto, @CurrentUser() user?: AuthUser): Promise<TagPageDto> {
    return this.tags.list(query, user?.role === RoleName.ADMIN);
  }

  @Get('moved/:slug')
  @ApiOperation({
    summary:
      "Where a tag's old slug leads now (public): the current slug of the active tag that had it before a change; 404 otherwise. /blog/tag/{old} answers 301 there; the reads by slug stay 404 for old slugs",
  })
  @ApiParam({ name: 'slug', description: 'A slug the tag had before' })
  @ApiEnvelope(TagMovedDto)
  @ApiErrors(404)
  getMovedTagSlug(@Param('slug') slug: string): Promise<TagMovedDto> {
    return this.tags.movedSlug(slug);
  }

  @Get(':id')
  @OptionalAuth()
  @ApiOperation({ summary: 'One tag (public)' })
  @ApiEnvelope(TagResponseDto)
  @ApiErrors(400, 404)
  getTag(@Param('id', ParseIdPipe) id: number, @CurrentUser() user?: AuthUser): Promise<TagResponseDto> {
    return this.tags.get(id, user?.role === RoleName.ADMIN);
  }

  @Post()
  @Auth({ role: RoleName.ADMIN, unauthenticated: TagsMessages.AUTH_REQUIRED })
  @ApiOperation({ summary: 'Create a tag (admin); the slug is derived from the name when omitted' })
  @ApiEnvelope(TagResponseDto, { status: 201 })
  @ApiErrors(400, 409)
  async createTag(@Body() dto: TagCreateDto, @CurrentUser() user: AuthUser): Promise<WithMessage<TagResponseDto>> {
    return withMessage(await this.tags.create(dto, user), TagsMessages.CREATED);
  }

  @Put(':id')
  @Auth({ role: RoleName.ADMIN, unauthenticated: TagsMessages.AUTH_REQUIRED })
  @ApiOperation({ summary: 'Update a tag, partially (admin)' })
  @ApiEnvelope(TagResponseDto)
  @ApiErrors(400, 404, 409)
  async updateTag(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: TagUpdateDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<TagResponseDto>> {
    return withMessage(await this.tags.update(id, dto, user), TagsMessages.UPDATED);
  }

  @Delete(':id')
  @Auth({ role: RoleName.ADMIN })
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a tag (admin): 409 when it is active and used by posts (deactivate it instead)' })
  @ApiNoContentResponse({ description: 'Deleted (no body)' })
  @ApiErrors(400, 404, 409)
  async deleteTag(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<void> {
    await this.tags.remove(id, user);
  }

  @Delete(':id/deactivate')
  @Auth({ role: RoleName.ADMIN })
  @ApiOperation({ summary: 'Deactivate a tag (admin): it disappears from public pages and cannot be attached' })
  @ApiEnvelope(TagResponseDto)
  @ApiErrors(400, 404)
  async deactivateTag(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<WithMessage<TagResponseDto>> {
    return withMessage(await this.tags.setActive(id, false, user), TagsMessages.DEACTIVATED);
  }

  @Post(':id/activate')
  @HttpCode(200)
  @Auth({ role: RoleName.ADMIN })
  @ApiOperation({ summary: 'Activate a tag (admin)' })
  @ApiEnvelope(TagResponseDto)
  @ApiErrors(400, 404)
  async activateTag(@Param('id', ParseIdPipe) id: number, @CurrentUser() user: AuthUser): Promise<WithMessage<TagResponseDto>> {
    return withMessage(await this.tags.setActive(id, true, user), TagsMessages.ACTIVATED);
  }
}
