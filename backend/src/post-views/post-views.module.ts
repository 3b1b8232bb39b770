import { Module } from '@nestjs/common';
import { PostViewsService } from './post-views.service';

/** Post view counting, batched: fed by the public post read and by the page cache's post pages. */
@Module({
  providers: [PostViewsService],
  exports: [PostViewsService],
})
export class PostViewsModule {}
