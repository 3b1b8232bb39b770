import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { AnalyticsMessages } from '../analytics.messages';
import { DEVICE_CLASSES, SOURCE_GROUPS } from '../view-classes';

export const STATS_DAYS_DEFAULT = 30;
export const STATS_DAYS_MAX = 365;

/** `?days`: a whole number 1–365, 30 when absent (the pages offer 7, 30 and 90). */
export class StatsQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: STATS_DAYS_MAX,
    default: STATS_DAYS_DEFAULT,
    description: 'How many UTC days, today included',
  })
  @Transform(({ value }) =>
    value === undefined ? STATS_DAYS_DEFAULT : typeof value === 'string' && /^\s*\d{1,6}\s*$/.test(value) ? Number(value) : value,
  )
  @ValidateBy(
    {
      name: 'statsDays',
      validator: { validate: (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= STATS_DAYS_MAX },
    },
    { message: AnalyticsMessages.DAYS_INVALID },
  )
  days: number = STATS_DAYS_DEFAULT;
}

export class StatsDayDto {
  @ApiProperty({ format: 'date', description: 'A UTC day' }) day: string;
  @ApiProperty({ description: 'Page views that day' }) views: number;
  @ApiProperty({ description: 'Unique visitors that day (views with Sec-GPC or DNT count as views only)' }) visitors: number;
}

export class StatsTotalsDto {
  @ApiProperty() views: number;
  @ApiProperty({ description: "The days' unique visitors added up (a visitor is known for one day only)" }) visitors: number;
}

export class StatsPostDto {
  @ApiProperty() postId: number;
  @ApiProperty() title: string;
  @ApiProperty() slug: string;
  @ApiProperty({ description: 'Whether the post is published now (views of posts unpublished since stay counted)' }) published: boolean;
  @ApiProperty() views: number;
  @ApiProperty({ description: "The days' unique visitors added up" }) visitors: number;
}

export class StatsSourceGroupDto {
  @ApiProperty({ enum: SOURCE_GROUPS, enumName: 'AnalyticsSourceGroup' }) source: string;
  @ApiProperty() views: number;
}

export class StatsSourceDto {
  @ApiProperty({ enum: SOURCE_GROUPS, enumName: 'AnalyticsSourceGroup' }) source: string;
  @ApiProperty({ description: "The referring host (search engine, social site, fediverse instance, other site); '' when none" })
  host: string;
  @ApiProperty() views: number;
}

export class StatsDeviceDto {
  @ApiProperty({ enum: DEVICE_CLASSES, enumName: 'AnalyticsDeviceClass' }) device: string;
  @ApiProperty() views: number;
}

export class StatsAuthorDto {
  @ApiProperty() authorId: number;
  @ApiProperty() name: string;
  @ApiProperty() views: number;
  @ApiProperty({ description: "The days' unique visitors added up" }) visitors: number;
}

/** The figures of one scope (the site, an author's posts, one post) over the last `days` UTC days. */
export class StatsDto {
  @ApiProperty() days: number;
  @ApiProperty({ format: 'date', description: 'The first UTC day' }) from: string;
  @ApiProperty({ format: 'date', description: 'The last UTC day (today)' }) to: string;
  @ApiProperty({ type: StatsTotalsDto }) totals: StatsTotalsDto;
  @ApiProperty({ type: [StatsDayDto], description: 'Every day of the range, oldest first' }) series: StatsDayDto[];
  @ApiProperty({ type: [StatsPostDto], description: 'The 10 most viewed posts (empty for one post)' }) topPosts: StatsPostDto[];
  @ApiProperty({ type: [StatsSourceGroupDto], description: 'Views per source group, most first' }) sourceGroups: StatsSourceGroupDto[];
  @ApiProperty({ type: [StatsSourceDto], description: 'The 10 most frequent sources with their hosts' }) sources: StatsSourceDto[];
  @ApiProperty({ type: [StatsDeviceDto], description: 'Views per device class, most first' }) devices: StatsDeviceDto[];
  @ApiPropertyOptional({ type: [StatsAuthorDto], description: 'Site figures only: the 10 most viewed authors' }) authors?: StatsAuthorDto[];
  @ApiPropertyOptional({ type: StatsPostDto, description: 'One post’s figures only: that post' }) post?: StatsPostDto;
  @ApiPropertyOptional({ description: "One author's figures (admin): that author's name" }) authorName?: string;
}
