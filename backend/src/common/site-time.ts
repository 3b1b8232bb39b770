/**
 * A time as every page shows it (frontend/src/lib/dates.ts): in the site's zone, the zone's name
 * after it ('Nov 22, 2026, 3:04 PM GMT+7'); ICU's narrow and no-break spaces become plain spaces.
 */
export function siteTimeFormatter(timeZone: string): (date: Date) => string {
  const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const zoneFormat = new Intl.DateTimeFormat('en-US', { timeZoneName: 'shortOffset', timeZone });
  return (date) => {
    const zone = zoneFormat.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
    return `${dateFormat.format(date).replace(/[\u202f\u00a0]/g, ' ')} ${zone}`;
  };
}
