import { PostReviewResponseDto } from './dto/review-response.dto';
import { PostReview } from './entities/post-review.entity';

/** adminNotes are internal: only admins get them. */
export function toReviewResponse(review: PostReview, forAdmin: boolean): PostReviewResponseDto {
  return {
    id: review.id,
    postId: review.postId,
    reviewerId: review.reviewerId,
    reviewerName: review.reviewer?.fullName ?? null,
    status: review.status,
    reviewNote: review.reviewNote,
    adminNotes: forAdmin ? review.adminNotes : null,
    rejectionReason: review.rejectionReason,
    priority: review.priority,
    createdAt: review.createdAt.toISOString(),
    updatedAt: review.updatedAt.toISOString(),
  };
}
