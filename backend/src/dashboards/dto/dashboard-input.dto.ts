import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { DashboardsMessages } from '../dashboards.messages';

export const ACTIVITY_DAYS_DEFAULT = 30;
export const ACTIVITY_DAYS_MAX = 365;

/** `?days` of the admin activity chart: a whole number 1–365, 30 when absent (one message however it fails). */
export class AdminActivityQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: ACTIVITY_DAYS_MAX,
    default: ACTIVITY_DAYS_DEFAULT,
    description: 'How many UTC days, today included',
  })
  @Transform(({ value }) =>
    value === undefined ? ACTIVITY_DAYS_DEFAULT : typeof value === 'string' && /^\s*\d{1,6}\s*$/.test(value) ? Number(value) : value,
  )
  @ValidateBy(
    {
      name: 'activityDays',
      validator: {
        validate: (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= ACTIVITY_DAYS_MAX,
      },
    },
    { message: DashboardsMessages.DAYS_INVALID },
  )
  days: number = ACTIVITY_DAYS_DEFAULT;
}
