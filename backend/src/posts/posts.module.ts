import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { TagsModule } from '../tags/tags.module';
import { PostRevision } from './entities/post-revision.entity';
import { PostTag } from './entities/post-tag.entity';
import { Post } from './entities/post.entity';
import { PostLifecycle } from './lifecycle/post-lifecycle.service';
import { PostCacheSubscriber } from './post-cache.subscriber';
import { PostViewsService } from './post-views.service';
import { PostsPublicController } from './posts-public.controller';
import { PostsPublicService } from './posts-public.service';
import { PostsController } from './posts.controller';
import { PostsRepository } from './posts.repository';
import { PostsService } from './posts.service';
import { RevisionsController } from './revisions.controller';
import { RevisionsService } from './revisions.service';
import { SearchController } from './search.controller';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';

@Module({
  imports: [TypeOrmModule.forFeature([Post, PostTag, PostRevision]), AuthModule, TagsModule],
  // The public controller first: /blog/posts/public must not reach GET /blog/posts/:id.
  controllers: [PostsPublicController, SearchController, PostsController, RevisionsController],
  providers: [PostsRepository, PostLifecycle, PostCacheSubscriber, PostsService, RevisionsService, PostsPublicService, PostViewsService, SearchRepository, SearchService],
  exports: [PostsService, PostLifecycle, PostsPublicService, PostViewsService, RevisionsService],
})
export class PostsModule {}
