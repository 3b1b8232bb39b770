import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AuditType } from '../../audit/audit.types';

export enum ActivityType {
  LIKE = 'LIKE',
  COMMENT = 'COMMENT',
}

export class ReaderDashboardUserDto {
  @ApiProperty({ type: String, format: 'date-time', description: 'When the account was created (member since)' }) joinDate: string;
  @ApiProperty({ description: "The user's full name" }) displayName: string;
}

export class ReaderStatisticsDto {
  @ApiProperty({ description: "The user's likes of published posts (the my-likes list's total)" }) totalLikes: number;
  @ApiProperty({ description: "The user's comments that are not deleted (the my-comments list's total)" }) totalComments: number;
  @ApiProperty({ description: 'Distinct published posts the user likes' }) totalPostsLiked: number;
  @ApiProperty({ description: 'Distinct posts the user has comments on' }) totalPostsCommented: number;
  @ApiProperty({ description: 'totalLikes per week since joining (at least one week), one decimal' }) averageLikesPerWeek: number;
  @ApiProperty({ description: 'totalComments per week since joining (at least one week), one decimal' }) averageCommentsPerWeek: number;
}

export class ReaderActivityDto {
  @ApiProperty({ enum: ActivityType, enumName: 'ReaderActivityType' }) type: ActivityType;
  @ApiProperty() postId: number;
  @ApiProperty() postTitle: string;
  @ApiProperty() postSlug: string;
  @ApiProperty({ type: String, format: 'date-time' }) timestamp: string;
}

/** The reader dashboard (docs/requirements.md#data-reader-stats). */
export class ReaderDashboardStatsDto {
  @ApiProperty({ type: ReaderDashboardUserDto }) user: ReaderDashboardUserDto;
  @ApiProperty({ type: ReaderStatisticsDto }) statistics: ReaderStatisticsDto;
  @ApiProperty({ type: [ReaderActivityDto], description: 'Likes and comments of the last 7 days, newest first, at most 5' })
  recentActivity: ReaderActivityDto[];
}

export class QuickTodayStatsDto {
  @ApiProperty({ description: 'Accounts created since 00:00 UTC' }) newUsers: number;
  @ApiProperty({ description: 'Posts published since 00:00 UTC (still published)' }) newPosts: number;
  @ApiProperty({ description: 'Comments on published posts since 00:00 UTC (not deleted)' }) newComments: number;
  @ApiProperty({ description: 'Likes of published posts since 00:00 UTC' }) newLikes: number;
}

/** Site totals anyone may see (docs/requirements.md#data-quick-stats). */
export class QuickStatsDto {
  @ApiProperty({ description: 'Accounts' }) totalUsers: number;
  @ApiProperty({ description: 'Published posts' }) totalPosts: number;
  @ApiProperty({ description: 'Comments on published posts that are not deleted' }) totalComments: number;
  @ApiProperty({ description: 'Likes of published posts' }) totalLikes: number;
  @ApiProperty({ type: QuickTodayStatsDto }) todayStats: QuickTodayStatsDto;
}

/**
 * The six activity types of docs/requirements.md#activity-types ('Activity types'), the only values of
 * `recentActivities[].type` on the admin and author dashboards: integrators switch on them. Every
 * event maps to the nearest (dashboards/activity-type.ts); the audit log keeps the exact kind.
 * The spec's six are audit types too (AuditType starts from them), so their values come from there.
 */
export enum DashboardActivityType {
  USER_REGISTERED = AuditType.USER_REGISTERED,
  POST_PUBLISHED = AuditType.POST_PUBLISHED,
  POST_CREATED = AuditType.POST_CREATED,
  TAG_CREATED = AuditType.TAG_CREATED,
  USER_UPDATED = AuditType.USER_UPDATED,
  USER_BANNED = AuditType.USER_BANNED,
}

/** One entry of a back-office activity list (docs/requirements.md#activity-types: type, title, description, timestamp, optional link). */
export class DashboardActivityDto {
  @ApiProperty({ enum: DashboardActivityType, enumName: 'DashboardActivityType' }) type: DashboardActivityType;
  @ApiProperty({ description: "What happened, e.g. 'Post published'" }) title: string;
  @ApiProperty({ description: 'One line about it, naming the post (and the reason of a rejection)' }) description: string;
  @ApiProperty({ type: String, format: 'date-time' }) timestamp: string;
  @ApiPropertyOptional({ description: 'Where to go from the entry (absent when there is nowhere to go)' }) link?: string;
}

/** The author dashboard (docs/requirements.md#data-author-stats). */
export class AuthorDashboardStatsDto {
  @ApiProperty({ description: 'Every post in the system, any status (the card Total Posts (System))' }) totalPosts: number;
  @ApiProperty({ description: "The caller's posts, any status" }) myPosts: number;
  @ApiProperty({ description: "The caller's PUBLISHED posts" }) publishedPosts: number;
  @ApiProperty({ description: "The caller's DRAFT posts" }) myDrafts: number;
  @ApiProperty({ description: 'Active tags (Total Tags Available)' }) totalTags: number;
  @ApiProperty({
    type: [DashboardActivityDto],
    description:
      "Events on the caller's own posts, newest first, at most 10: created (POST_CREATED), waiting for review (type POST_CREATED, title 'Submitted for review'; posts now PENDING_REVIEW, " +
      "at their last change), published (POST_PUBLISHED, at publishedAt), rejected (type POST_CREATED, title 'Post rejected'; each rejecting review, with its reason). " +
      'link: /author/posts/{id}/edit while the post is a DRAFT or REJECTED, /blog/{slug} while it is PUBLISHED, else absent',
  })
  recentActivities: DashboardActivityDto[];
  @ApiProperty({ type: String, format: 'date-time', description: 'When these figures were read' }) lastUpdated: string;
}

/** One UTC day of the admin activity chart. */
export class AdminActivityDayDto {
  @ApiProperty({ example: '2026-03-01', description: 'The UTC day, YYYY-MM-DD' }) date: string;
  @ApiProperty({ description: 'Accounts created that day' }) users: number;
  @ApiProperty({ description: 'Posts created that day (any status now)' }) posts: number;
  @ApiProperty({ description: 'Comments written that day (not deleted)' }) comments: number;
  @ApiProperty({ description: 'Likes given that day (still there)' }) likes: number;
}

/** New users, posts, comments and likes per UTC day, oldest day first, every day present (zeros included). */
export class AdminActivityDto {
  @ApiProperty({ type: [AdminActivityDayDto], description: 'The last N days up to today (UTC), oldest first' }) days: AdminActivityDayDto[];
}
