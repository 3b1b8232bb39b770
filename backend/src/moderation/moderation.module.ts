import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CommentsModule } from '../comments/comments.module';
import { AdminModerationController, CommentModerationController } from './moderation.controller';
import { ModerationRepository } from './moderation.repository';
import { ModerationService } from './moderation.service';

/**
 * Comment moderation: reports, hiding, the queue, muting. The visibility moves are
 * CommentVisibility's (exported by CommentsModule, which knows nothing of moderation); the audit
 * entries follow their events.
 */
@Module({
  imports: [AuthModule, CommentsModule],
  controllers: [CommentModerationController, AdminModerationController],
  providers: [ModerationService, ModerationRepository],
  exports: [ModerationService],
})
export class ModerationModule {}
