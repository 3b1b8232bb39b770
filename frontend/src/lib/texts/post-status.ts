import type { PostStatus } from '../api/schema';

/** Post statuses as the lists, filters and badges name them (the API's statuses are uppercase), in the API's order. */
export const POST_STATUS_LABELS: Record<PostStatus, string> = {
  DRAFT: 'Draft',
  PENDING_REVIEW: 'Pending Review',
  PUBLISHED: 'Published',
  REJECTED: 'Rejected',
  ARCHIVED: 'Archived',
  PRIVATE: 'Private',
};

export const POST_STATUSES = Object.keys(POST_STATUS_LABELS) as PostStatus[];
