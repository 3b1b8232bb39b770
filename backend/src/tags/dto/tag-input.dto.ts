import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { LookupPageQueryDto } from '../../common/pagination/page';
import { sortQuery } from '../../common/pagination/sort';
import { CharLength, MaxChars, trim, trimOrNull } from '../../common/validation/field.rules';
import { SLUG_PATTERN } from '../../../../isomorphic/slug';
import { TagsMessages } from '../tags.messages';

/** The fields both create and update take (all optional). */
class TagFieldsDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 100, description: 'Derived from the name when omitted on create' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: TagsMessages.SLUG_INVALID })
  @CharLength(2, 100, TagsMessages.SLUG_INVALID)
  @Matches(SLUG_PATTERN, { message: TagsMessages.SLUG_INVALID })
  slug?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: TagsMessages.DESCRIPTION_TOO_LONG })
  @MaxChars(500, TagsMessages.DESCRIPTION_TOO_LONG)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '#3178c6' })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: TagsMessages.COLOR_INVALID })
  @Matches(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { message: TagsMessages.COLOR_INVALID })
  color?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 64, description: 'An icon name or a short emoji' })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: TagsMessages.ICON_TOO_LONG })
  @MaxChars(64, TagsMessages.ICON_TOO_LONG)
  icon?: string | null;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'isActive must be true or false' })
  isActive?: boolean;
}

export class TagUpdateDto extends TagFieldsDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 100 })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: TagsMessages.NAME_LENGTH })
  @CharLength(2, 100, TagsMessages.NAME_LENGTH)
  name?: string;
}

export class TagCreateDto extends TagFieldsDto {
  @ApiProperty({ minLength: 2, maxLength: 100 })
  @Transform(trim)
  @IsString({ message: TagsMessages.NAME_LENGTH })
  @CharLength(2, 100, TagsMessages.NAME_LENGTH)
  name: string;
}

export const TAG_SORT_FIELDS = ['name', 'createdAt', 'updatedAt', 'postCount'] as const;
export type TagSortField = (typeof TAG_SORT_FIELDS)[number];

export const TAG_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type TagStatus = (typeof TAG_STATUSES)[number];

/** ?page&size (≤1000)&sortBy&sortDir&search&activeOnly&status. */
export class TagQueryDto extends sortQuery(TAG_SORT_FIELDS, { defaultField: 'name', base: LookupPageQueryDto }) {
  @ApiPropertyOptional({ description: 'Part of the name or slug' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxChars(100, 'search must be at most 100 characters')
  search?: string;

  @ApiPropertyOptional({ default: true, type: Boolean, description: 'false also lists inactive tags' })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' || value === true ? true : value === 'false' || value === false ? false : value))
  @IsBoolean({ message: 'activeOnly must be true or false' })
  activeOnly?: boolean;

  @ApiPropertyOptional({
    enum: TAG_STATUSES,
    description:
      'Only ACTIVE or only INACTIVE tags (case-insensitive). When given it decides instead of activeOnly; absent, activeOnly does',
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() || undefined : value))
  @IsIn(TAG_STATUSES, { message: TagsMessages.STATUS_INVALID })
  status?: TagStatus;
}
