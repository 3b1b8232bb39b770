import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEmail, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { NewsletterSendsMessages } from '../newsletter-sends.messages';

export const BOUNCE_TYPES = ['hard_bounce', 'soft_bounce', 'complaint'] as const;
export type BounceType = (typeof BOUNCE_TYPES)[number];

/** One event a mail provider reported (through the operator's relay). */
export class BounceEventDto {
  @ApiProperty({
    enum: BOUNCE_TYPES,
    description:
      'hard_bounce: the address does not exist (suppressed at once); soft_bounce: a temporary failure (NEWSLETTER_SOFT_BOUNCE_LIMIT in a row suppress it); complaint: the recipient marked an e-mail as spam (suppressed at once)',
  })
  @IsIn(BOUNCE_TYPES, { message: NewsletterSendsMessages.TYPE_INVALID })
  type: BounceType;

  @ApiProperty({ example: 'reader@example.com', maxLength: 254 })
  @IsString({ message: NewsletterSendsMessages.EMAIL_INVALID })
  @MaxLength(254, { message: NewsletterSendsMessages.EMAIL_INVALID })
  @IsEmail({}, { message: NewsletterSendsMessages.EMAIL_INVALID })
  email: string;

  @ApiPropertyOptional({ example: '550 5.1.1 The email account that you tried to reach does not exist', maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  detail?: string;
}

export class BounceReportDto {
  @ApiProperty({ type: [BounceEventDto], minItems: 1, maxItems: 1000 })
  @IsArray({ message: NewsletterSendsMessages.EVENTS_INVALID })
  @ArrayMinSize(1, { message: NewsletterSendsMessages.EVENTS_INVALID })
  @ArrayMaxSize(1000, { message: NewsletterSendsMessages.EVENTS_INVALID })
  @ValidateNested({ each: true })
  @Type(() => BounceEventDto)
  events: BounceEventDto[];
}

export class BounceResultDto {
  @ApiProperty({ description: 'Events read' }) received: number;
  @ApiProperty({ description: 'Addresses added to the suppression list by this report' }) suppressed: number;
  @ApiProperty({ description: 'Soft bounces counted (below the limit)' }) softBouncesCounted: number;
  @ApiProperty({ description: 'Events naming an address that is no subscriber (hard bounces and complaints are suppressed all the same)' })
  unknown: number;
}
