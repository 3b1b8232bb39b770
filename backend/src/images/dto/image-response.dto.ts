import { ApiProperty } from '@nestjs/swagger';

export class ImageDimensionsDto {
  @ApiProperty({ example: 800 }) width: number;
  @ApiProperty({ example: 400 }) height: number;
}

/** GET /images/upload-info: the spec's upload requirements (docs/requirements.md#data-upload-requirements, docs/requirements.md#constants-images). */
export class ImageUploadInfoDto {
  @ApiProperty({ example: 10485760, description: 'Bytes' }) maxSize: number;
  @ApiProperty({ type: [String], example: ['jpeg', 'jpg', 'png', 'webp', 'gif'] }) allowedFormats: string[];
  @ApiProperty({ type: ImageDimensionsDto, example: { width: 800, height: 400 } }) recommendedDimensions: ImageDimensionsDto;
  @ApiProperty({ type: ImageDimensionsDto, example: { width: 2048, height: 2048 } }) maxDimensions: ImageDimensionsDto;
}

/** POST /images/validate: what was measured, and warnings that do not refuse the image. */
export class ImageValidationDto {
  @ApiProperty({ example: 1200, description: 'As displayed (EXIF orientation applied)' }) width: number;
  @ApiProperty({ example: 600 }) height: number;
  @ApiProperty({ enum: ['jpeg', 'png', 'webp', 'gif'], description: 'Decided by the bytes, not the file name or MIME type' })
  format: string;
  @ApiProperty({ example: 183204, description: 'Bytes' }) size: number;
  @ApiProperty({ type: [String], example: ['Recommended size is 800x400px for optimal display'] }) warnings: string[];
}

export class ThumbnailVariantDto {
  @ApiProperty({ example: 400 }) width: number;
  @ApiProperty({ example: '/images/thumbnails/0123456789abcdef0123456789abcdef-400w.webp' }) url: string;
}

/** POST /images/thumbnail/upload: the stored WebP and its responsive variants. */
export class ThumbnailUploadDto {
  @ApiProperty({
    example: '/images/thumbnails/0123456789abcdef0123456789abcdef-1200x600.webp',
    description: 'The full-size image (store this as the post thumbnail)',
  })
  url: string;
  @ApiProperty({
    example: '/images/thumbnails/0123456789abcdef0123456789abcdef-1200x600.webp',
    description: 'Same as url (the spec client reads imageUrl or url)',
  })
  imageUrl: string;
  @ApiProperty({ example: '0123456789abcdef0123456789abcdef-1200x600.webp', description: 'For DELETE /images/{filename}' })
  filename: string;
  @ApiProperty({ example: 1200 }) width: number;
  @ApiProperty({ example: 600 }) height: number;
  @ApiProperty({ type: [ThumbnailVariantDto], description: 'Narrower copies (400, 800, 1600 wide), only those narrower than the image' })
  variants: ThumbnailVariantDto[];
  @ApiProperty({
    example:
      '/images/thumbnails/0123456789abcdef0123456789abcdef-400w.webp 400w, /images/thumbnails/0123456789abcdef0123456789abcdef-800w.webp 800w, /images/thumbnails/0123456789abcdef0123456789abcdef-1200x600.webp 1200w',
  })
  srcset: string;
  @ApiProperty({ type: [String], example: [] }) warnings: string[];
}
