import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { EmailField, MaxChars, Required, Text, trimOrNull, WholeNumberInRange } from '../../common/validation/field.rules';
import { FOLLOW_KINDS, type FollowKind } from '../entities/newsletter-follow.entity';
import {
  SUBSCRIBER_CADENCES,
  SUBSCRIBER_STATUSES,
  type SubscriberCadence,
  type SubscriberStatus,
} from '../entities/newsletter-subscriber.entity';
import { NewsletterMessages } from '../newsletter.messages';

const toInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value) : value);

/** One follow as the reader sees it. */
export class FollowDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: FOLLOW_KINDS, enumName: 'NewsletterFollowKind' }) kind: FollowKind;
  @ApiProperty({ description: '0 for the publication; the author user id; the tag id' }) targetId: number;
  @ApiProperty({ description: "What it follows, to show: 'Every new post', the author's name, the tag's name" }) name: string;
  @ApiProperty({ type: String, nullable: true, description: "The author's or tag's slug (null for the publication)" }) slug: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
}

export class SubscriberSummaryDto {
  @ApiProperty() email: string;
  @ApiProperty({ enum: SUBSCRIBER_STATUSES, enumName: 'NewsletterSubscriberStatus' }) status: SubscriberStatus;
  @ApiProperty({ enum: SUBSCRIBER_CADENCES, enumName: 'NewsletterCadence' }) cadence: SubscriberCadence;
  @ApiProperty({ type: Number, nullable: true, description: 'The weekly digest day: 0 = Sunday … 6 = Saturday, in the site time zone' })
  digestWeekday: number | null;
}

/** The caller's own newsletter: their subscriber row (null before the first follow) and its follows. */
export class MyFollowsDto {
  @ApiProperty({ type: SubscriberSummaryDto, nullable: true }) subscriber: SubscriberSummaryDto | null;
  @ApiProperty({ type: [FollowDto] }) follows: FollowDto[];
}

/** Path parameters of a follow: the publication (`publication/0`), an author (`author/<userId>`) or a tag (`tag/<tagId>`). */
export class FollowTargetParams {
  @ApiProperty({ enum: FOLLOW_KINDS, enumName: 'NewsletterFollowKind' })
  @IsIn(FOLLOW_KINDS, { message: NewsletterMessages.KIND_INVALID })
  kind: FollowKind;

  @ApiProperty({ minimum: 0, maximum: 2_147_483_647 })
  @Transform(toInteger)
  @WholeNumberInRange(0, 2_147_483_647, NewsletterMessages.TARGET_INVALID)
  targetId: number;
}

/** A visitor's request to follow by e-mail (double opt-in). */
export class SubscribeDto {
  @ApiProperty({ example: 'reader@example.com' })
  @EmailField(NewsletterMessages.EMAIL_REQUIRED, NewsletterMessages.EMAIL_INVALID)
  email: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  @IsOptional()
  @Transform(trimOrNull)
  @Text(NewsletterMessages.NAME_TOO_LONG)
  @MaxChars(100, NewsletterMessages.NAME_TOO_LONG)
  name?: string | null;

  @ApiProperty({ enum: FOLLOW_KINDS, enumName: 'NewsletterFollowKind' })
  @IsIn(FOLLOW_KINDS, { message: NewsletterMessages.KIND_INVALID })
  kind: FollowKind;

  @ApiProperty({ minimum: 0, maximum: 2_147_483_647, description: '0 for the publication' })
  @Transform(toInteger)
  @WholeNumberInRange(0, 2_147_483_647, NewsletterMessages.TARGET_INVALID)
  targetId: number;
}

export class TokenQueryDto {
  @ApiProperty({ description: 'The token of the link the e-mail carried' })
  @Required(NewsletterMessages.TOKEN_REQUIRED)
  token: string;
}

export class ConfirmInfoDto {
  @ApiProperty({ description: 'The address being confirmed' }) email: string;
  @ApiProperty({ type: FollowDto, nullable: true, description: 'What the link follows (null when that author or tag is gone)' })
  follow: FollowDto | null;
  @ApiProperty({ description: 'Already confirmed (opening the link again changes nothing)' }) confirmed: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'After confirming: the token of the preferences page (/newsletter/preferences?token=…)',
  })
  preferencesToken: string | null;
}

export class PreferencesDto extends SubscriberSummaryDto {
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: [FollowDto] }) follows: FollowDto[];
}

export class UpdatePreferencesDto {
  @ApiProperty({
    enum: SUBSCRIBER_CADENCES,
    enumName: 'NewsletterCadence',
    description: "'instant': one e-mail per post; 'weekly': one digest a week",
  })
  @IsIn(SUBSCRIBER_CADENCES, { message: NewsletterMessages.CADENCE_INVALID })
  cadence: SubscriberCadence;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 6,
    description: "Required with 'weekly': 0 = Sunday … 6 = Saturday",
  })
  @IsOptional()
  @WholeNumberInRange(0, 6, NewsletterMessages.WEEKDAY_INVALID)
  digestWeekday?: number | null;
}

export class UnsubscribeInfoDto {
  @ApiProperty({ enum: ['follow', 'all'], description: "'follow': this one follow; 'all': every newsletter e-mail of the address" }) scope:
    'follow' | 'all';
  @ApiProperty({ description: "What it stops, in words: 'new posts by Jane Doe'" }) description: string;
  @ApiProperty({ description: 'Already done (or the follow is gone): nothing left to stop' }) unsubscribed: boolean;
}

export class FollowerCountDto {
  @ApiProperty({ description: 'Active subscribers following the caller as an author' }) count: number;
}

export class TargetCountDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty({ description: 'Active subscribers following it' }) count: number;
}

export class FollowerCountsDto {
  @ApiProperty({ description: 'Active subscribers following the publication' }) publication: number;
  @ApiProperty({ description: 'Subscribers by status' }) active: number;
  @ApiProperty() pending: number;
  @ApiProperty() unsubscribed: number;
  @ApiProperty({ description: 'Addresses on the suppression list' }) suppressed: number;
  @ApiProperty({ type: [TargetCountDto], description: 'Authors with followers, most followed first' }) authors: TargetCountDto[];
  @ApiProperty({ type: [TargetCountDto], description: 'Tags with followers, most followed first' }) tags: TargetCountDto[];
}

export class FollowedDto {
  @ApiProperty({ type: FollowDto }) follow: FollowDto;
}

export class UpdateOwnSettingsDto extends UpdatePreferencesDto {}

export class ImportRequestDto {
  @ApiProperty({
    description:
      "The CSV file's text (UTF-8, at most 2 MB): Inkwell's own columns email,name,follows, Ghost's members export or Substack's subscribers export",
  })
  @Required(NewsletterMessages.CSV_REQUIRED)
  csv: string;

  @ApiPropertyOptional({ description: 'Check every row and report, importing nothing' })
  @IsOptional()
  @IsBoolean({ message: 'dryRun must be true or false' })
  dryRun?: boolean;
}
