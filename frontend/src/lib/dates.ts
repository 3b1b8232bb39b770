/**
 * The one rule for dates on every page (docs/architecture.md, 'Dates'): every date and time is
 * shown in the site's time zone, on the server and in the browser alike, whatever zone either
 * runs in, and every time of day names that zone ('3:04 PM GMT+7'). A page rendered on the server
 * and the same island after hydration show the same text; a reader elsewhere sees which zone the
 * time is in instead of a time that looks hours off. The formats themselves are named in
 * isomorphic/date-formats.ts, which the server's e-mails and audit texts use too.
 */
import { formatInZone, zoneName, type DateFormatName } from '../../../isomorphic/date-formats';
import { countNoun, Nouns } from './texts/nouns';
import type { Noun } from '../../../isomorphic/plural';

/** The site's time zone unless SITE_TIME_ZONE says otherwise: Vietnam's (the spec's readers), no daylight saving. */
export const DEFAULT_SITE_TIME_ZONE = 'Asia/Ho_Chi_Minh';

let serverTimeZone: string | undefined;

/**
 * The server tells the zone once per request (frontend/src/middleware.ts, from SITE_TIME_ZONE);
 * BaseLayout writes it on `<html data-time-zone>`, where the browser's islands read it, so both
 * sides format in the same zone.
 */
export function setSiteTimeZone(zone: string): void {
  serverTimeZone = zone;
}

/** The zone dates are shown in, here: the page's `data-time-zone` in a browser, the server's setting otherwise. */
export function siteTimeZone(): string {
  if (typeof document !== 'undefined') return document.documentElement.dataset.timeZone || DEFAULT_SITE_TIME_ZONE;
  return serverTimeZone ?? DEFAULT_SITE_TIME_ZONE;
}

/** The site zone's name at that instant: 'GMT+7'. */
export function siteZoneName(date: Date): string {
  return zoneName(date, siteTimeZone());
}

type DateInput = string | Date | null | undefined;

function toDate(value: DateInput): Date | undefined {
  if (!value) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A date in one of the named formats (isomorphic/date-formats.ts), in the site zone; '' when missing or invalid. */
export function formatSiteDate(name: DateFormatName, value: DateInput): string {
  const date = toDate(value);
  return date ? formatInZone(name, date, siteTimeZone()) : '';
}

/** 'January 5, 2026'. */
export const formatDate = (value: DateInput): string => formatSiteDate('longDate', value);
/** 'January 5, 2026 at 3:04 PM GMT+7'. */
export const formatDateTime = (value: DateInput): string => formatSiteDate('longDateTime', value);
/** 'Nov 22, 2026'. */
export const formatShortDate = (value: DateInput): string => formatSiteDate('shortDate', value);
/** 'Nov 22, 2026, 3:04 PM GMT+7'. */
export const formatShortDateTime = (value: DateInput): string => formatSiteDate('shortDateTime', value);
/** '3:04 PM GMT+7'. */
export const formatTime = (value: DateInput): string => formatSiteDate('time', value);
/** '22/11/2026'. */
export const formatViDate = (value: DateInput): string => formatSiteDate('viDate', value);
/** '15:04 22/11/2026 GMT+7'. */
export const formatViDateTime = (value: DateInput): string => formatSiteDate('viDateTime', value);
/** '22 tháng 11, 2026'. */
export const formatViLongDate = (value: DateInput): string => formatSiteDate('viLongDate', value);

/** A 'YYYY-MM-DD' day the server counted in UTC as 'Nov 22'; the day as given when it is no date. */
export const formatUtcDay = (day: string): string => formatSiteDate('utcDay', `${day}T00:00:00Z`) || day;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Relative time (docs/requirements.md#relative-time): 'Just now' under 1 minute, then minutes, hours under
 * 24, days under 7, else the date in the `older` format; 'Unknown' when there is no valid time.
 */
export function relativeTime(value: DateInput, older: DateFormatName, now = Date.now()): string {
  const date = toDate(value);
  if (!date) return 'Unknown';
  const elapsed = Math.max(0, now - date.getTime());
  if (elapsed < MINUTE_MS) return 'Just now';
  const ago = (count: number, noun: Noun) => `${countNoun(count, noun)} ago`;
  if (elapsed < HOUR_MS) return ago(Math.floor(elapsed / MINUTE_MS), Nouns.MINUTE);
  if (elapsed < DAY_MS) return ago(Math.floor(elapsed / HOUR_MS), Nouns.HOUR);
  if (elapsed < 7 * DAY_MS) return ago(Math.floor(elapsed / DAY_MS), Nouns.DAY);
  return formatSiteDate(older, date);
}

/** ISO string for <time datetime>, or undefined. */
export function isoDate(value: DateInput): string | undefined {
  return toDate(value)?.toISOString();
}

/** The wall clock's own formatter per zone (reading a time, not showing one). */
function zoned(locale: string, options: Intl.DateTimeFormatOptions): (zone: string) => Intl.DateTimeFormat {
  const byZone = new Map<string, Intl.DateTimeFormat>();
  return (zone) => {
    let formatter = byZone.get(zone);
    if (!formatter) byZone.set(zone, (formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone })));
    return formatter;
  };
}

const wallClockFormat = zoned('en-US', {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});

/** How far the site zone's wall clock is ahead of UTC at that instant, in milliseconds. */
function siteZoneOffset(date: Date): number {
  const parts = Object.fromEntries(
    wallClockFormat(siteTimeZone())
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(date.getTime() / 1000) * 1000;
}

/** The instant the site zone's wall clock reads `wall` (a UTC-based millisecond count of that wall time). */
function fromSiteWallClock(wall: number): Date {
  // The offset at the guess, then at the result (a daylight-saving change that day moves it).
  const first = wall - siteZoneOffset(new Date(wall));
  return new Date(wall - siteZoneOffset(new Date(first)));
}

/** The last second of a calendar day ('2026-12-01', as a date input gives it) in the site zone, or undefined for anything else. */
export function siteDayEnd(day: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const wall = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59);
  const written = new Date(wall);
  if (written.getUTCMonth() !== Number(match[2]) - 1 || written.getUTCDate() !== Number(match[3])) return undefined;
  return fromSiteWallClock(wall);
}

/**
 * A datetime-local input's value ('2026-11-26T15:04', seconds optional) read as a wall time in
 * the site zone, whatever zone the browser is in; undefined for anything else.
 */
export function siteWallTimeToDate(value: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const written = new Date(wall);
  if (written.getUTCMonth() !== month - 1 || written.getUTCDate() !== day) return undefined;
  return fromSiteWallClock(wall);
}

/** An instant as a datetime-local input's value in the site zone ('2026-11-26T15:04'). */
export function siteWallTimeValue(date: Date): string {
  const wall = new Date(Math.floor(date.getTime() / 60_000) * 60_000 + siteZoneOffset(date));
  return wall.toISOString().slice(0, 16);
}
