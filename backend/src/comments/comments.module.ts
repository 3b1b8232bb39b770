import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { CommentPolicy } from './comment-policy';
import { CommentsController, PostCommentsController } from './comments.controller';
import { CommentsRepository } from './comments.repository';
import { CommentsService } from './comments.service';
import { Comment } from './entities/comment.entity';
import { CommentCacheSubscriber } from './visibility/comment-cache.subscriber';
import { CommentVisibility } from './visibility/comment-visibility.service';

/**
 * Comments: threads, writing, editing, deleting; the owner of a comment's visibility and its
 * counters (CommentVisibility) and the rules a comment meets when written (CommentPolicy), which
 * moderation uses through the exports.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Comment]), AuthModule],
  controllers: [PostCommentsController, CommentsController],
  providers: [CommentsService, CommentsRepository, CommentPolicy, CommentVisibility, CommentCacheSubscriber],
  exports: [CommentsService, CommentPolicy, CommentVisibility],
})
export class CommentsModule {}
