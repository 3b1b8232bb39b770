/**
 * The Stats pages (/author/stats, /admin/stats) and the editor's line: their reads through the
 * visitor's session (docs/analytics.md), the ranges they offer and each table's CSV.
 */
import type { ApiClient } from '../../lib/api/client';
import type { DataOf } from '../../lib/api/schema';
import { load } from '../../lib/settle';

export type Stats = DataOf<'/api/v1/analytics/me'>;
export type StatsDay = Stats['series'][number];

/** The ranges the pages offer, in days (the API takes 1–365). */
export const STATS_RANGES = [7, 30, 90] as const;
export const DEFAULT_RANGE = 30;

/** `?days=` as one of the offered ranges (anything else: 30). */
export function rangeOf(url: URL): number {
  const days = Number(url.searchParams.get('days'));
  return (STATS_RANGES as readonly number[]).includes(days) ? days : DEFAULT_RANGE;
}

/** A positive whole-number id from a query parameter, else undefined. */
export function idParam(url: URL, name: string): number | undefined {
  const value = url.searchParams.get(name);
  return value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : undefined;
}

export const statsApi = (api: ApiClient) => ({
  mine: (days: number) => load(api.GET('/api/v1/analytics/me', { params: { query: { days } } })),
  post: (id: number, days: number) => load(api.GET('/api/v1/analytics/posts/{id}', { params: { path: { id }, query: { days } } })),
  site: (days: number) => load(api.GET('/api/v1/admin/analytics', { params: { query: { days } } })),
  author: (id: number, days: number) =>
    load(api.GET('/api/v1/admin/analytics/authors/{id}', { params: { path: { id }, query: { days } } })),
});

/** One field of a CSV row (RFC 4180: quoted when it holds a comma, quote or line break; a leading =+-@ is neutralised for spreadsheets). */
function csvField(value: string | number | boolean): string {
  let text = String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A table as a CSV file's `data:` address (a download link that works without JavaScript). */
export function csvHref(header: string[], rows: (string | number | boolean)[][]): string {
  const text = [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n');
  return `data:text/csv;charset=utf-8,${encodeURIComponent(`${text}\r\n`)}`;
}

/** A file name for a table's CSV: `inkwell-stats-<what>-<days>d.csv`. */
export const csvName = (what: string, days: number): string => `inkwell-stats-${what}-${days}d.csv`;
