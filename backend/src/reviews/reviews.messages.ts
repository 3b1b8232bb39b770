/** Texts of post reviews (spec 001 §5, §8), verbatim where the spec gives them. */
export const ReviewsMessages = {
  DECISION_REQUIRED: 'Please select a review decision.',
  REASON_REQUIRED: 'Please provide a rejection reason.',
  NOTE_TOO_LONG: 'Review notes must be at most 2000 characters',
  FORBIDDEN_REVIEW: 'You do not have permission to review posts.',
  FORBIDDEN_HISTORY: 'You do not have permission to view review history.',
  APPROVED: 'Post approved and published.',
  REJECTED: 'Post rejected.',
} as const;
