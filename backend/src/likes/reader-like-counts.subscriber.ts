import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../events/domain-events.service';
import { LikesRepository } from './likes.repository';

/**
 * Keeps each reader's count of liked PUBLISHED posts (reader_like_counts) through the post
 * lifecycle's moves, in their transaction (which holds the post's row lock, as like writes do):
 * a post becoming PUBLISHED counts its likes for their readers again, one leaving PUBLISHED (or
 * deleted while published: the lifecycle records `post.deleted` before the row and its likes go)
 * stops counting them. The like writes themselves are counted by LikesService.
 */
@Injectable()
export class ReaderLikeCountsSubscriber {
  constructor(events: DomainEvents, likes: LikesRepository) {
    events.onRecorded('post.published', async ({ data }, manager) => {
      if (data.previousStatus !== 'PUBLISHED') await likes.countPostLikers(manager, data.postId, 1);
    });
    events.onRecorded('post.unpublished', ({ data }, manager) => likes.countPostLikers(manager, data.postId, -1));
    events.onRecorded('post.deleted', async ({ data }, manager) => {
      if (data.status === 'PUBLISHED') await likes.countPostLikers(manager, data.postId, -1);
    });
  }
}
