import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MaxChars } from '../../common/validation/field.rules';
import { LifecycleMessages } from '../lifecycle/lifecycle.messages';
import { PUBLISH_TIME_DESCRIPTION } from '../lifecycle/publish-time';

const REQUESTED_INVALID = LifecycleMessages.publishTimeInvalid(LifecycleMessages.REQUESTED_LABEL);

/** POST /blog/posts/author/{id}/submit-for-review (the body is optional). */
export class SubmitForReviewDto {
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    maxLength: 64,
    description: `The publication time the author asks for (the reviewer may keep or change it): ${PUBLISH_TIME_DESCRIPTION}`,
  })
  @IsOptional()
  @IsString({ message: REQUESTED_INVALID })
  @MaxChars(64, REQUESTED_INVALID)
  requestedPublishAt?: string | null;
}
