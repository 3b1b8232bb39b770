import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { MaxChars } from '../../common/validation/field.rules';
import { LifecycleMessages } from '../../posts/lifecycle/lifecycle.messages';
import { PUBLISH_TIME_DESCRIPTION } from '../../posts/lifecycle/publish-time';
import { SchedulingMessages } from '../scheduling.messages';

const PUBLISH_AT_INVALID = LifecycleMessages.publishTimeInvalid(LifecycleMessages.PUBLISH_AT_LABEL);

/** PUT /blog/posts/admin/{id}/schedule. */
export class PostScheduleDto {
  @ApiProperty({ type: String, format: 'date-time', maxLength: 64, description: `The new publish time: ${PUBLISH_TIME_DESCRIPTION}` })
  @IsString({ message: PUBLISH_AT_INVALID })
  @MaxChars(64, PUBLISH_AT_INVALID)
  publishAt: string;
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
