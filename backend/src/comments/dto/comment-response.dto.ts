import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AdminPageFieldsDto } from '../../common/pagination/page';
import { CommentModeration } from '../entities/comment.entity';

/** The public face of a comment's author (never the e-mail). */
export class CommentAuthorDto {
  @ApiProperty() id: number;
  @ApiProperty() fullName: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty() isVerified: boolean;
}

/** Who wrote a reply that came from the fediverse (docs/federation.md); such a comment has no local `author`. */
export class RemoteCommentAuthorDto {
  @ApiProperty() name: string;
  @ApiProperty({ description: '@user@host' }) handle: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The remote profile page' }) url: string | null;
}

/** A comment in a thread (docs/requirements.md#data-comment). */
export class CommentResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() postId: number;
  @ApiProperty({ type: Number, nullable: true }) parentId: number | null;
  @ApiProperty({ description: "Plain text as typed (render it as text, never as HTML); '[This comment has been deleted]' when deleted" })
  content: string;
  @ApiProperty({ type: CommentAuthorDto, nullable: true, description: "Null when deleted or when the author's account is gone" })
  author: CommentAuthorDto | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'Differs from createdAt once the content was edited' }) updatedAt: string;
  @ApiProperty({ minimum: 0, maximum: 3, description: '0 for a top-level comment, parent level + 1 for a reply (at most 3)' })
  level: number;
  @ApiProperty({ description: 'Replies directly under this comment' }) replyCount: number;
  @ApiProperty({ description: 'Deleted, kept as a placeholder because it has replies' }) deleted: boolean;
  @ApiProperty({
    type: () => [CommentResponseDto],
    description: 'The replies (whole thread below, oldest first) in thread answers; empty in flat lists',
  })
  replies: CommentResponseDto[];
  @ApiProperty({
    enum: CommentModeration,
    enumName: 'CommentModeration',
    description:
      "HIDDEN: content is '[This comment has been hidden by a moderator]', replies kept; HELD: awaiting moderation, shown to its author only",
  })
  moderation: CommentModeration;
  @ApiProperty({ description: "The caller may hide it: the post's author or an admin, on a visible comment" }) canHide: boolean;
  @ApiProperty({
    description: "The caller may report it: signed in, not the comment's author, not reported by them yet, a visible comment",
  })
  canReport: boolean;
  @ApiPropertyOptional({
    type: RemoteCommentAuthorDto,
    description: 'Set only on a reply that came from the fediverse (docs/federation.md)',
  })
  remoteAuthor?: RemoteCommentAuthorDto;
}

/** A page of comments: the spec's page fields plus `currentPage` (docs/requirements.md#data-comment). */
export class CommentPageDto extends AdminPageFieldsDto {
  @ApiProperty({ type: [CommentResponseDto] }) content: CommentResponseDto[];
}

export class CommentPostRefDto {
  @ApiProperty() id: number;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
}

/**
 * A comment with its post, for lists outside a thread (docs/requirements.md#data-comment and 'Recent
 * comment'): the user's comments, recent comments, search results.
 */
export class CommentActivityDto {
  @ApiProperty() id: number;
  @ApiProperty() content: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ description: '0 for a top-level comment' }) level: number;
  @ApiProperty({ type: Number, nullable: true }) parentId: number | null;
  @ApiProperty({ description: 'True for a top-level comment' }) root: boolean;
  @ApiProperty() replyCount: number;
  @ApiProperty() postId: number;
  @ApiProperty() postSlug: string;
  @ApiProperty() postTitle: string;
  @ApiProperty({ type: CommentPostRefDto }) post: CommentPostRefDto;
  @ApiProperty({ type: CommentAuthorDto, nullable: true }) author: CommentAuthorDto | null;
  @ApiProperty({
    enum: CommentModeration,
    enumName: 'CommentModeration',
    description: "Lists of others' comments show VISIBLE ones only; one's own list shows HIDDEN (with the placeholder) and HELD too",
  })
  moderation: CommentModeration;
}

/** A page of comments with their posts (with `currentPage`, as the comment page). */
export class CommentActivityPageDto extends AdminPageFieldsDto {
  @ApiProperty({ type: [CommentActivityDto] }) content: CommentActivityDto[];
}

/** docs/requirements.md#data-comment. */
export class CommentStatsDto {
  @ApiProperty() postId: number;
  @ApiProperty({ description: 'Comments not deleted (equals the post commentCount)' }) totalComments: number;
  @ApiProperty({ description: 'Distinct authors of those comments' }) uniqueCommenters: number;
}
