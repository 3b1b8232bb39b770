import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { MaxChars, trimOrNull } from '../../common/validation/field.rules';
import { ReviewStatus } from '../entities/post-review.entity';
import { ReviewsMessages } from '../reviews.messages';


export class PostReviewDto {
  @ApiProperty({ enum: ReviewStatus, enumName: 'ReviewStatus' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsIn(Object.values(ReviewStatus), { message: ReviewsMessages.DECISION_REQUIRED })
  status: ReviewStatus;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, description: 'Internal notes (admins only)' })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: ReviewsMessages.NOTE_TOO_LONG })
  @MaxChars(2000, ReviewsMessages.NOTE_TOO_LONG)
  adminNotes?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, description: 'Required when rejecting; the author sees it' })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: ReviewsMessages.REASON_REQUIRED })
  @MaxChars(2000, ReviewsMessages.NOTE_TOO_LONG)
  rejectionReason?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, description: 'A note for the author' })
  @IsOptional()
  @Transform(trimOrNull)
  @IsString({ message: ReviewsMessages.NOTE_TOO_LONG })
  @MaxChars(2000, ReviewsMessages.NOTE_TOO_LONG)
  reviewNote?: string | null;
}
