import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PostsModule } from '../posts/posts.module';
import { ScheduledPublisher } from './scheduled-publisher';
import { SchedulingController } from './scheduling.controller';
import { SchedulingService } from './scheduling.service';
import { TestClockController } from './test-clock.controller';

/** Scheduled publishing: reschedule/cancel, and the sweep that publishes due posts (docs/publishing.md). */
@Module({
  imports: [AuthModule, PostsModule],
  controllers: [SchedulingController],
  providers: [SchedulingService, ScheduledPublisher],
  exports: [SchedulingService, ScheduledPublisher],
})
export class SchedulingModule {}

/** PUT /api/v1/test/clock: mounted only with TEST_CLOCK_CONTROL=1 (app.module). */
@Module({
  imports: [AuthModule, SchedulingModule],
  controllers: [TestClockController],
})
export class TestClockModule {}
