import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, Max, Min, registerDecorator, ValidateIf } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/page';
import { MaxChars, Required, Text, trim, trimOrNull } from '../../common/validation/field.rules';
import { ReportReason } from '../entities/comment-report.entity';
import { ModerationMessages } from '../moderation.messages';

const Rules = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators) as PropertyDecorator;
const REASONS = Object.values(ReportReason);

/** POST /comments/{id}/reports. */
export class CommentReportCreateDto {
  @ApiProperty({ enum: ReportReason, enumName: 'ReportReason' })
  @IsIn(REASONS, { message: ModerationMessages.REASON_INVALID })
  reason: ReportReason;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, description: 'Required for OTHER' })
  @Rules(
    Transform(trimOrNull),
    ValidateIf((o: CommentReportCreateDto, value) => o.reason === ReportReason.OTHER || (value !== undefined && value !== null)),
    Required(ModerationMessages.DETAILS_REQUIRED),
    MaxChars(500, ModerationMessages.DETAILS_TOO_LONG),
  )
  details?: string | null;
}

/** A moderator's reason: trimmed, 1–500 characters. */
const ModerationReason = (required: string) =>
  Rules(
    ApiProperty({ minLength: 1, maxLength: 500 }),
    Transform(trim),
    Required(required),
    MaxChars(500, ModerationMessages.REASON_TOO_LONG),
  );

/** POST /comments/{id}/hide. */
export class CommentHideDto {
  @ModerationReason(ModerationMessages.HIDE_REASON_REQUIRED)
  reason: string;
}

export const BULK_ACTIONS = ['hide', 'restore', 'delete', 'dismiss'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const MAX_BULK_IDS = 100;
const MAX_ID = 2147483647;

/** POST /admin/comments/bulk: the same action on each id (each in its own transaction). */
export class CommentBulkDto {
  @ApiProperty({ type: [Number], minItems: 1, maxItems: MAX_BULK_IDS })
  @Rules(
    IsArray({ message: ModerationMessages.IDS_INVALID }),
    ArrayMinSize(1, { message: ModerationMessages.IDS_INVALID }),
    ArrayMaxSize(MAX_BULK_IDS, { message: ModerationMessages.IDS_INVALID }),
    IsInt({ each: true, message: ModerationMessages.IDS_INVALID }),
    Min(1, { each: true, message: ModerationMessages.IDS_INVALID }),
    Max(MAX_ID, { each: true, message: ModerationMessages.IDS_INVALID }),
  )
  ids: number[];

  @ApiProperty({ enum: BULK_ACTIONS })
  @IsIn(BULK_ACTIONS, { message: ModerationMessages.ACTION_INVALID })
  action: BulkAction;

  @ApiPropertyOptional({ maxLength: 500, description: 'Required for hide' })
  @Rules(
    Transform(trim),
    ValidateIf((o: CommentBulkDto, value) => o.action === 'hide' || value !== undefined),
    Required(ModerationMessages.HIDE_REASON_REQUIRED),
    MaxChars(500, ModerationMessages.REASON_TOO_LONG),
  )
  reason?: string;
}

export const QUEUE_FILTERS = ['reported', 'hidden', 'held', 'all'] as const;
export type QueueFilter = (typeof QUEUE_FILTERS)[number];
export const QUEUE_SORTS = ['newest', 'reports'] as const;
export type QueueSort = (typeof QUEUE_SORTS)[number];
const blankToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** GET /admin/comments. */
export class CommentQueueQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: QUEUE_FILTERS,
    default: 'reported',
    description: 'reported: open reports; hidden; held; all: every comment not deleted',
  })
  @IsOptional()
  @Transform(blankToUndefined)
  @IsIn(QUEUE_FILTERS, { message: ModerationMessages.FILTER_INVALID })
  filter?: QueueFilter;

  @ApiPropertyOptional({ maxLength: 100, description: "Part of the comment's text, or of its author's name or e-mail" })
  @Rules(IsOptional(), Transform(trim), Text(ModerationMessages.SEARCH_TOO_LONG), MaxChars(100, ModerationMessages.SEARCH_TOO_LONG))
  search?: string;

  @ApiPropertyOptional({ enum: QUEUE_SORTS, default: 'newest', description: 'newest first, or most open reports first' })
  @IsOptional()
  @Transform(blankToUndefined)
  @IsIn(QUEUE_SORTS, { message: ModerationMessages.SORT_INVALID })
  sort?: QueueSort;
}

/** `until`: present, and null or an ISO date-time in the future. */
function MuteEnd(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'muteEndPresent',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: ModerationMessages.UNTIL_REQUIRED },
      validator: { validate: (value: unknown) => value !== undefined },
    });
    registerDecorator({
      name: 'muteEnd',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: ModerationMessages.UNTIL_INVALID },
      validator: {
        validate: (value: unknown) => {
          if (value === undefined || value === null) return true;
          if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(value))
            return false;
          const at = Date.parse(value);
          return Number.isFinite(at) && at > Date.now() && at < Date.parse('9999-01-01T00:00:00Z');
        },
      },
    });
  };
}

/** POST /admin/users/{id}/mute. */
export class UserMuteDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the mute ends (ISO, with its offset); null: for good',
  })
  @MuteEnd()
  until: string | null;

  @ModerationReason(ModerationMessages.MUTE_REASON_REQUIRED)
  reason: string;
}
