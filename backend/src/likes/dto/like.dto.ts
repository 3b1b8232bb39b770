import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt } from 'class-validator';
import { clampSize } from '../../common/pagination/page';
import { sortQuery } from '../../common/pagination/sort';

export const LIKE_SORT_FIELDS = ['createdAt', 'postTitle', 'userName'] as const;
export type LikeSortField = (typeof LIKE_SORT_FIELDS)[number];

/** `GET /likes/user/my-likes ?page&size&sortBy&sortDirection` (docs/requirements.md#api-likes; default createdAt, desc). */
export class LikeMineQueryDto extends sortQuery(LIKE_SORT_FIELDS, {
  defaultField: 'createdAt',
  defaultDirection: 'desc',
  directionParam: 'sortDirection',
}) {}

export const DEFAULT_RECENT_LIKES = 3;
export const MAX_RECENT_LIKES = 50;

/** `GET /likes/user/my-likes/recent ?limit` (default 3; clamped to 1–50 like page sizes). */
export class LikeRecentQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_RECENT_LIKES, default: DEFAULT_RECENT_LIKES })
  @Transform(({ value }) =>
    clampSize(typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value, DEFAULT_RECENT_LIKES, MAX_RECENT_LIKES),
  )
  @IsInt()
  limit: number = DEFAULT_RECENT_LIKES;
}

/** Whether the caller likes the post, and its like count (toggle, like, unlike, status). */
export class LikeStateDto {
  @ApiProperty() postId: number;
  @ApiProperty({ description: 'Whether the caller likes the post now' }) liked: boolean;
  @ApiProperty({ description: "The post's like count" }) likeCount: number;
}

/** The post's like count (public). */
export class LikeCountDto {
  @ApiProperty() postId: number;
  @ApiProperty() likeCount: number;
}

/** Whether the caller likes the post. */
export class LikeCheckDto {
  @ApiProperty() postId: number;
  @ApiProperty() liked: boolean;
}

/** A like of the caller (docs/requirements.md#data-like), with the liked post's card fields. */
export class LikeRecordDto {
  @ApiProperty({ description: 'The like' }) id: number;
  @ApiProperty() postId: number;
  @ApiProperty() postTitle: string;
  @ApiProperty() postSlug: string;
  @ApiProperty({ type: String, nullable: true }) postSummary: string | null;
  @ApiProperty({ type: String, nullable: true }) postThumbnail: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) postPublishedAt: string | null;
  @ApiProperty() postLikeCount: number;
  @ApiProperty({ description: "The post's author (the liked-posts screen shows and sorts it as 'Author name')" }) userName: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the caller liked the post' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'The same as createdAt (the liked-post view reads likedAt)' })
  likedAt: string;
}

export class LikesTestDto {
  @ApiProperty({ example: 'likes' }) service: string;
  @ApiProperty({ example: 'UP' }) status: string;
  @ApiProperty({ type: String, format: 'date-time' }) timestamp: string;
}
