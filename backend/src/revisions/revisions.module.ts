import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PostRevision } from './entities/post-revision.entity';
import { RevisionsService } from './revisions.service';

/**
 * A post's revisions: recorded and pinned by the post's saves and reviews, listed and compared by
 * word diffs. Its HTTP routes (`/blog/posts/:id/revisions…`) are posts' own (posts/revisions.controller.ts):
 * who may see a revision is who may edit the post, and a restore is a save of the post. So posts
 * depends on this module and never the other way round.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PostRevision])],
  providers: [RevisionsService],
  exports: [RevisionsService],
})
export class RevisionsModule {}
