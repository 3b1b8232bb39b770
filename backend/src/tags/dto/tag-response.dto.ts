import { ApiProperty } from '@nestjs/swagger';
import { AdminPageFieldsDto } from '../../common/pagination/page';

export class TagResponseDto {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'TypeScript' }) name: string;
  @ApiProperty({ example: 'typescript' }) slug: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true, example: '#3178c6' }) color: string | null;
  @ApiProperty({ type: String, nullable: true }) icon: string | null;
  @ApiProperty() isActive: boolean;
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE'] }) status: 'ACTIVE' | 'INACTIVE';
  @ApiProperty({ description: 'Posts carrying the tag (any status on back-office lists; published only on GET /blog/tags/publish)' })
  postCount: number;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: string;
}

/** Where an old tag slug leads now (GET /blog/tags/moved/{slug}). */
export class TagMovedDto {
  @ApiProperty({ example: 'typescript', description: "The tag's current slug" }) slug: string;
}

/** A tag as shown on a post or card. */
export class TagRefDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty({ type: String, nullable: true }) color: string | null;
}

/** The tag list page: the spec's paged fields, plus `tags` (the admin variant) holding the same items. */
export class TagPageDto extends AdminPageFieldsDto {
  @ApiProperty({ type: [TagResponseDto] }) content: TagResponseDto[];
  @ApiProperty({ type: [TagResponseDto] }) tags: TagResponseDto[];
}
