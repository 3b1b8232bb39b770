import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PostViewsModule } from '../post-views/post-views.module';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsQueryService } from './analytics-query.service';
import { AnalyticsRollup } from './analytics-rollup.service';
import { PageViewRecorder } from './page-view-recorder.service';

/**
 * Cookie-free page-view analytics in PostgreSQL (docs/analytics.md): the one page-view recorder
 * (which also feeds PostViewsService's view counts), the rollup, and the figures' API. Reads
 * nothing of the newsletter or the fediverse: their readers show up as sources.
 */
@Module({
  imports: [AuthModule, PostViewsModule],
  controllers: [AnalyticsController],
  providers: [PageViewRecorder, AnalyticsRollup, AnalyticsQueryService],
  exports: [PageViewRecorder, AnalyticsRollup],
})
export class AnalyticsModule {}
