/** Texts of the dashboards (spec 000 §8 'Dashboards and likes'), verbatim. */
export const DashboardsMessages = {
  AUTH_REQUIRED: 'Authentication required. Please log in to access dashboard.',
  FORBIDDEN: 'You do not have permission to access dashboard.',
} as const;
