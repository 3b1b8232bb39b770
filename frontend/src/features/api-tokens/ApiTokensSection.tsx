/**
 * The 'API tokens' card of /account: create a token (name, scopes, expiry), see it
 * once with a copy button, list the tokens with their last use, revoke one after confirming. The
 * page passes the list it read; the scopes offered come from the one rule (isomorphic/api-tokens.ts).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_NAME_MAX,
  API_TOKEN_SCOPE_LABELS,
  grantableScopes,
  type ApiTokenExpiryDays,
  type ApiTokenScope,
} from '../../../../isomorphic/api-tokens';
import { ConfirmDialog } from '../../components/islands/Dialog';
import { Alert, BusyButton, TextField, useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { ApiError } from '../../lib/api/errors';
import { formatDateTime } from '../../lib/dates';
import { apiTokenActions, type ApiTokenCreated, type ApiTokenSummary } from './api-tokens';
import { ApiTokenTexts as T } from './api-tokens-texts';

interface Props {
  /** The tokens the page read; undefined when that read failed (shown as an error, the form still works). */
  initialTokens?: ApiTokenSummary[];
  /** The admin scope is offered to administrators only. */
  isAdmin: boolean;
}

type Notice = { kind: 'success' | 'error'; text: string } | undefined;
type FieldErrors = Partial<Record<'name' | 'scopes' | 'expiresInDays', string>>;

const NEVER = 'never';
const expiryValue = (days: ApiTokenExpiryDays) => (days === null ? NEVER : String(days));
const CHECKBOX =
  'mt-0.5 h-4 w-4 rounded border-slate-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

function dateOrNever(value: string | null): string {
  return value ? formatDateTime(value) || value : T.NEVER_USED;
}

export default function ApiTokensSection({ initialTokens, isAdmin }: Props) {
  const hydrated = useHydrated();
  const ids = { scopes: useId(), expiry: useId(), created: useId() };
  const [tokens, setTokens] = useState<ApiTokenSummary[] | undefined>(initialTokens);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['read']);
  const [expiry, setExpiry] = useState<string>('90');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<ApiTokenCreated>();
  const [notice, setNotice] = useState<Notice>(initialTokens ? undefined : { kind: 'error', text: T.LOAD_FAILED });
  const [revoking, setRevoking] = useState<ApiTokenSummary>();
  const createSubmit = useSubmit();
  const revokeSubmit = useSubmit();
  const createdField = useRef<HTMLInputElement>(null);
  // The token is what the user came for: take them to it once it is drawn (a screen reader reads
  // its label and note). After the commit, not on the next frame: under load that came first.
  useEffect(() => {
    if (created) createdField.current?.focus();
  }, [created]);
  const offered = grantableScopes(isAdmin);

  const toggleScope = (scope: ApiTokenScope) =>
    setScopes((current) => (current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope]));

  async function create(event: FormEvent) {
    event.preventDefault();
    setNotice(undefined);
    setErrors({});
    setCreated(undefined);
    const result = await createSubmit.run(
      () =>
        apiTokenActions.create({
          name,
          scopes: offered.filter((scope) => scopes.includes(scope)),
          expiresInDays: expiry === NEVER ? null : (Number(expiry) as 30 | 90 | 365),
        }),
      {
        onError: (error) => {
          if (error instanceof ApiError && error.errors) {
            setErrors({ name: error.field('name'), scopes: error.field('scopes'), expiresInDays: error.field('expiresInDays') });
          }
          setNotice({ kind: 'error', text: error instanceof ApiError ? error.message : T.CREATE_FAILED });
        },
      },
    );
    if (!result.ok) return;
    const { token: _secret, ...summary } = result.value;
    setCreated(result.value);
    setTokens((current) => [summary, ...(current ?? [])]);
    setName('');
  }

  async function copy() {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.token);
      setNotice({ kind: 'success', text: T.COPIED });
    } catch {
      setNotice({ kind: 'error', text: T.COPY_FAILED });
    }
  }

  async function revoke() {
    const target = revoking;
    if (!target) return;
    const result = await revokeSubmit.run(() => apiTokenActions.revoke(target.id), {
      onError: (error) => setNotice({ kind: 'error', text: error instanceof ApiError ? error.message : T.REVOKE_FAILED }),
    });
    setRevoking(undefined);
    if (!result.ok) return;
    setTokens((current) => current?.filter((token) => token.id !== target.id));
    if (created?.id === target.id) setCreated(undefined);
    setNotice({ kind: 'success', text: T.REVOKED });
  }

  return (
    <section className="card p-6" aria-labelledby="api-tokens-heading" data-api-tokens>
      <h2 id="api-tokens-heading" className="text-lg font-semibold">
        {T.TITLE}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{T.INTRO}</p>

      <form className="mt-4 space-y-4" onSubmit={create} noValidate>
        <TextField
          label={T.NAME}
          name="name"
          value={name}
          maxLength={API_TOKEN_NAME_MAX}
          required
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
          error={errors.name}
          hint={<p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{T.NAME_HINT}</p>}
        />
        <fieldset aria-describedby={errors.scopes ? `${ids.scopes}-error` : undefined}>
          <legend className="mb-1 text-sm font-medium">{T.SCOPES}</legend>
          <div className="space-y-2">
            {offered.map((scope) => (
              <label key={scope} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  name="scopes"
                  value={scope}
                  checked={scopes.includes(scope)}
                  onChange={() => toggleScope(scope)}
                  className={CHECKBOX}
                />
                <span>
                  <code className="font-mono text-xs">{scope}</code>{' '}
                  <span className="text-slate-600 dark:text-slate-400">{API_TOKEN_SCOPE_LABELS[scope]}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.scopes && (
            <p id={`${ids.scopes}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
              {errors.scopes}
            </p>
          )}
        </fieldset>
        <div>
          <label htmlFor={ids.expiry} className="mb-1 block text-sm font-medium">
            {T.EXPIRY}
          </label>
          <select
            id={ids.expiry}
            name="expiresInDays"
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 sm:w-48 dark:border-slate-700 dark:bg-slate-950"
            aria-invalid={errors.expiresInDays ? true : undefined}
          >
            {API_TOKEN_EXPIRY_DAYS.map((days) => (
              <option key={expiryValue(days)} value={expiryValue(days)}>
                {T.expiryOption(days)}
              </option>
            ))}
          </select>
          {errors.expiresInDays && <p className="mt-1 text-sm text-red-600 dark:text-red-400">{errors.expiresInDays}</p>}
        </div>
        <BusyButton type="submit" className="btn-primary" busy={createSubmit.busy} disabled={!hydrated}>
          {T.CREATE}
        </BusyButton>
      </form>

      {created && (
        <div
          className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-800 dark:bg-emerald-950/40"
          data-new-api-token
        >
          <label htmlFor={ids.created} className="block text-sm font-semibold">
            {T.CREATED_TITLE}
          </label>
          <input
            id={ids.created}
            ref={createdField}
            type="text"
            readOnly
            value={created.token}
            aria-describedby={`${ids.created}-note`}
            onFocus={(event) => event.currentTarget.select()}
            className="mt-2 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
          />
          <p id={`${ids.created}-note`} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            {T.CREATED_NOTE}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <button type="button" className="btn-primary" onClick={copy}>
              {T.COPY}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setCreated(undefined)}>
              {T.DONE}
            </button>
          </div>
        </div>
      )}

      <div className="mt-3" aria-live="polite">
        {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      </div>

      <h3 className="mt-6 text-base font-semibold">{T.LIST_HEADING}</h3>
      {tokens && tokens.length === 0 && <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{T.NONE}</p>}
      {tokens && tokens.length > 0 && (
        <ul className="mt-2 space-y-3" aria-label={T.LIST_HEADING}>
          {tokens.map((token) => {
            const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();
            return (
              <li key={token.id} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700" data-api-token={token.id}>
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="break-words font-medium">{token.name}</p>
                    <p className="text-xs text-slate-600 dark:text-slate-400">
                      <span className="sr-only">{T.SCOPES}: </span>
                      <code className="font-mono">{T.scopesOf(token.scopes)}</code>
                    </p>
                  </div>
                  <button
                    type="button"
                    className="btn-secondary"
                    onClick={() => setRevoking(token)}
                    disabled={!hydrated || revokeSubmit.busy}
                    aria-label={T.revokeLabel(token.name)}
                  >
                    {T.REVOKE}
                  </button>
                </div>
                <dl className="mt-2 grid gap-x-4 gap-y-1 text-xs sm:grid-cols-3">
                  <div>
                    <dt className="text-slate-600 dark:text-slate-400">{T.CREATED_AT}</dt>
                    <dd>{formatDateTime(token.createdAt) || token.createdAt}</dd>
                  </div>
                  <div>
                    <dt className="text-slate-600 dark:text-slate-400">{T.EXPIRES}</dt>
                    <dd>
                      {token.expiresAt
                        ? `${formatDateTime(token.expiresAt) || token.expiresAt}${expired ? ` (${T.EXPIRED})` : ''}`
                        : T.NO_EXPIRY}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-slate-600 dark:text-slate-400">{T.LAST_USED}</dt>
                    <dd>{dateOrNever(token.lastUsedAt)}</dd>
                  </div>
                </dl>
              </li>
            );
          })}
        </ul>
      )}

      <ConfirmDialog
        open={revoking !== undefined}
        title={T.REVOKE_TITLE}
        message={revoking ? T.revokeMessage(revoking.name) : ''}
        confirmLabel={T.REVOKE}
        danger
        busy={revokeSubmit.busy}
        onConfirm={revoke}
        onCancel={() => setRevoking(undefined)}
      />
    </section>
  );
}
