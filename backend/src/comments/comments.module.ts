import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { PostsModule } from '../posts/posts.module';
import { CommentsController, PostCommentsController } from './comments.controller';
import { CommentsRepository } from './comments.repository';
import { CommentsService } from './comments.service';
import { Comment } from './entities/comment.entity';
import { CommentPolicy } from '../moderation/comment-policy';

@Module({
  imports: [TypeOrmModule.forFeature([Comment]), AuthModule, PostsModule, NotificationsModule],
  controllers: [PostCommentsController, CommentsController],
  providers: [CommentsService, CommentsRepository, CommentPolicy],
  exports: [CommentsService, CommentsRepository, CommentPolicy],
})
export class CommentsModule {}
