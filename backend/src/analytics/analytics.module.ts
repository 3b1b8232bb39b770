import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PostViewsModule } from '../post-views/post-views.module';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsQueryService } from './analytics-query.service';
import { AnalyticsRollup } from './analytics-rollup.service';
import { PageViewRecorder } from './page-view-recorder.service';
import { StatsPageHold } from './stats-page-hold';

/**
 * Cookie-free page-view analytics in PostgreSQL (docs/analytics.md): the one page-view recorder
 * (which also feeds PostViewsService's view counts), the rollup, the figures' API and the hold of
 * the rendered Stats pages (StatsPageHold, used by the frontend layer). Reads
 * nothing of the newsletter or the fediverse: their readers show up as sources.
 */
@Module({
  imports: [AuthModule, PostViewsModule],
  controllers: [AnalyticsController],
  providers: [PageViewRecorder, AnalyticsRollup, AnalyticsQueryService, StatsPageHold],
  exports: [PageViewRecorder, AnalyticsRollup, StatsPageHold],
})
export class AnalyticsModule {}
