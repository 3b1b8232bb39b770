import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { AdminPageFieldsDto, pageQuery } from '../../common/pagination/page';
import { EmailField, MaxChars, Text, trimOrNull } from '../../common/validation/field.rules';
import {
  SUBSCRIBER_CADENCES,
  SUBSCRIBER_SOURCES,
  SUBSCRIBER_STATUSES,
  type SubscriberCadence,
  type SubscriberSource,
  type SubscriberStatus,
} from '../entities/newsletter-subscriber.entity';
import { SUPPRESSION_REASONS, type SuppressionReason } from '../entities/newsletter-suppression.entity';
import { NewsletterMessages } from '../newsletter.messages';
import { FollowDto } from './newsletter.dto';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class SubscriberQueryDto extends pageQuery(100, 20) {
  @ApiPropertyOptional({ description: 'Part of the e-mail address or name' })
  @IsOptional()
  @Transform(trimmed)
  @Text('search must be text')
  @MaxChars(254, 'search must be at most 254 characters')
  search?: string;

  @ApiPropertyOptional({ enum: SUBSCRIBER_STATUSES, enumName: 'NewsletterSubscriberStatus' })
  @IsOptional()
  @IsIn(SUBSCRIBER_STATUSES, { message: NewsletterMessages.STATUS_INVALID })
  status?: SubscriberStatus;

  @ApiPropertyOptional({ description: "Only those following: 'publication', 'author:<userId>' or 'tag:<tagId>'", example: 'author:12' })
  @IsOptional()
  @Transform(trimmed)
  @Text(NewsletterMessages.FOLLOW_FILTER_INVALID)
  follow?: string;
}

export class SuppressionQueryDto extends pageQuery(100, 20) {
  @ApiPropertyOptional({ description: 'Part of the e-mail address' })
  @IsOptional()
  @Transform(trimmed)
  @Text('search must be text')
  @MaxChars(254, 'search must be at most 254 characters')
  search?: string;
}

export class AdminSubscriberDto {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: Number, nullable: true, description: "The reader's account, when the row is theirs" }) userId: number | null;
  @ApiProperty({ enum: SUBSCRIBER_STATUSES, enumName: 'NewsletterSubscriberStatus' }) status: SubscriberStatus;
  @ApiProperty({ enum: SUBSCRIBER_CADENCES, enumName: 'NewsletterCadence' }) cadence: SubscriberCadence;
  @ApiProperty({ type: Number, nullable: true }) digestWeekday: number | null;
  @ApiProperty({ enum: SUBSCRIBER_SOURCES, enumName: 'NewsletterSubscriberSource' }) source: SubscriberSource;
  @ApiProperty() softBounces: number;
  @ApiProperty({
    type: String,
    enum: [...SUPPRESSION_REASONS],
    nullable: true,
    description: "Why the address is suppressed: 'hard_bounce', 'soft_bounces', 'complaint' or 'manual' (null: it is not)",
  })
  suppressed: SuppressionReason | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) confirmedAt: string | null;
  @ApiProperty({ type: [FollowDto] }) follows: FollowDto[];
}

export class AdminSubscriberPageDto extends AdminPageFieldsDto {
  @ApiProperty({ type: [AdminSubscriberDto] }) content: AdminSubscriberDto[];
}

export class SuppressionDto {
  @ApiProperty() email: string;
  @ApiProperty({ enum: SUPPRESSION_REASONS, enumName: 'NewsletterSuppressionReason' }) reason: SuppressionReason;
  @ApiProperty({ type: String, nullable: true, description: "The SMTP answer or the provider's words" }) detail: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
}

export class SuppressionPageDto extends AdminPageFieldsDto {
  @ApiProperty({ type: [SuppressionDto] }) content: SuppressionDto[];
}

export class SuppressionEmailQueryDto {
  @ApiProperty({ example: 'reader@example.com' })
  @EmailField(NewsletterMessages.EMAIL_REQUIRED, NewsletterMessages.EMAIL_INVALID)
  email: string;
}

export class AddSuppressionDto {
  @ApiProperty({ example: 'reader@example.com' })
  @EmailField(NewsletterMessages.EMAIL_REQUIRED, NewsletterMessages.EMAIL_INVALID)
  email: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @IsOptional()
  @Transform(trimOrNull)
  @Text(NewsletterMessages.DETAIL_TOO_LONG)
  @MaxChars(500, NewsletterMessages.DETAIL_TOO_LONG)
  detail?: string | null;
}

export class ImportRowIssueDto {
  @ApiProperty({ description: "The row's line in the file (the header is line 1)" }) line: number;
  @ApiProperty() email: string;
  @ApiProperty() reason: string;
}

export class ImportReportDto {
  @ApiProperty({ enum: ['inkwell', 'ghost', 'substack'], description: 'The format recognised from the header' }) format:
    'inkwell' | 'ghost' | 'substack';
  @ApiProperty({ description: 'false on a dry run' }) applied: boolean;
  @ApiProperty({ description: 'Rows read (the header aside)' }) rows: number;
  @ApiProperty({ description: 'New subscribers (active, source import)' }) created: number;
  @ApiProperty({ description: 'Addresses already subscribed: their follows were added' }) updated: number;
  @ApiProperty({ type: [ImportRowIssueDto], description: 'Rows left out on purpose: unsubscribed in the export, or unsubscribed here' })
  skipped: ImportRowIssueDto[];
}
