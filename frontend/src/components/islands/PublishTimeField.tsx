/**
 * A time to publish at: a datetime-local input read as a wall time in the site
 * zone, whatever zone the browser is in, with the zone's name beside it ('GMT+7'), sent to the API
 * as UTC ISO. Used by the reviewer's 'Publish at' and the author's requested time. The API checks
 * the range (a future time, at most a year ahead); its field error is passed in as `error`.
 */
import type { ReactNode } from 'react';
import { siteWallTimeToDate, siteWallTimeValue, siteZoneName } from '../../lib/dates';

const INPUT =
  'block w-full max-w-[16rem] rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-950 dark:[color-scheme:dark]';
const INPUT_ERROR = 'border-red-500 dark:border-red-500';

export const PUBLISH_TIME_INVALID = 'Please enter a date and a time.';

/** The input's value for an ISO time, in the site zone; '' for none. */
export function publishTimeValue(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : siteWallTimeValue(date);
}

/** The input's value as the API wants it: nothing when empty, the UTC ISO time, or an error text. */
export function publishTimeFrom(value: string): { iso?: string; error?: string } {
  if (!value.trim()) return {};
  const date = siteWallTimeToDate(value.trim());
  return date ? { iso: date.toISOString() } : { error: PUBLISH_TIME_INVALID };
}

export default function PublishTimeField({
  id,
  label,
  optionalLabel = '(optional)',
  value,
  onChange,
  error,
  note,
  hint,
  required = false,
  autoFocus = false,
}: {
  id: string;
  label: string;
  optionalLabel?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** A line under the field (the author's requested time). */
  note?: ReactNode;
  /** What an empty field means, for an optional one. */
  hint?: string;
  required?: boolean;
  autoFocus?: boolean;
}) {
  const zone = siteZoneName((value && siteWallTimeToDate(value)) || new Date());
  const described = [`${id}-zone`, note ? `${id}-note` : '', hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label} {!required && <span className="font-normal text-slate-600 dark:text-slate-400">{optionalLabel}</span>}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={id}
          type="datetime-local"
          value={value}
          required={required}
          data-autofocus={autoFocus || undefined}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className={`${INPUT} ${error ? INPUT_ERROR : ''}`}
        />
        <span id={`${id}-zone`} className="text-sm text-slate-700 dark:text-slate-300" data-testid="publish-time-zone">
          {zone}
        </span>
      </div>
      {note && (
        <p id={`${id}-note`} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {note}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
