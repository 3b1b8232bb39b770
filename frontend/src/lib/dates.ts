/**
 * The one rule for dates on every page (docs/architecture.md, 'Dates'): every date and time is
 * shown in the site's time zone, on the server and in the browser alike, whatever zone either
 * runs in, and every time of day names that zone ('3:04 PM GMT+7'). A page rendered on the server
 * and the same island after hydration show the same text; a reader elsewhere sees which zone the
 * time is in instead of a time that looks hours off.
 */

/** The site's time zone: Vietnam's (the spec's public dates are Vietnamese), no daylight saving. */
export const SITE_TIME_ZONE = 'Asia/Ho_Chi_Minh';

const ZONE_NAME = new Intl.DateTimeFormat('en-US', { timeZone: SITE_TIME_ZONE, timeZoneName: 'shortOffset' });

/** The site zone's name at that instant: 'GMT+7'. */
export function siteZoneName(date: Date): string {
  return ZONE_NAME.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? SITE_TIME_ZONE;
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
  const formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone: SITE_TIME_ZONE });
  const withTime = options.hour !== undefined || options.minute !== undefined;
  return {
    format(date: Date): string {
      const text = formatter.format(date).replace(/[\u00a0\u202f]/g, ' ');
      return withTime ? `${text} ${siteZoneName(date)}` : text;
    },
  };
}
