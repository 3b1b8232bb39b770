/**
 * The named date formats, the one list of how a date reads on the pages and in the e-mails
 * (docs/architecture.md, 'Dates'): always in a given zone (the site's, SITE_TIME_ZONE), and every
 * time of day names that zone ('3:04 PM GMT+7'), so a reader elsewhere never sees a time that
 * looks hours off. ICU's narrow and no-break spaces become plain spaces, so Node's and the
 * browser's ICU versions print the same string.
 */

export interface DateFormat {
  locale: 'en-US' | 'vi-VN';
  options: Intl.DateTimeFormatOptions;
  /** A zone that overrides the site's ('UTC': a day as the server counted it). */
  fixedZone?: string;
}

export const DATE_FORMATS = {
  /** 'Nov 22, 2026': the English lists and the admin screens (docs/requirements.md#dates). */
  shortDate: { locale: 'en-US', options: { year: 'numeric', month: 'short', day: 'numeric' } },
  /** 'Nov 22, 2026, 3:04 PM GMT+7': admin times, mutes, preview links, the e-mails. */
  shortDateTime: { locale: 'en-US', options: { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' } },
  /** 'January 5, 2026': account dates, role badges. */
  longDate: { locale: 'en-US', options: { year: 'numeric', month: 'long', day: 'numeric' } },
  /** 'January 5, 2026 at 3:04 PM GMT+7': the editor, reviews, notifications. */
  longDateTime: { locale: 'en-US', options: { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' } },
  /** '3:04 PM GMT+7': the editor's 'Saved at'. */
  time: { locale: 'en-US', options: { hour: 'numeric', minute: '2-digit' } },
  /** 'Nov 22' of a day the server counted in UTC (the activity series). */
  utcDay: { locale: 'en-US', options: { month: 'short', day: 'numeric' }, fixedZone: 'UTC' },
  /** '22/11/2026': public post cards, the reader dashboard. */
  viDate: { locale: 'vi-VN', options: { day: '2-digit', month: '2-digit', year: 'numeric' } },
  /** '15:04 22/11/2026 GMT+7': comments, schedules. */
  viDateTime: { locale: 'vi-VN', options: { hour: '2-digit', minute: '2-digit', day: '2-digit', month: '2-digit', year: 'numeric' } },
  /** '22 tháng 11, 2026': the post page. */
  viLongDate: { locale: 'vi-VN', options: { day: 'numeric', month: 'long', year: 'numeric' } },
} as const satisfies Record<string, DateFormat>;

export type DateFormatName = keyof typeof DATE_FORMATS;

/** One Intl formatter per format and zone, built on first use (the zone is known only then). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(locale: string, options: Intl.DateTimeFormatOptions, zone: string, key: string): Intl.DateTimeFormat {
  let formatter = formatters.get(key);
  if (!formatter) formatters.set(key, (formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone })));
  return formatter;
}

/** The zone's name at that instant: 'GMT+7'. */
export function zoneName(date: Date, zone: string): string {
  const formatter = formatterFor('en-US', { timeZoneName: 'shortOffset' }, zone, `zone|${zone}`);
  return formatter.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? zone;
}

/** An instant in one of the named formats, in `zone` (a format's own fixed zone wins); a time of day names the zone. */
export function formatInZone(name: DateFormatName, date: Date, zone: string): string {
  const format: DateFormat = DATE_FORMATS[name];
  const shownZone = format.fixedZone ?? zone;
  const text = formatterFor(format.locale, format.options, shownZone, `${name}|${shownZone}`)
    .format(date)
    .replace(/[\u00a0\u202f]/g, ' ');
  const withTime = format.options.hour !== undefined || format.options.minute !== undefined;
  return withTime ? `${text} ${zoneName(date, shownZone)}` : text;
}
