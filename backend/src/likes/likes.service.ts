import { Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { DomainEvents } from '../events/domain-events.service';
import { Page, toPage } from '../common/pagination/page';
import { PostsService } from '../posts/posts.service';
import { LikeCheckDto, LikeCountDto, LikeMineQueryDto, LikeRecordDto, LikeStateDto } from './dto/like.dto';
import { LikeChange, LikedPostRow, LikesRepository } from './likes.repository';
import { LikesMessages } from './likes.messages';

/** What a like write did: the state after it, and whether a row was added or removed. */
export interface LikeOutcome {
  state: LikeStateDto;
  changed: boolean;
}

function toLikeRecord(row: LikedPostRow): LikeRecordDto {
  const likedAt = row.created_at.toISOString();
  return {
    id: row.id,
    postId: row.post_id,
    postTitle: row.title,
    postSlug: row.slug,
    postSummary: row.summary,
    postThumbnail: row.thumbnail,
    postPublishedAt: row.published_at ? row.published_at.toISOString() : null,
    postLikeCount: row.like_count,
    userName: row.author_name,
    createdAt: likedAt,
    likedAt,
  };
}

/**
 * Likes (docs/requirements.md#like-toggle, docs/requirements.md#decision-counters): one row per (user, post), only on PUBLISHED posts. The
 * row and the post's like_count change in one transaction (PostsService.adjustCounters), so the
 * count always equals the rows; so does the reader's count of liked published posts
 * (reader_like_counts, read by the dashboard and my-likes). The direction of a toggle is decided
 * by the database, not by a read before the write: DELETE ... RETURNING removes the like if there
 * is one, else INSERT ... ON CONFLICT DO NOTHING adds it; every like write of a post holds the
 * post's row lock first, so concurrent toggles of one user serialise and each sees the other's
 * committed result.
 */
@Injectable()
export class LikesService {
  constructor(
    private readonly events: DomainEvents,
    private readonly repository: LikesRepository,
    private readonly posts: PostsService,
  ) {}

  /** Like when not liked, unlike when liked. */
  toggle(user: AuthUser, postId: number): Promise<LikeOutcome> {
    return this.write(user, postId, 'toggle', LikesMessages.POST_NOT_FOUND);
  }

  /** Like; liking again changes nothing (200, the same state). */
  like(user: AuthUser, postId: number): Promise<LikeOutcome> {
    return this.write(user, postId, 'like', LikesMessages.POST_NOT_FOUND);
  }

  /** Unlike; 404 'Post not found or not liked.' when the post is not liked (or not published). */
  unlike(user: AuthUser, postId: number): Promise<LikeOutcome> {
    return this.write(user, postId, 'unlike', LikesMessages.NOT_LIKED);
  }

  async status(user: AuthUser, postId: number): Promise<LikeStateDto> {
    const row = await this.repository.publishedLikeState(postId, user.id);
    if (!row) throw new NotFoundException(LikesMessages.POST_NOT_FOUND);
    return { postId, liked: row.liked, likeCount: row.like_count };
  }

  async check(user: AuthUser, postId: number): Promise<LikeCheckDto> {
    const { liked } = await this.status(user, postId);
    return { postId, liked };
  }

  async count(postId: number): Promise<LikeCountDto> {
    const likeCount = await this.repository.publishedLikeCount(postId);
    if (likeCount === undefined) throw new NotFoundException(LikesMessages.POST_NOT_FOUND);
    return { postId, likeCount };
  }

  async mine(user: AuthUser, query: LikeMineQueryDto): Promise<Page<LikeRecordDto>> {
    const [rows, total] = await Promise.all([
      this.repository.likedPosts(user.id, query.sortBy ?? 'createdAt', query.sortDirection ?? 'desc', query.size, query.page * query.size),
      this.repository.countLikedPosts(user.id),
    ]);
    return toPage(rows.map(toLikeRecord), total, query.page, query.size);
  }

  /** The user's latest likes (the 'Favorite Posts' and home widgets). */
  async recent(user: AuthUser, limit: number): Promise<LikeRecordDto[]> {
    return (await this.repository.likedPosts(user.id, 'createdAt', 'desc', limit, 0)).map(toLikeRecord);
  }

  /**
   * Removes every like of an account being erased, in the erasure's transaction: the liked posts
   * are locked in id order (the lock every like write takes first), each post's like_count drops
   * by one (PostsService), the like rows go and so does the reader's published-likes count (its
   * likes are all gone). Answers how many likes went.
   */
  async removeAllOf(manager: EntityManager, userId: number): Promise<number> {
    const postIds = await this.repository.lockLikedPosts(manager, userId);
    await this.posts.dropOneLikeEach(manager, postIds);
    const removed = await this.repository.deleteAllOf(manager, userId);
    if (removed !== postIds.length)
      throw new Error(`likes of user ${userId} changed during the erasure (${removed} rows, ${postIds.length} posts)`);
    return removed;
  }

  /**
   * One like write in an event transaction on a PUBLISHED post (404 `notFound` otherwise): the
   * post's row lock, the like row with the reader's count (one statement), the post's like_count
   * (a step of 0 changes nothing: liking a liked post, 404 for unliking one not liked). A change
   * records `post.liked` or `post.unliked`; after the commit and before the answer, the likes'
   * cache subscriber (like-cache.subscriber.ts) tells every cache, so the liker's next read shows
   * the new count.
   */
  private async write(user: AuthUser, postId: number, change: LikeChange, notFound: string): Promise<LikeOutcome> {
    return this.events.transaction(async ({ manager, record }): Promise<LikeOutcome> => {
      const post = await this.repository.lockPublishedPost(manager, postId);
      if (!post) throw new NotFoundException(notFound);
      const step = await this.repository.change(manager, user.id, postId, change);
      if (step === 0) {
        if (change === 'unlike') throw new NotFoundException(LikesMessages.NOT_LIKED);
        return { state: { postId, liked: true, likeCount: post.like_count }, changed: false };
      }
      const { likeCount } = await this.posts.adjustCounters(manager, postId, { likes: step });
      await record({
        name: step > 0 ? 'post.liked' : 'post.unliked',
        actor: { id: user.id, name: user.fullName },
        data: { postId, slug: post.slug, likeCount },
      });
      return { state: { postId, liked: step > 0, likeCount }, changed: true };
    });
  }
}
