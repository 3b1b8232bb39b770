import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { PostsModule } from '../posts/posts.module';
import { Like } from './entities/like.entity';
import { LikesController, PostLikesController } from './likes.controller';
import { LikesRepository } from './likes.repository';
import { LikeCacheSubscriber } from './like-cache.subscriber';
import { LikesService } from './likes.service';
import { ReaderLikeCountsSubscriber } from './reader-like-counts.subscriber';

@Module({
  imports: [TypeOrmModule.forFeature([Like]), AuthModule, PostsModule],
  controllers: [LikesController, PostLikesController],
  providers: [LikesService, LikesRepository, ReaderLikeCountsSubscriber, LikeCacheSubscriber],
  exports: [LikesService],
})
export class LikesModule {}
