import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsDefined, IsIn, IsOptional } from 'class-validator';
import { MaxChars, Required, trim } from '../../common/validation/field.rules';
import { WEBHOOK_EVENTS, type WebhookEventName } from '../webhook-events';
import { WebhooksMessages as M } from '../webhooks.messages';

/** POST /admin/webhooks. */
export class WebhookCreateDto {
  @ApiProperty({
    maxLength: 2000,
    example: 'https://example.com/inkwell-hook',
    description: 'http(s) URL whose host resolves to public addresses only (unless WEBHOOK_ALLOW_PRIVATE=1)',
  })
  @Transform(trim)
  @Required(M.URL_REQUIRED)
  @MaxChars(2000, M.URL_MAX)
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENTS, enumName: 'WebhookEventName', isArray: true, minItems: 1 })
  @IsDefined({ message: M.EVENTS_REQUIRED })
  @IsArray({ message: M.EVENTS_REQUIRED })
  @ArrayMinSize(1, { message: M.EVENTS_REQUIRED })
  @ArrayMaxSize(WEBHOOK_EVENTS.length, { message: M.EVENTS_INVALID })
  @ArrayUnique({ message: M.EVENTS_INVALID })
  @IsIn(WEBHOOK_EVENTS, { each: true, message: M.EVENTS_INVALID })
  events: WebhookEventName[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: M.ACTIVE_INVALID })
  active?: boolean;

  @ApiPropertyOptional({ default: false, description: 'Send the e-mail address in user events (user.registered, user.banned)' })
  @IsOptional()
  @IsBoolean({ message: M.INCLUDE_EMAILS_INVALID })
  includeEmails?: boolean;
}

/** PUT /admin/webhooks/{id}: partial; `rotateSecret: true` draws a new secret. */
export class WebhookUpdateDto {
  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @Transform(trim)
  @Required(M.URL_REQUIRED)
  @MaxChars(2000, M.URL_MAX)
  url?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, enumName: 'WebhookEventName', isArray: true, minItems: 1 })
  @IsOptional()
  @IsArray({ message: M.EVENTS_REQUIRED })
  @ArrayMinSize(1, { message: M.EVENTS_REQUIRED })
  @ArrayMaxSize(WEBHOOK_EVENTS.length, { message: M.EVENTS_INVALID })
  @ArrayUnique({ message: M.EVENTS_INVALID })
  @IsIn(WEBHOOK_EVENTS, { each: true, message: M.EVENTS_INVALID })
  events?: WebhookEventName[];

  @ApiPropertyOptional({ description: 'Turning a webhook on clears its failure record' })
  @IsOptional()
  @IsBoolean({ message: M.ACTIVE_INVALID })
  active?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: M.INCLUDE_EMAILS_INVALID })
  includeEmails?: boolean;

  @ApiPropertyOptional({ description: 'Draw a new secret (the old one stops signing at once)' })
  @IsOptional()
  @IsBoolean({ message: M.ROTATE_SECRET_INVALID })
  rotateSecret?: boolean;
}

/** A webhook in the list (no secret). */
export class WebhookSummaryDto {
  @ApiProperty() id: number;
  @ApiProperty() url: string;
  @ApiProperty({ enum: WEBHOOK_EVENTS, enumName: 'WebhookEventName', isArray: true }) events: WebhookEventName[];
  @ApiProperty() active: boolean;
  @ApiProperty() includeEmails: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Start of the current run of failed attempts' })
  failingSince: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why it was turned off automatically' }) disabledReason: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The last attempt of any delivery' }) lastAttemptAt:
    string | null;
  @ApiProperty({ type: Boolean, nullable: true, description: 'Whether that attempt succeeded' }) lastAttemptOk: boolean | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: string;
}

/** One webhook with its secret (create, read, update). */
export class WebhookDto extends WebhookSummaryDto {
  @ApiProperty({ description: 'The signing secret (whsec_…): HMAC-SHA256 key of X-Inkwell-Signature' }) secret: string;
}

/** One attempt of the delivery log. */
export class WebhookAttemptDto {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'The delivery (redeliver it with this id)' }) deliveryId: number;
  @ApiProperty({ format: 'uuid', description: "The payload's id and X-Inkwell-Delivery, the same on every attempt" }) deliveryKey: string;
  @ApiProperty({ example: 'post.published' }) event: string;
  @ApiProperty({ enum: ['PENDING', 'DELIVERED', 'FAILED'], description: "The delivery's state now" }) deliveryStatus: string;
  @ApiProperty({ type: String, format: 'date-time' }) attemptedAt: string;
  @ApiProperty() durationMs: number;
  @ApiProperty() ok: boolean;
  @ApiProperty({ type: Number, nullable: true }) statusCode: number | null;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The start of the receiver's answer (500 characters)" }) responseExcerpt:
    string | null;
}

/** The answer of 'Send test event'. */
export class WebhookTestResultDto extends WebhookAttemptDto {}

/** A delivery queued again. */
export class WebhookRedeliveryDto {
  @ApiProperty() deliveryId: number;
  @ApiProperty({ format: 'uuid' }) deliveryKey: string;
  @ApiProperty({ enum: ['PENDING'] }) status: string;
}
