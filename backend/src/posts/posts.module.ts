import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { PostViewsModule } from '../post-views/post-views.module';
import { RevisionsModule } from '../revisions/revisions.module';
import { TagsModule } from '../tags/tags.module';
import { PostTag } from './entities/post-tag.entity';
import { Post } from './entities/post.entity';
import { PostLifecycle } from './lifecycle/post-lifecycle.service';
import { PostCacheSubscriber } from './post-cache.subscriber';
import { PostsPublicController } from './posts-public.controller';
import { PostsPublicService } from './posts-public.service';
import { PostsController } from './posts.controller';
import { PostsRepository } from './posts.repository';
import { PostsService } from './posts.service';
import { RevisionsController } from './revisions.controller';
import { PostRevisionsService } from './post-revisions.service';

@Module({
  imports: [TypeOrmModule.forFeature([Post, PostTag]), AuthModule, TagsModule, RevisionsModule, PostViewsModule],
  // The public controller first: /blog/posts/public must not reach GET /blog/posts/:id.
  controllers: [PostsPublicController, PostsController, RevisionsController],
  providers: [PostsRepository, PostLifecycle, PostCacheSubscriber, PostsService, PostsPublicService, PostRevisionsService],
  exports: [PostsService, PostLifecycle, PostsPublicService],
})
export class PostsModule {}
