import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { NewsletterSendsMessages } from '../newsletter-sends.messages';

export const DELIVERY_STATES = ['queued', 'sent', 'failed', 'bounced', 'suppressed', 'skipped'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export class NewsletterSendCountsDto {
  @ApiProperty() queued: number;
  @ApiProperty() sent: number;
  @ApiProperty() failed: number;
  @ApiProperty() bounced: number;
  @ApiProperty() suppressed: number;
  @ApiProperty() skipped: number;
}

/** A post's newsletter send, as the admin sees it. */
export class NewsletterSendDto {
  @ApiProperty() postId: number;
  @ApiProperty({ description: "false: 'Publish without e-mail' (set before the post is published)" }) sendEmail: boolean;
  @ApiProperty({
    enum: ['none', 'pending', 'queued', 'sending', 'done', 'off'],
    description:
      'none: not published since the newsletter exists and no choice made; pending: a choice made, not yet published; queued: published, recipients being listed; sending; done; off: not e-mailed (Publish without e-mail, or imported)',
  })
  state: string;
  @ApiProperty({ description: 'Recipients listed when the post was published' }) recipients: number;
  @ApiProperty({ type: NewsletterSendCountsDto }) counts: NewsletterSendCountsDto;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt: string | null;
}

export class NewsletterSendSettingDto {
  @ApiProperty({ description: "false: the post is published without e-mail ('Publish without e-mail'); only before it is e-mailed" })
  @IsBoolean({ message: NewsletterSendsMessages.SEND_EMAIL_BOOLEAN })
  sendEmail: boolean;
}

export class NewsletterDeliveryDto {
  @ApiProperty() id: number;
  @ApiProperty() subscriberId: number;
  @ApiProperty() email: string;
  @ApiProperty({ enum: DELIVERY_STATES }) state: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ type: String, nullable: true, description: "The SMTP server's last answer, or why it was skipped" }) lastError:
    string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) sentAt: string | null;
}

export class NewsletterDeliveriesQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATES })
  @IsOptional()
  @IsIn(DELIVERY_STATES, { message: NewsletterSendsMessages.STATE_INVALID })
  state?: DeliveryState;

  @ApiPropertyOptional({ minimum: 0, maximum: 100_000, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100_000)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  size?: number;
}

export class NewsletterDeliveryPageDto {
  @ApiProperty({ type: [NewsletterDeliveryDto] }) items: NewsletterDeliveryDto[];
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() size: number;
}

export class NewsletterRetryDto {
  @ApiProperty({ description: 'Failed e-mails queued again' }) requeued: number;
}

export class NewsletterTestDto {
  @ApiProperty({ description: "The address the test went to (the caller's)" }) to: string;
}

export class NewsletterPreviewDto {
  @ApiProperty() subject: string;
  @ApiProperty({ description: "The e-mail's HTML (show it in a sandboxed iframe)" }) html: string;
  @ApiProperty({ description: 'Its plain-text part' }) text: string;
}
