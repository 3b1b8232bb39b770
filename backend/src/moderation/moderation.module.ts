import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { CommentsModule } from '../comments/comments.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { PostsModule } from '../posts/posts.module';
import { AdminModerationController, CommentModerationController } from './moderation.controller';
import { ModerationRepository } from './moderation.repository';
import { ModerationService } from './moderation.service';

/** Comment moderation (issue 19 §2): reports, hiding, the queue, muting. The rules a comment meets when written are CommentPolicy's (provided by CommentsModule). */
@Module({
  imports: [AuthModule, AuditModule, CommentsModule, PostsModule, NotificationsModule],
  controllers: [CommentModerationController, AdminModerationController],
  providers: [ModerationService, ModerationRepository],
  exports: [ModerationService],
})
export class ModerationModule {}
