/** Texts of post reviews (docs/requirements.md#validation-review, docs/requirements.md#errors-posts), verbatim where the spec gives them. */
export const ReviewsMessages = {
  DECISION_REQUIRED: 'Please select a review decision.',
  REASON_REQUIRED: 'Please provide a rejection reason.',
  NOTE_TOO_LONG: 'Review notes must be at most 2000 characters',
  FORBIDDEN_REVIEW: 'You do not have permission to review posts.',
  FORBIDDEN_HISTORY: 'You do not have permission to view review history.',
  APPROVED: 'Post approved and published.',
  REJECTED: 'Post rejected.',
} as const;
