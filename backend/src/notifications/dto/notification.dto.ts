import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { NOTIFICATION_TYPES, NotificationType } from '../notification.types';
import { NotificationsMessages } from '../notifications.messages';

export class NotificationActorDto {
  @ApiProperty() id: number;
  @ApiProperty() fullName: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
}

export class NotificationPostDto {
  @ApiProperty() id: number;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
}

/** One entry of the in-app list. */
export class NotificationDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: NotificationType, enumName: 'NotificationType' }) type: NotificationType;
  @ApiProperty() read: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: NotificationActorDto, nullable: true, description: 'Who did it (null once their account is removed)' })
  actor: NotificationActorDto | null;
  @ApiProperty({ type: NotificationPostDto, nullable: true }) post: NotificationPostDto | null;
  @ApiProperty({ type: Number, nullable: true }) commentId: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The rejection, hiding or report reason' }) reason: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'POST_APPROVED of a scheduled post: when it will be published',
  })
  publishAt: string | null;
  @ApiProperty({ description: 'Site-relative address to open: the comment anchor, the post, the review in the editor, or the admin list' })
  link: string;
}

export class UnreadCountDto {
  @ApiProperty({ description: 'Unread in-app notifications' }) count: number;
}

export class MarkedReadDto {
  @ApiProperty({ description: 'Notifications marked read by this call' }) updated: number;
}

export class EventPreferenceDto {
  @ApiProperty({ enum: NotificationType, enumName: 'NotificationType' })
  @IsIn(NOTIFICATION_TYPES, { message: NotificationsMessages.TYPE_INVALID })
  type: NotificationType;

  @ApiProperty({ description: 'Listed on /notifications' })
  @IsBoolean({ message: NotificationsMessages.BOOLEAN })
  inApp: boolean;

  @ApiProperty({ description: 'Sent by e-mail (one e-mail each, or in the hourly digest)' })
  @IsBoolean({ message: NotificationsMessages.BOOLEAN })
  email: boolean;
}

/** The caller's preferences: only the types that apply to their role. */
export class NotificationPreferencesDto {
  @ApiProperty({ description: 'E-mails grouped into at most one digest an hour instead of one each' }) digest: boolean;
  @ApiProperty({ type: [EventPreferenceDto] }) events: EventPreferenceDto[];
}

/** PUT body: either part may be left out; listed types change, others stay. */
export class UpdateNotificationPreferencesDto {
  @ApiPropertyOptional({ description: 'E-mails grouped into at most one digest an hour' })
  @IsOptional()
  @IsBoolean({ message: NotificationsMessages.BOOLEAN })
  digest?: boolean;

  @ApiPropertyOptional({ type: [EventPreferenceDto] })
  @IsOptional()
  @IsArray({ message: NotificationsMessages.EVENTS_ARRAY })
  @ArrayMaxSize(NOTIFICATION_TYPES.length * 2, { message: NotificationsMessages.EVENTS_ARRAY })
  @ValidateNested({ each: true })
  @Type(() => EventPreferenceDto)
  events?: EventPreferenceDto[];
}

export class UnsubscribeQueryDto {
  @ApiProperty({ description: 'The signed token from the e-mail' })
  @IsString({ message: NotificationsMessages.TOKEN_INVALID })
  @MaxLength(200, { message: NotificationsMessages.TOKEN_INVALID })
  token: string;
}

/** What an unsubscribe link stops (GET), or stopped (POST). */
export class UnsubscribeDto {
  @ApiProperty({ enum: [...NOTIFICATION_TYPES, 'ALL'], description: "One type's e-mails, or ALL notification e-mails (the digest's link)" })
  scope: NotificationType | 'ALL';
  @ApiProperty({ description: "What it stops, in words ('e-mails about replies to your comments')" }) description: string;
  @ApiProperty({ description: 'Whether those e-mails are off now' }) unsubscribed: boolean;
}
