/** Texts of the analytics API (docs/analytics.md). */
export const AnalyticsMessages = {
  AUTH_REQUIRED: 'Authentication required. Please log in to see statistics.',
  FORBIDDEN: 'You do not have permission to see statistics.',
  FORBIDDEN_SITE: 'You do not have permission to see the site statistics.',
  FORBIDDEN_POST: 'You can only see the statistics of your own posts.',
  DAYS_INVALID: 'days must be a whole number from 1 to 365',
  postNotFound: (id: number) => `Post with id ${id} not found`,
  authorNotFound: (id: number) => `Author with id ${id} not found`,
} as const;
