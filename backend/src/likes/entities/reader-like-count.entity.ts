import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';

/**
 * How many PUBLISHED posts a reader likes (the reader dashboard's totalLikes and totalPostsLiked,
 * the my-likes total), kept by the writes that change it instead of counted at every read: a like or unlike (LikesService, in the like's transaction) and a liked post entering or
 * leaving PUBLISHED or deleted while published (ReaderLikeCountsSubscriber, in the post
 * lifecycle's transaction). Both hold the post's row lock, so the count always equals
 * `likes JOIN posts WHERE status = 'PUBLISHED'` for the reader. No row: 0.
 */
@Entity('reader_like_counts')
@Check('CHK_reader_like_counts_published_likes', '"published_likes" >= 0')
export class ReaderLikeCount {
  @PrimaryColumn({ name: 'user_id', type: 'int', primaryKeyConstraintName: 'PK_reader_like_counts' })
  userId: number;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_reader_like_counts_user' })
  user: User;

  @Column({ name: 'published_likes', type: 'int', default: 0 })
  publishedLikes: number;
}
