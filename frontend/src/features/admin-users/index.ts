// admin-users' public surface: what the dashboard and the comments manager share with it (features import one another only through an index.ts).
export {
  activityDay,
  type ActivityDay,
  type AdminActivity,
  adminDateTime,
  adminRelativeTime,
  type AdminStats,
  percentOf,
  type RecentActivity,
} from './admin-users';
