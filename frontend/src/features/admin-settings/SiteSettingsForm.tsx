import { useState, type FormEvent } from 'react';
import { Alert, BusyButton, useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrapWithMessage } from '../../lib/api/errors';
import type { components } from '@inkwell/client/schema';
import { SiteSettingsTexts as T } from './texts';

type SiteSettings = components['schemas']['SiteSettingsDto'];
type ErasedAuthorPosts = SiteSettings['erasedAuthorPosts'];

const ERASED_CHOICES: { value: ErasedAuthorPosts; label: string }[] = [
  { value: 'reassign', label: T.REASSIGN },
  { value: 'delete', label: T.DELETE },
];

/**
 * /admin/settings: both site-wide settings, saved together with PATCH /admin/settings,
 * which answers the whole set (shown as saved).
 */
export default function SiteSettingsForm({ initial }: { initial: SiteSettings }) {
  const [values, setValues] = useState<SiteSettings>(initial);
  const [saved, setSaved] = useState<string>();
  const { busy, failure, run } = useSubmit();
  const hydrated = useHydrated();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(undefined);
    const sent = await run(() => unwrapWithMessage(browserApi().PATCH('/api/v1/admin/settings', { body: values })), {
      failure: (error) =>
        error instanceof ApiError ? (error.errors ? Object.values(error.errors).flat().join(' ') : error.message) : T.SAVE_FAILED,
    });
    if (sent.ok) {
      setValues(sent.value.data);
      setSaved(sent.value.message);
    }
  }

  return (
    <form className="mt-6 max-w-2xl space-y-6" onSubmit={submit} noValidate>
      {failure && <Alert>{failure}</Alert>}
      {saved && <Alert kind="success">{saved}</Alert>}
      <fieldset className="card space-y-3 p-6">
        <legend className="sr-only">{T.SECURITY}</legend>
        <h2 className="text-lg font-semibold" aria-hidden="true">
          {T.SECURITY}
        </h2>
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            className="mt-1 h-4 w-4 rounded border-slate-300 text-brand-600"
            name="requireAdminTwoFactor"
            checked={values.requireAdminTwoFactor}
            onChange={(event) => setValues((v) => ({ ...v, requireAdminTwoFactor: event.target.checked }))}
            aria-describedby="require-2fa-hint"
          />
          <span>
            <span className="font-medium">{T.REQUIRE_2FA}</span>
            <span id="require-2fa-hint" className="mt-1 block text-sm text-slate-600 dark:text-slate-400">
              {T.REQUIRE_2FA_HINT}
            </span>
          </span>
        </label>
      </fieldset>
      <fieldset className="card space-y-3 p-6" aria-describedby="erased-hint">
        <legend className="sr-only">{T.ERASED}</legend>
        <h2 className="text-lg font-semibold" aria-hidden="true">
          {T.ERASED}
        </h2>
        <p id="erased-hint" className="text-sm text-slate-600 dark:text-slate-400">
          {T.ERASED_HINT}
        </p>
        {ERASED_CHOICES.map((choice) => (
          <label key={choice.value} className="flex items-center gap-3">
            <input
              type="radio"
              className="h-4 w-4 border-slate-300 text-brand-600"
              name="erasedAuthorPosts"
              value={choice.value}
              checked={values.erasedAuthorPosts === choice.value}
              onChange={() => setValues((v) => ({ ...v, erasedAuthorPosts: choice.value }))}
            />
            {choice.label}
          </label>
        ))}
      </fieldset>
      <BusyButton type="submit" className="btn-primary" busy={busy} disabled={!hydrated}>
        {busy ? T.SAVING : T.SAVE}
      </BusyButton>
    </form>
  );
}
