import { Inject, Injectable, NotFoundException, OnModuleDestroy } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user';
import { ContentEvents } from '../common/content-events';
import { CommonMessages } from '../common/messages';
import { MicroCache } from '../common/micro-cache';
import { siteTimeFormatter } from '../common/site-time';
import { APP_CONFIG, AppConfig } from '../config/env';
import { ACTIVITY_TYPE_OF_AUTHOR_EVENT } from './activity-type';
import { DashboardsMessages } from './dashboards.messages';
import { AuthorEventRow, DashboardsRepository } from './dashboards.repository';
import {
  ActivityType,
  AdminActivityDto,
  AuthorDashboardStatsDto,
  DashboardActivityDto,
  QuickStatsDto,
  ReaderDashboardStatsDto,
} from './dto/dashboard.dto';

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
/** docs/requirements.md#screen-reader-dashboard, docs/requirements.md#constants-lists: the reader's activity of the last 7 days, at most 5 entries. */
const RECENT_ACTIVITY_DAYS = 7;
const RECENT_ACTIVITY_LIMIT = 5;
/** docs/requirements.md#data-author-stats: the newest events on the author's posts. */
const AUTHOR_ACTIVITY_LIMIT = 10;
/** The post is the author's to edit (the editor), or public (the post page). */
const EDITABLE_STATUSES = new Set(['DRAFT', 'REJECTED']);
/** The public quick stats and the admin activity chart are the same for every caller: one query per 5 s at most (dropped at once by the changes they count). */
const SHARED_ANSWER_TTL_MS = 5_000;

/** Per week since `since` (at least one week), to one decimal (docs/requirements.md#constants-lists). */
export function perWeek(total: number, since: Date, now = Date.now()): number {
  const weeks = Math.max(1, (now - since.getTime()) / WEEK_MS);
  return Math.round((total / weeks) * 10) / 10;
}

/** Where an author's activity entry leads: the editor while the post is theirs to edit, the post page while it is published. */
function activityLink(row: AuthorEventRow): string | undefined {
  if (EDITABLE_STATUSES.has(row.status)) return `/author/posts/${row.post_id}/edit`;
  if (row.status === 'PUBLISHED') return `/blog/${row.slug}`;
  return undefined;
}

/** An author's activity entry; `siteTime` writes a time as the pages do (a scheduled post names its time). */
export function toAuthorActivity(row: AuthorEventRow, siteTime: (date: Date) => string): DashboardActivityDto {
  const link = activityLink(row);
  const scheduled = row.type === 'POST_SUBMITTED' && row.scheduled_at ? DashboardsMessages.activity.POST_SCHEDULED : undefined;
  const texts = DashboardsMessages.activity[row.type];
  return {
    type: ACTIVITY_TYPE_OF_AUTHOR_EVENT[row.type],
    title: scheduled ? scheduled.title : texts.title,
    description:
      scheduled && row.scheduled_at
        ? scheduled.description(row.title, siteTime(row.scheduled_at))
        : texts.description(row.title, row.reason),
    timestamp: row.at.toISOString(),
    ...(link ? { link } : {}),
  };
}

/** The reader and author dashboards, the admin activity chart and the public quick stats: real figures from SQL aggregates, never samples. */
@Injectable()
export class DashboardsService implements OnModuleDestroy {
  private readonly quick = new MicroCache<QuickStatsDto>(SHARED_ANSWER_TTL_MS, 1);
  /** Per `days`: the chart's counts read every row of the period, so a burst of dashboard loads shares one read (at most 5 s old). */
  private readonly activity = new MicroCache<AdminActivityDto>(SHARED_ANSWER_TTL_MS, 16);
  private readonly stopListening: () => void;

  private readonly siteTime: (date: Date) => string;

  constructor(
    private readonly repository: DashboardsRepository,
    contentEvents: ContentEvents,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.siteTime = siteTimeFormatter(config.siteTimeZone);
    // Both count users, published posts, comments and likes: every change but a tag's; the chart
    // also counts posts of any status. Dropped before the writer answers, so a commenter's next
    // quick stats count their comment.
    this.stopListening = contentEvents.onChange((change) => {
      if (change.kind === 'tag') return;
      if (change.kind !== 'unpublished-post') this.quick.clear();
      this.activity.clear();
    });
  }

  onModuleDestroy(): void {
    this.stopListening();
  }

  async readerStats(user: AuthUser): Promise<ReaderDashboardStatsDto> {
    const since = new Date(Date.now() - RECENT_ACTIVITY_DAYS * DAY_MS);
    const row = await this.repository.readerDashboard(user.id, since, RECENT_ACTIVITY_LIMIT);
    if (!row) throw new NotFoundException(CommonMessages.NOT_FOUND);
    return {
      user: { joinDate: row.join_date.toISOString(), displayName: row.display_name },
      statistics: {
        totalLikes: row.total_likes,
        totalComments: row.total_comments,
        // One like per (user, post): the posts liked are the likes.
        totalPostsLiked: row.total_likes,
        totalPostsCommented: row.total_posts_commented,
        averageLikesPerWeek: perWeek(row.total_likes, row.join_date),
        averageCommentsPerWeek: perWeek(row.total_comments, row.join_date),
      },
      recentActivity: row.recent.map((activity) => ({
        type: activity.type === 'LIKE' ? ActivityType.LIKE : ActivityType.COMMENT,
        postId: activity.post_id,
        postTitle: activity.title,
        postSlug: activity.slug,
        timestamp: new Date(activity.at).toISOString(),
      })),
    };
  }

  async authorStats(user: AuthUser): Promise<AuthorDashboardStatsDto> {
    const [totals, events] = await Promise.all([
      this.repository.authorTotals(user.id),
      this.repository.authorEvents(user.id, AUTHOR_ACTIVITY_LIMIT),
    ]);
    return {
      totalPosts: totals.total_posts,
      myPosts: totals.my_posts,
      publishedPosts: totals.published_posts,
      myDrafts: totals.my_drafts,
      totalTags: totals.total_tags,
      recentActivities: events.map((event) => toAuthorActivity(event, this.siteTime)),
      lastUpdated: new Date().toISOString(),
    };
  }

  adminActivity(days: number): Promise<AdminActivityDto> {
    return this.activity.remember(String(days), async () => ({ days: await this.repository.activityByDay(days) }));
  }

  quickStats(): Promise<QuickStatsDto> {
    return this.quick.remember('quick', async () => {
      const row = await this.repository.quickStats();
      return {
        totalUsers: row.total_users,
        totalPosts: row.total_posts,
        totalComments: row.total_comments,
        totalLikes: row.total_likes,
        todayStats: { newUsers: row.new_users, newPosts: row.new_posts, newComments: row.new_comments, newLikes: row.new_likes },
      };
    });
  }
}
