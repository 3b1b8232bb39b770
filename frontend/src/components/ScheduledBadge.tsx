import { formatViDateTime } from '../lib/dates';
/**
 * 'Scheduled for 15:04 26/11/2026 GMT+7': an approved post waiting for its publish time, beside its status wherever a post's status shows (/admin/posts, /author/posts, the
 * editor's header). The time is the site zone's, named (lib/dates.ts), the same on the server
 * and after hydration. Plain React, no state: Astro pages render it to HTML with no script.
 */

export const scheduledForText = (iso: string): string => `Scheduled for ${formatViDateTime(iso)}`;

export default function ScheduledBadge({ scheduledAt }: { scheduledAt: string | null | undefined }) {
  if (!scheduledAt) return null;
  return (
    <span
      className="inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-sky-100 px-2 py-0.5 text-xs font-semibold text-sky-900 dark:bg-sky-900/60 dark:text-sky-100"
      data-testid="scheduled-badge"
    >
      <svg className="h-3.5 w-3.5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <circle cx="12" cy="12" r="9" />
        <path d="M12 7v5l3 2" />
      </svg>
      <time dateTime={scheduledAt} suppressHydrationWarning>
        {scheduledForText(scheduledAt)}
      </time>
    </span>
  );
}
