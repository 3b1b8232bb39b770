import { formatInZone } from '../../../isomorphic/date-formats';

/** A time as every page shows it (isomorphic/date-formats.ts 'shortDateTime'): in the site's zone, named ('Nov 22, 2026, 3:04 PM GMT+7'). */
export function siteTimeFormatter(timeZone: string): (date: Date) => string {
  return (date) => formatInZone('shortDateTime', date, timeZone);
}
