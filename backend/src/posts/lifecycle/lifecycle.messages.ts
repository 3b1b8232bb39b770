import type { PostStatus } from '../entities/post.entity';

/** Texts of the post lifecycle's refusals and of publish times (docs/requirements.md#validation-post), verbatim as the API has always given them. */
export const LifecycleMessages = {
  illegalTransition: (from: PostStatus, to: PostStatus) =>
    `Cannot change the post status from ${from} to ${to}.` +
    (to === 'PENDING_REVIEW'
      ? ' Authors submit posts for review.'
      : to === 'REJECTED'
        ? ' Reject a post through its review, with a reason.'
        : ''),
  authorCannotEdit: (status: PostStatus) =>
    `This post is ${status} and can no longer be edited by its author. Only DRAFT and REJECTED posts can be edited; ask an administrator for changes.`,
  cannotSubmit: (status: PostStatus) => `Only DRAFT or REJECTED posts can be submitted for review; this post is ${status}.`,
  cannotApprove: (status: PostStatus) =>
    `Cannot approve a post with status ${status}: only PENDING_REVIEW or REJECTED posts can be approved.`,
  cannotReject: (status: PostStatus) => `Cannot reject a post with status ${status}: only PENDING_REVIEW posts can be rejected.`,
  NOT_SCHEDULED: 'This post is not scheduled: only an approved post waiting for its publish time can be rescheduled or cancelled.',
  notPreviewable: (status: string) =>
    `Only DRAFT, PENDING_REVIEW and REJECTED posts can be previewed through a link; this post is ${status}.`,

  publishTimeInvalid: (label: string) => `${label} must be a date and time with its time zone, e.g. 2026-12-01T09:00:00+07:00.`,
  publishTimeTooSoon: (label: string) => `${label} must be at least 1 minute in the future.`,
  publishTimeTooFar: (label: string) => `${label} must be at most 1 year ahead.`,
  PUBLISH_AT_LABEL: 'Publish time',
  REQUESTED_LABEL: 'Requested publish time',
} as const;
