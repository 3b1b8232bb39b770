import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { SchedulingMessages } from '../scheduling.messages';

const PUBLISH_AT_INVALID = SchedulingMessages.publishTimeInvalid(SchedulingMessages.PUBLISH_AT_LABEL);
const REQUESTED_INVALID = SchedulingMessages.publishTimeInvalid(SchedulingMessages.REQUESTED_LABEL);
const TIME_DESCRIPTION = 'ISO 8601 with a zone (Z or ±hh:mm), at least 1 minute in the future and at most 1 year ahead';

/** PUT /blog/posts/admin/{id}/schedule. */
export class PostScheduleDto {
  @ApiProperty({ type: String, format: 'date-time', maxLength: 64, description: `The new publish time: ${TIME_DESCRIPTION}` })
  @IsString({ message: PUBLISH_AT_INVALID })
  @MaxLength(64, { message: PUBLISH_AT_INVALID })
  publishAt: string;
}

/** POST /blog/posts/author/{id}/submit-for-review (the body is optional). */
export class SubmitForReviewDto {
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, maxLength: 64, description: `The publication time the author asks for (the reviewer may keep or change it): ${TIME_DESCRIPTION}` })
  @IsOptional()
  @IsString({ message: REQUESTED_INVALID })
  @MaxLength(64, { message: REQUESTED_INVALID })
  requestedPublishAt?: string | null;
}

/** PUT /api/v1/test/clock (TEST_CLOCK_CONTROL=1 only). */
export class TestClockDto {
  @IsInt({ message: SchedulingMessages.OFFSET_INVALID })
  @Min(-31_622_400, { message: SchedulingMessages.OFFSET_INVALID })
  @Max(31_622_400, { message: SchedulingMessages.OFFSET_INVALID })
  offsetSeconds: number;
}

export class TestClockResponseDto {
  @ApiProperty({ type: String, format: 'date-time' }) now: string;
  @ApiProperty() offsetSeconds: number;
  @ApiProperty({ description: 'Posts the sweep run at once published' }) published: number;
}
