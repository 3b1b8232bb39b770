import { ApiProperty } from '@nestjs/swagger';

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

/** The reader dashboard (spec 000 §3 'Reader dashboard stats'). */
export class ReaderDashboardStatsDto {
  @ApiProperty({ type: ReaderDashboardUserDto }) user: ReaderDashboardUserDto;
  @ApiProperty({ type: ReaderStatisticsDto }) statistics: ReaderStatisticsDto;
  @ApiProperty({ type: [ReaderActivityDto], description: 'Likes and comments of the last 7 days, newest first, at most 5' }) recentActivity: ReaderActivityDto[];
}

export class QuickTodayStatsDto {
  @ApiProperty({ description: 'Accounts created since 00:00 UTC' }) newUsers: number;
  @ApiProperty({ description: 'Posts published since 00:00 UTC (still published)' }) newPosts: number;
  @ApiProperty({ description: 'Comments on published posts since 00:00 UTC (not deleted)' }) newComments: number;
  @ApiProperty({ description: 'Likes of published posts since 00:00 UTC' }) newLikes: number;
}

/** Site totals anyone may see (spec 000 §3 'Quick stats'). */
export class QuickStatsDto {
  @ApiProperty({ description: 'Accounts' }) totalUsers: number;
  @ApiProperty({ description: 'Published posts' }) totalPosts: number;
  @ApiProperty({ description: 'Comments on published posts that are not deleted' }) totalComments: number;
  @ApiProperty({ description: 'Likes of published posts' }) totalLikes: number;
  @ApiProperty({ type: QuickTodayStatsDto }) todayStats: QuickTodayStatsDto;
}
