import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { CommentsModule } from '../comments/comments.module';
import { AdminModerationController, CommentModerationController } from './moderation.controller';
import { ModerationRepository } from './moderation.repository';
import { ModerationService } from './moderation.service';

/**
 * Comment moderation (issue 19 §2): reports, hiding, the queue, muting. The visibility moves are
 * CommentVisibility's and the rules a comment meets when written CommentPolicy's (both exported
 * by CommentsModule, which knows nothing of moderation).
 */
@Module({
  imports: [AuthModule, AuditModule, CommentsModule],
  controllers: [CommentModerationController, AdminModerationController],
  providers: [ModerationService, ModerationRepository],
  exports: [ModerationService],
})
export class ModerationModule {}
