import type { PostStatus } from '../posts/entities/post.entity';

/** Texts of post reviews (spec 001 §5, §8), verbatim where the spec gives them. */
export const ReviewsMessages = {
  DECISION_REQUIRED: 'Please select a review decision.',
  REASON_REQUIRED: 'Please provide a rejection reason.',
  NOTE_TOO_LONG: 'Review notes must be at most 2000 characters',
  FORBIDDEN_REVIEW: 'You do not have permission to review posts.',
  FORBIDDEN_HISTORY: 'You do not have permission to view review history.',
  cannotApprove: (status: PostStatus) => `Cannot approve a post with status ${status}: only PENDING_REVIEW or REJECTED posts can be approved.`,
  cannotReject: (status: PostStatus) => `Cannot reject a post with status ${status}: only PENDING_REVIEW posts can be rejected.`,
  APPROVED: 'Post approved and published.',
  REJECTED: 'Post rejected.',
} as const;
