import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AdminPageFieldsDto } from '../../common/pagination/page';
import { CommentModeration } from '../../comments/entities/comment.entity';
import { RemoteCommentAuthorDto } from '../../comments/dto/comment-response.dto';
import { ReportReason } from '../entities/comment-report.entity';

export class ModerationPersonDto {
  @ApiProperty() id: number;
  @ApiProperty() fullName: string;
}

export class ModerationAuthorDto extends ModerationPersonDto {
  @ApiProperty() email: string;
}

export class ModerationPostDto {
  @ApiProperty() id: number;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
}

export class ModerationParentDto {
  @ApiProperty() id: number;
  @ApiProperty({ description: "As stored; '[This comment has been deleted]' when deleted" }) content: string;
  @ApiProperty({ type: ModerationPersonDto, nullable: true }) author: ModerationPersonDto | null;
}

export class CommentReportDto {
  @ApiProperty({ enum: ReportReason, enumName: 'ReportReason' }) reason: ReportReason;
  @ApiProperty({ type: String, nullable: true }) details: string | null;
  @ApiProperty({ type: ModerationPersonDto }) reporter: ModerationPersonDto;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** A row of the moderation queue: the comment as written, in context (post, parent), with its open reports. */
export class ModerationQueueItemDto {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'The text as written (hidden and held ones too)' }) content: string;
  @ApiProperty({ enum: CommentModeration, enumName: 'CommentModeration' }) moderation: CommentModeration;
  @ApiProperty({ type: String, nullable: true }) hiddenReason: string | null;
  @ApiProperty({ type: ModerationPersonDto, nullable: true, description: 'Who hid it (an admin or the post author)' })
  hiddenBy: ModerationPersonDto | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) hiddenAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: ModerationAuthorDto, nullable: true, description: "Null when the author's account is gone" })
  author: ModerationAuthorDto | null;
  @ApiProperty({ type: ModerationPostDto }) post: ModerationPostDto;
  @ApiProperty({ type: ModerationParentDto, nullable: true }) parent: ModerationParentDto | null;
  @ApiProperty({ description: 'Open reports (dismissed ones not counted)' }) reportCount: number;
  @ApiProperty({ type: [CommentReportDto], description: 'Open reports, newest first' }) reports: CommentReportDto[];
  @ApiPropertyOptional({ type: RemoteCommentAuthorDto, description: 'Where a reply from the fediverse came from (docs/federation.md)' })
  remoteAuthor?: RemoteCommentAuthorDto;
}

export class ModerationQueuePageDto extends AdminPageFieldsDto {
  @ApiProperty({ type: [ModerationQueueItemDto] }) content: ModerationQueueItemDto[];
}

export class CommentReportCreatedDto {
  @ApiProperty() commentId: number;
  @ApiProperty({ enum: ReportReason, enumName: 'ReportReason' }) reason: ReportReason;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** A comment's moderation after an action. */
export class CommentModerationStateDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: CommentModeration, enumName: 'CommentModeration' }) moderation: CommentModeration;
  @ApiProperty({ type: String, nullable: true }) hiddenReason: string | null;
  @ApiProperty() reportCount: number;
}

export class BulkResultDto {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'The status the single action would have answered (200, 204, 403, 404, 409)' }) status: number;
  @ApiProperty() ok: boolean;
  @ApiProperty() message: string;
}

export class UserMuteStatusDto {
  @ApiProperty() userId: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'End of the mute; null when for good or not muted' })
  mutedUntil: string | null;
  @ApiProperty() mutedForever: boolean;
  @ApiProperty({ type: String, nullable: true }) muteReason: string | null;
}
