import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { TagsModule } from '../tags/tags.module';
import { PostTag } from './entities/post-tag.entity';
import { Post } from './entities/post.entity';
import { PostViewsService } from './post-views.service';
import { PostsPublicController } from './posts-public.controller';
import { PostsPublicService } from './posts-public.service';
import { PostsController } from './posts.controller';
import { PostsRepository } from './posts.repository';
import { PostsService } from './posts.service';
import { SearchController } from './search.controller';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';

@Module({
  imports: [TypeOrmModule.forFeature([Post, PostTag]), AuthModule, TagsModule, AuditModule],
  // The public controller first: /blog/posts/public must not reach GET /blog/posts/:id.
  controllers: [PostsPublicController, SearchController, PostsController],
  providers: [PostsRepository, PostsService, PostsPublicService, PostViewsService, SearchRepository, SearchService],
  exports: [PostsService, PostsPublicService, PostViewsService],
})
export class PostsModule {}
