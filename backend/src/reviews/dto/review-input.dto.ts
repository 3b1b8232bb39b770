import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { MaxChars, trimOrNull } from '../../common/validation/field.rules';
import { ReviewStatus } from '../entities/post-review.entity';
import { ReviewsMessages } from '../reviews.messages';
import { LifecycleMessages } from '../../posts/lifecycle/lifecycle.messages';

const PUBLISH_AT_INVALID = LifecycleMessages.publishTimeInvalid(LifecycleMessages.PUBLISH_AT_LABEL);

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

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    maxLength: 64,
    description:
      'Only with APPROVED: publish at this time instead of now (ISO 8601 with a zone, at least 1 minute in the future, at most 1 year ahead). ' +
      'The post stays PENDING_REVIEW with scheduledAt until the scheduler publishes it',
  })
  @IsOptional()
  @IsString({ message: PUBLISH_AT_INVALID })
  @MaxChars(64, PUBLISH_AT_INVALID)
  publishAt?: string | null;
}
