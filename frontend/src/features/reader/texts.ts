/**
 * Texts of the reader's own pages (docs/requirements.md#screen-reader-dashboard, docs/requirements.md#errors-dashboards): the reader dashboard (/dashboard,
 * /user-dashboard), liked posts, my comments and the signed-in home widgets. Verbatim where the
 * spec gives them; the dashboard's Vietnamese labels the spec only describes ("labels are in
 * Vietnamese") are written in the tone of the spec's other Vietnamese texts.
 */
import { countNoun, Nouns } from '../../lib/texts/nouns';
import { errorText, type ErrorTexts } from '../../lib/texts/error-text';

export const DashboardTexts = {
  LOAD_FAILED: 'Unable to load dashboard data. Please try again later.',
  RECENT_LIKES_FAILED: 'Failed to fetch recent likes',
  RECENT_COMMENTS_FAILED: 'Failed to fetch recent comments',
  AUTH_FAILED: 'Authentication failed. Please log in again.',
  FORBIDDEN_RESOURCE: 'You do not have permission to access this resource.',
  welcome: 'Welcome back,',
} as const;

/** The reader dashboard's Vietnamese labels (docs/requirements.md#screen-reader-dashboard: "Labels are in Vietnamese"). */
export const DashboardLabels = {
  SUBTITLE: 'Tổng quan hoạt động của bạn trên Inkwell',
  TOTAL_LIKES: 'Tổng lượt thích',
  TOTAL_COMMENTS: 'Tổng bình luận',
  POSTS_LIKED: 'Bài viết đã thích',
  RECENT_COUNT: 'Hoạt động gần đây',
  SHORTCUTS: 'Truy cập nhanh',
  SHORTCUT_LIKED: 'Bài viết yêu thích',
  SHORTCUT_BLOG: 'Khám phá bài viết',
  SHORTCUT_ACCOUNT: 'Tài khoản của tôi',
  SHORTCUT_DASHBOARD: 'Bảng điều khiển',
  ACTIVITY: 'Hoạt động gần đây',
  ACTIVITY_PERIOD: '7 ngày qua',
  ACTIVITY_EMPTY: 'Chưa có hoạt động nào trong 7 ngày qua.',
  ACTIVITY_LIKE: 'Đã thích',
  ACTIVITY_COMMENT: 'Đã bình luận',
  MEMBER: 'Thông tin thành viên',
  MEMBER_SINCE: 'Thành viên từ',
  DISPLAY_NAME: 'Tên hiển thị',
  POSTS_COMMENTED: 'Bài viết đã bình luận',
  LIKES_PER_WEEK: 'Lượt thích trung bình mỗi tuần',
  COMMENTS_PER_WEEK: 'Bình luận trung bình mỗi tuần',
  PLATFORM: 'Thống kê Inkwell',
  PLATFORM_USERS: 'Thành viên',
  PLATFORM_POSTS: 'Bài viết',
  PLATFORM_COMMENTS: 'Bình luận',
  PLATFORM_LIKES: 'Lượt thích',
  today: (count: number) => `+${count} hôm nay`,
} as const;

export const LikedPostsTexts = {
  TITLE: 'Liked Posts',
  LOAD_FAILED: 'Failed to fetch liked posts',
  EMPTY: 'No favorite posts yet',
  EMPTY_MESSAGE: 'Posts you like appear here.',
  EXPLORE: 'Explore posts',
  WIDGET: 'Favorite Posts',
  READING_MINUTES: 5,
} as const;

export const MyCommentsTexts = {
  TITLE: 'My Comments List',
  WIDGET: 'My Comments',
  LOAD_FAILED: 'Failed to fetch comments',
  LOADING_MORE: 'Loading more...',
  LOAD_MORE: 'Load More Comments',
  EMPTY: 'No comments yet',
  EMPTY_MESSAGE: "You haven't posted any comments on articles yet.",
  BROWSE: 'Browse Articles',
  REPLY_MARKER: '↳ Reply to comment',
  VIEW_IN_ARTICLE: 'View in article',
  count: (count: number) => countNoun(count, Nouns.COMMENT),
  moreLoaded: (count: number) => `${countNoun(count, Nouns.MORE_COMMENT)} loaded`,
} as const;

export const HomeReaderTexts = {
  RECENT_LIKES: 'Recently Liked',
  RECENT_LIKES_EMPTY: 'No liked posts yet',
  RECENT_COMMENTS: 'Recent Comments',
  RECENT_COMMENTS_EMPTY: 'No comments yet',
  EXPLORE: 'Explore posts',
  REPLY_BADGE: 'Reply',
  replies: (count: number) => countNoun(count, Nouns.REPLY),
} as const;

/**
 * A failed read of the reader's data as the spec's catalogue words it (docs/requirements.md#texts): no answer keeps
 * the network text, 401 and 403 have their own texts, anything else the server's message (else
 * the read's default).
 */
export const readerErrors = (readFailed: string): ErrorTexts => ({
  fallback: readFailed,
  status: { 401: DashboardTexts.AUTH_FAILED, 403: DashboardTexts.FORBIDDEN_RESOURCE },
});

/** The same as a function, for the reader's pages and components. */
export const readerErrorMessage = (error: unknown, readFailed: string): string => errorText(error, readerErrors(readFailed));
