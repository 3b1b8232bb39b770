/**
 * The one rule for dates on every page (docs/architecture.md, 'Dates'): every date and time is
 * shown in the site's time zone, on the server and in the browser alike, whatever zone either
 * runs in, and every time of day names that zone ('3:04 PM GMT+7'). A page rendered on the server
 * and the same island after hydration show the same text; a reader elsewhere sees which zone the
 * time is in instead of a time that looks hours off.
 */

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

/** One Intl formatter per zone and options, built on first use (the zone is known only then). */
function zoned(locale: string, options: Intl.DateTimeFormatOptions): (zone: string) => Intl.DateTimeFormat {
  const byZone = new Map<string, Intl.DateTimeFormat>();
  return (zone) => {
    let formatter = byZone.get(zone);
    if (!formatter) byZone.set(zone, (formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone })));
    return formatter;
  };
}

const zoneNameFormat = zoned('en-US', { timeZoneName: 'shortOffset' });

/** The site zone's name at that instant: 'GMT+7'. */
export function siteZoneName(date: Date): string {
  const zone = siteTimeZone();
  return zoneNameFormat(zone).formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? zone;
}

export interface SiteDateFormat {
  format(date: Date): string;
}

/**
 * An Intl.DateTimeFormat in the site zone. With a time of day the zone's name follows the text
 * ('Nov 22, 2026, 3:04 PM GMT+7'); ICU's narrow and no-break spaces become plain spaces, so
 * Node's and the browser's ICU versions print the same string.
 */
export function siteDateFormat(locale: string, options: Intl.DateTimeFormatOptions): SiteDateFormat {
  const formatter = zoned(locale, options);
  const withTime = options.hour !== undefined || options.minute !== undefined;
  return {
    format(date: Date): string {
      const text = formatter(siteTimeZone()).format(date).replace(/[\u00a0\u202f]/g, ' ');
      return withTime ? `${text} ${siteZoneName(date)}` : text;
    },
  };
}

const wallClockFormat = zoned('en-US', { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' });

/** How far the site zone's wall clock is ahead of UTC at that instant, in milliseconds. */
function siteZoneOffset(date: Date): number {
  const parts = Object.fromEntries(wallClockFormat(siteTimeZone()).formatToParts(date).map((part) => [part.type, part.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
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
