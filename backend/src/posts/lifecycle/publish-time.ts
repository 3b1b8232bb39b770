import { BadRequestException } from '@nestjs/common';
import { LifecycleMessages } from './lifecycle.messages';

/** ISO 8601 date and time with a zone (Z or ±hh:mm): a time without one would be read in the server's zone, not the admin's. */
const ISO_WITH_ZONE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/i;

/** How the API documents a publish time field. */
export const PUBLISH_TIME_DESCRIPTION = 'ISO 8601 with a zone (Z or ±hh:mm), at least 1 minute in the future and at most 1 year ahead';

/** A publish time is at least this far ahead, so that it is still in the future when the sweep reads it. */
export const MIN_LEAD_MS = 60_000;

/** One year after `now` (the same day and time of the next year; 29 February goes to 1 March). */
export function latestPublishTime(now: Date): Date {
  const latest = new Date(now.getTime());
  latest.setUTCFullYear(latest.getUTCFullYear() + 1);
  return latest;
}

function fieldError(field: string, message: string): BadRequestException {
  return new BadRequestException({ message, errors: { [field]: [message] } });
}

/** The date the text names, or undefined when it is not an ISO 8601 time with a zone or names no real day (30 February). */
export function parseZonedTime(text: string): Date | undefined {
  const match = ISO_WITH_ZONE.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second, zoneHour, zoneMinute] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const realDay = month >= 1 && month <= 12 && day >= 1 && day === new Date(Date.UTC(year, month - 1, day)).getUTCDate();
  if (!realDay || hour > 23 || minute > 59 || second > 59 || zoneHour > 14 || zoneMinute > 59) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time);
}

/**
 * A publish time as the API receives it: a zoned ISO 8601 text at least a minute after `now` and
 * at most a year after it; otherwise a 400 naming `field`.
 */
export function parsePublishTime(text: string, now: Date, field: string, label: string): Date {
  const time = parseZonedTime(text);
  if (!time) throw fieldError(field, LifecycleMessages.publishTimeInvalid(label));
  if (time.getTime() < now.getTime() + MIN_LEAD_MS) throw fieldError(field, LifecycleMessages.publishTimeTooSoon(label));
  if (time.getTime() > latestPublishTime(now).getTime()) throw fieldError(field, LifecycleMessages.publishTimeTooFar(label));
  return time;
}

export function publishTimeFieldError(field: string, message: string): BadRequestException {
  return fieldError(field, message);
}
