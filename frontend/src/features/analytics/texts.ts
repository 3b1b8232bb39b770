/** Texts of the Stats pages (docs/analytics.md). */
import { formatCount } from '../../lib/format';

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

export const StatsTexts = {
  AUTHOR_TITLE: 'Stats',
  ADMIN_TITLE: 'Site stats',
  SUBTITLE: 'Views counted on the server, without cookies. Days are UTC days.',
  RANGE_LABEL: 'Range',
  range: (days: number) => `${days} days`,
  LOAD_FAILED: 'Failed to load statistics',
  VIEWS: 'Views',
  VISITORS: 'Visitors',
  DAY: 'Day',
  POST: 'Post',
  AUTHOR: 'Author',
  SOURCE: 'Source',
  HOST: 'From',
  DEVICE: 'Device',
  TOP_POSTS: 'Top posts',
  TOP_AUTHORS: 'Top authors',
  SOURCES: 'Top sources',
  DEVICES: 'Devices',
  NO_VIEWS: 'No views in this range yet.',
  DOWNLOAD_CSV: 'Download CSV',
  SHOW_TABLE: 'Show as table',
  HIDE_TABLE: 'Hide table',
  BACK_TO_ALL: 'All posts',
  BACK_TO_SITE: 'Whole site',
  UNPUBLISHED: '(not published)',
  NONE: '—',
  chartLabel: (days: number) => `Line chart of views and visitors per day over the last ${days} days. The same figures are in the table.`,
  caption: (days: number) => `Views and visitors per day, last ${days} days`,
  totals: (days: number, views: number, visitors: number) =>
    `Last ${days} days: ${plural(views, 'view', 'views')}, ${plural(visitors, 'visitor', 'visitors')}.`,
  postTitle: (title: string) => `Stats: ${title}`,
  authorTitle: (name: string) => `Stats: ${name}`,
  /** The editor's line. */
  editorLine: (views: number, visitors: number) =>
    `Last 30 days: ${plural(views, 'view', 'views')}, ${plural(visitors, 'visitor', 'visitors')}`,
  EDITOR_STATS: 'Stats',
  VISITORS_NOTE: "Visitors are counted per day (a reader is known for one day only): a range's visitors are its days' visitors added up.",
} as const;

export const SOURCE_LABELS: Record<string, string> = {
  direct: 'Direct',
  search: 'Search engines',
  social: 'Social sites',
  fediverse: 'Fediverse',
  newsletter: 'Newsletter',
  internal: 'This site',
  other: 'Other sites',
};

export const DEVICE_LABELS: Record<string, string> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' };
