/**
 * Muting a user: an admin stops a user commenting for a period (1, 7 or 30 days, or
 * until a chosen date, its end in the site's time zone) or for good, with a reason the user is
 * shown; and lifts it. POST /admin/users/{id}/mute {until | null, reason}, DELETE to unmute.
 */
import { useId, useState, type FormEvent } from 'react';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { siteDayEnd } from '../../lib/dates';
import { errorText } from '../../lib/texts/error-text';
import { charCount, trimInvisible } from '../../../../isomorphic/text';
import { Dialog, ConfirmDialog } from '../../components/islands/Dialog';
import { Alert, DialogActions, FieldFrame, TextAreaField } from '../../components/islands/form-controls';
import { adminDateTime, type AdminUser } from './admin-users';
import { actionErrors, MuteTexts as T } from './texts';
import { useSubmit } from '../../components/islands/use-submit';

const DAY_MS = 24 * 60 * 60 * 1000;
const PERIODS = [
  { value: '1', label: '1 day' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: 'date', label: 'Until a date' },
  { value: 'forever', label: 'For good' },
] as const;
type Period = (typeof PERIODS)[number]['value'];
export const MUTE_REASON_MAX = 500;

const FIELD = 'block w-full rounded-lg border bg-white px-3 py-2 text-sm shadow-sm focus:outline-none focus:ring-2 dark:bg-slate-950';
const fieldClass = (invalid: boolean) =>
  `${FIELD} ${invalid ? 'border-red-500 focus:ring-red-500/30' : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30 dark:border-slate-700'}`;

/** The mute's end for a choice: an ISO instant, null for good, or the problem with the chosen date. */
export function muteUntil(period: Period, day: string, now = Date.now()): { until: string | null } | { problem: string } {
  if (period === 'forever') return { until: null };
  if (period !== 'date') return { until: new Date(now + Number(period) * DAY_MS).toISOString() };
  const end = siteDayEnd(day);
  if (!end) return { problem: T.DATE_REQUIRED };
  if (end.getTime() <= now) return { problem: T.DATE_PAST };
  return { until: end.toISOString() };
}

/** 'until 15:04 22/11/2026 GMT+7' or 'for good', as the details and the list show a mute. */
export function muteEnd(user: Pick<AdminUser, 'mutedUntil' | 'mutedForever'>): string {
  return user.mutedForever ? 'for good' : `until ${adminDateTime(user.mutedUntil)}`;
}

export function AdminUserMuteDialog({ user, onCancel, onDone }: { user: AdminUser; onCancel: () => void; onDone: () => void }) {
  const id = useId();
  const [period, setPeriod] = useState<Period>('7');
  const [day, setDay] = useState('');
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<{ day?: string; reason?: string }>({});
  const { busy, failure, setFailure, run } = useSubmit();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFailure(undefined);
    const end = muteUntil(period, day);
    const text = trimInvisible(reason);
    const found = {
      day: 'problem' in end ? end.problem : undefined,
      reason: !text ? T.REASON_REQUIRED : charCount(text) > MUTE_REASON_MAX ? T.REASON_TOO_LONG : undefined,
    };
    setProblems(found);
    if (found.day || found.reason || 'problem' in end) {
      document.getElementById(found.day ? `${id}-day` : `${id}-reason`)?.focus();
      return;
    }
    await run(
      async () => {
        await unwrap(
          browserApi().POST('/api/v1/admin/users/{id}/mute', {
            params: { path: { id: user.id } },
            body: { until: end.until, reason: text },
          }),
        );
        onDone();
      },
      { keepBusy: true, failure: (caught) => errorText(caught, actionErrors(T.MUTE_FAILED)) },
    );
  }

  return (
    <Dialog
      title="Mute User"
      description={`Stop ${user.fullName} commenting. They see the end and the reason in place of the comment form.`}
      onClose={onCancel}
      busy={busy}
    >
      <form className="space-y-4" onSubmit={submit} noValidate data-testid="mute-dialog">
        {failure && <Alert>{failure}</Alert>}
        <fieldset>
          <legend className="mb-2 text-sm font-medium">For how long</legend>
          <div className="flex flex-wrap gap-2">
            {PERIODS.map((option, index) => (
              <label
                key={option.value}
                className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm has-[:checked]:border-brand-500 dark:border-slate-700"
              >
                <input
                  type="radio"
                  name={`${id}-period`}
                  value={option.value}
                  checked={period === option.value}
                  onChange={() => {
                    setPeriod(option.value);
                    setProblems((current) => ({ ...current, day: undefined }));
                  }}
                  className="h-4 w-4 accent-brand-600"
                  {...(index === 0 ? { 'data-autofocus': true } : {})}
                />
                {option.label}
              </label>
            ))}
          </div>
        </fieldset>
        {period === 'date' && (
          <FieldFrame id={`${id}-day`} label="Last day muted" error={problems.day}>
            <input
              id={`${id}-day`}
              type="date"
              value={day}
              required
              onChange={(event) => {
                setDay(event.target.value);
                setProblems((current) => ({ ...current, day: undefined }));
              }}
              aria-invalid={problems.day ? true : undefined}
              aria-describedby={problems.day ? `${id}-day-error` : undefined}
              className={fieldClass(Boolean(problems.day))}
            />
          </FieldFrame>
        )}
        <TextAreaField
          id={`${id}-reason`}
          label="Reason (shown to the user)"
          required
          value={reason}
          onChange={(value) => {
            setReason(value);
            setProblems((current) => ({ ...current, reason: undefined }));
          }}
          error={problems.reason}
        />
        <DialogActions onCancel={onCancel} busy={busy} danger>
          Mute User
        </DialogActions>
      </form>
    </Dialog>
  );
}

export function AdminUserUnmuteDialog({ user, onCancel, onDone }: { user: AdminUser; onCancel: () => void; onDone: () => void }) {
  const { busy, failure, run } = useSubmit();
  async function confirm() {
    await run(
      async () => {
        await unwrap(browserApi().DELETE('/api/v1/admin/users/{id}/mute', { params: { path: { id: user.id } } }));
        onDone();
      },
      { keepBusy: true, failure: (caught) => errorText(caught, actionErrors(T.UNMUTE_FAILED)) },
    );
  }
  return (
    <ConfirmDialog
      title="Unmute User"
      message={`Let ${user.fullName} comment again?`}
      confirmLabel="Unmute User"
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={onCancel}
    >
      {failure && <Alert>{failure}</Alert>}
    </ConfirmDialog>
  );
}
