import { Controller, Delete, Get, HttpCode, Param, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Auth, CurrentUser, TokenScope } from '../auth/auth.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { RoleName } from '../users/roles';
import { ImageUploadInfoDto, ImageValidationDto, ThumbnailUploadDto } from './dto/image-response.dto';
import { IMAGE_FIELD, ImageUploadInterceptor } from './image-upload.interceptor';
import { ImagesMessages } from './images.messages';
import { ImagesService } from './images.service';

const IMAGE_BODY = ApiBody({
  schema: {
    type: 'object',
    required: [IMAGE_FIELD],
    properties: { [IMAGE_FIELD]: { type: 'string', format: 'binary', description: 'JPEG, PNG, WebP or GIF, at most 10 MB' } },
  },
});

/**
 * The images API on the host root, not under /api/v1 (docs/requirements.md#api-images).
 * Stored files are served by ImagesModule's middleware at /images/thumbnails/* and /images/avatars/*.
 */
@ApiTags('Images')
@Controller('images')
export class ImagesController {
  constructor(private readonly images: ImagesService) {}

  @Get('upload-info')
  @ApiOperation({
    summary: 'Thumbnail upload requirements: maxSize (bytes), allowedFormats, recommendedDimensions, maxDimensions (public)',
  })
  @ApiEnvelope(ImageUploadInfoDto)
  getImageUploadInfo(): WithMessage<ImageUploadInfoDto> {
    return withMessage(this.images.uploadInfo(), ImagesMessages.INFO);
  }

  @Post('validate')
  @HttpCode(200)
  @UseInterceptors(ImageUploadInterceptor)
  @ApiOperation({
    summary: 'Check an image against the thumbnail rules without storing it (public)',
    description:
      'Type by content (JPEG, PNG, WebP, GIF), not empty, at most 10 MB, decodable, at most 2048x2048, width and height ratios to 800x400 within 0.5-3. ' +
      'More than 30 % off 800x400 is valid with a warning. Refused: 400, message = the first reason, errors.image = every reason.',
  })
  @ApiConsumes('multipart/form-data')
  @IMAGE_BODY
  @ApiEnvelope(ImageValidationDto, { description: "Valid; message 'Image is valid'" })
  @ApiErrors(400, 413, 429, 503)
  async validateImage(@UploadedFile() file: Express.Multer.File | undefined): Promise<WithMessage<ImageValidationDto>> {
    return withMessage(await this.images.validate(file && { path: file.path, size: file.size }), ImagesMessages.VALID);
  }

  @Post('thumbnail/upload')
  @Auth({ role: RoleName.AUTHOR, forbidden: ImagesMessages.UPLOAD_FORBIDDEN, unauthenticated: ImagesMessages.UPLOAD_AUTH_REQUIRED })
  @TokenScope('posts:write')
  @UseInterceptors(ImageUploadInterceptor)
  @ApiOperation({
    summary: 'Upload a post thumbnail (AUTHOR or ADMIN)',
    description:
      'The checks of POST /images/validate, then stored re-encoded as WebP (quality 80, metadata stripped) under a random name with ' +
      'variants 400, 800 and 1600 px wide (only those narrower than the image). An animated GIF is stored as its first frame (with a warning). ' +
      'A thumbnail no post uses is deleted a day after its upload.',
  })
  @ApiConsumes('multipart/form-data')
  @IMAGE_BODY
  @ApiEnvelope(ThumbnailUploadDto, { status: 201 })
  @ApiErrors(400, 413, 429, 503)
  async uploadThumbnail(
    @CurrentUser() user: AuthUser,
    @UploadedFile() file: Express.Multer.File | undefined,
  ): Promise<WithMessage<ThumbnailUploadDto>> {
    return withMessage(
      await this.images.uploadThumbnail(user, file && { path: file.path, size: file.size }),
      ImagesMessages.THUMBNAIL_UPLOADED,
    );
  }

  @Delete(':filename')
  @HttpCode(204)
  @Auth({ unauthenticated: ImagesMessages.DELETE_AUTH_REQUIRED })
  @TokenScope('posts:write')
  @ApiParam({
    name: 'filename',
    description: 'A thumbnail file name as uploaded (`<32 hex>-<W>x<H>.webp`)',
    schema: { type: 'string', example: '0123456789abcdef0123456789abcdef-1200x600.webp' },
  })
  @ApiOperation({ summary: 'Delete an uploaded thumbnail and its variants (its uploader or an ADMIN; 409 while a post uses it)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(400, 404, 409)
  async deleteImage(@CurrentUser() user: AuthUser, @Param('filename') filename: string): Promise<void> {
    await this.images.deleteThumbnail(user, filename);
  }
}
