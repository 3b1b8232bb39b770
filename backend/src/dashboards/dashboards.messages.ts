/** Texts of the dashboards (docs/requirements.md#errors-dashboards), verbatim where the spec gives them. */
export const DashboardsMessages = {
  AUTH_REQUIRED: 'Authentication required. Please log in to access dashboard.',
  FORBIDDEN: 'You do not have permission to access dashboard.',
  ADMIN_AUTH_REQUIRED: 'Authentication required. Please log in to access admin dashboard.',
  FORBIDDEN_ADMIN: 'You do not have permission to access admin dashboard.',
  DAYS_INVALID: 'days must be a whole number from 1 to 365',

  /** The author dashboard's activity entries (the spec names no texts): a heading and one line. */
  activity: {
    POST_CREATED: { title: 'Post created', description: (post: string) => `You created "${post}".` },
    POST_SUBMITTED: { title: 'Submitted for review', description: (post: string) => `"${post}" is waiting for review.` },
    /** A submitted post approved with a publish time. */
    POST_SCHEDULED: {
      title: 'Post scheduled',
      description: (post: string, time: string) => `"${post}" was approved and is scheduled for ${time}.`,
    },
    POST_PUBLISHED: { title: 'Post published', description: (post: string) => `"${post}" was published.` },
    POST_REJECTED: {
      title: 'Post rejected',
      description: (post: string, reason: string | null) => (reason ? `"${post}" was rejected: ${reason}` : `"${post}" was rejected.`),
    },
  },
} as const;
