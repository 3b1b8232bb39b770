/**
 * /admin/federation (docs/federation.md#administration): federation on or off, followers per
 * actor, recent deliveries (or failed ones only), blocked instances and actors.
 */
import { useState } from 'react';
import { ApiError } from '../../lib/api/errors';
import { CommonTexts } from '../../lib/texts/common';
import { federationApi, type FederationBlock, type FederationDelivery, type FederationOverview } from './federation-api';
import { FederationTexts as T } from './texts';

interface Props {
  initial: { overview: FederationOverview; deliveries: FederationDelivery[]; blocks: FederationBlock[] };
}

const messageOf = (error: unknown): string => (error instanceof ApiError ? error.message : CommonTexts.UNEXPECTED_ERROR);
const CELL = 'px-3 py-2 text-left align-top';
const FIELD =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-950';

export default function FederationAdmin({ initial }: Props) {
  const [overview, setOverview] = useState(initial.overview);
  const [deliveries, setDeliveries] = useState(initial.deliveries);
  const [blocks, setBlocks] = useState(initial.blocks);
  const [failedOnly, setFailedOnly] = useState(false);
  const [kind, setKind] = useState<'instance' | 'actor'>('instance');
  const [value, setValue] = useState('');
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string }>();
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<string | undefined>) {
    setBusy(true);
    try {
      const text = await action();
      if (text) setNotice({ kind: 'success', text });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }

  const toggle = () =>
    run(async () => {
      const { data, message } = await federationApi.setEnabled(!overview.enabled);
      setOverview(data);
      return message;
    });
  const filter = (failed: boolean) =>
    run(async () => {
      setFailedOnly(failed);
      setDeliveries(await federationApi.deliveries(failed));
      return undefined;
    });
  const block = () =>
    run(async () => {
      const { message } = await federationApi.block(kind, value);
      setValue('');
      setBlocks(await federationApi.blocks());
      setOverview(await federationApi.overview());
      return message;
    });
  const unblock = (id: number) =>
    run(async () => {
      await federationApi.unblock(id);
      setBlocks(await federationApi.blocks());
      return undefined;
    });

  return (
    <div className="space-y-10" data-federation-admin>
      {notice && (
        <div
          role={notice.kind === 'error' ? 'alert' : 'status'}
          className={
            notice.kind === 'error'
              ? 'rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200'
              : 'rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'
          }
        >
          {notice.text}
        </div>
      )}
      <section aria-labelledby="federation-status-heading" className="flex flex-wrap items-center gap-4">
        <h2 id="federation-status-heading" className="text-lg font-semibold">
          {!overview.available ? T.UNAVAILABLE : overview.enabled ? T.ON : T.OFF}
        </h2>
        {overview.available ? (
          <button type="button" className="btn-secondary" onClick={toggle} disabled={busy} data-federation-toggle>
            {overview.enabled ? T.TURN_OFF : T.TURN_ON}
          </button>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">{overview.unavailableReason}</p>
        )}
        <p className="w-full text-sm text-slate-600 dark:text-slate-400">
          <code>{overview.siteHandle}</code>
        </p>
      </section>

      <section aria-labelledby="federation-actors-heading">
        <h2 id="federation-actors-heading" className="mb-3 text-lg font-semibold">
          {T.ACTORS_HEADING}
        </h2>
        {overview.actors.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{T.ACTORS_EMPTY}</p>
        ) : (
          <table className="w-full text-sm">
            <thead>
              <tr>
                <th scope="col" className={CELL}>
                  {T.ACTOR}
                </th>
                <th scope="col" className={CELL}>
                  {T.FOLLOWERS}
                </th>
              </tr>
            </thead>
            <tbody>
              {overview.actors.map((actor) => (
                <tr key={actor.actor} className="border-t border-slate-200 dark:border-slate-800">
                  <td className={CELL}>
                    <code>{actor.handle}</code>
                  </td>
                  <td className={CELL}>{actor.followers}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="federation-deliveries-heading">
        <div className="mb-3 flex flex-wrap items-center gap-4">
          <h2 id="federation-deliveries-heading" className="text-lg font-semibold">
            {T.DELIVERIES_HEADING}
          </h2>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={failedOnly} onChange={(event) => filter(event.target.checked)} disabled={busy} />
            {T.FAILED_ONLY}
          </label>
        </div>
        {deliveries.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{T.DELIVERIES_EMPTY}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr>
                  <th scope="col" className={CELL}>
                    {T.ACTIVITY}
                  </th>
                  <th scope="col" className={CELL}>
                    {T.INBOX}
                  </th>
                  <th scope="col" className={CELL}>
                    {T.STATUS}
                  </th>
                  <th scope="col" className={CELL}>
                    {T.ATTEMPTS}
                  </th>
                  <th scope="col" className={CELL}>
                    {T.ERROR}
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((delivery) => (
                  <tr key={delivery.id} className="border-t border-slate-200 dark:border-slate-800" data-delivery-status={delivery.status}>
                    <td className={CELL}>{delivery.activity}</td>
                    <td className={`${CELL} break-all`}>{delivery.inbox}</td>
                    <td className={CELL}>{delivery.status}</td>
                    <td className={CELL}>{delivery.attempts}</td>
                    <td className={`${CELL} break-all`}>{delivery.lastError ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="federation-blocks-heading">
        <h2 id="federation-blocks-heading" className="mb-3 text-lg font-semibold">
          {T.BLOCKS_HEADING}
        </h2>
        <form
          className="mb-4 flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void block();
          }}
        >
          <label className="flex flex-col gap-1 text-sm">
            {T.BLOCK_KIND}
            <select className={FIELD} value={kind} onChange={(event) => setKind(event.target.value as 'instance' | 'actor')}>
              <option value="instance">{T.BLOCK_INSTANCE}</option>
              <option value="actor">{T.BLOCK_ACTOR}</option>
            </select>
          </label>
          <label className="flex min-w-64 flex-1 flex-col gap-1 text-sm">
            {T.BLOCK_VALUE}
            <input className={FIELD} value={value} onChange={(event) => setValue(event.target.value)} maxLength={500} required />
          </label>
          <button type="submit" className="btn-primary" disabled={busy}>
            {T.BLOCK}
          </button>
        </form>
        {blocks.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{T.BLOCKS_EMPTY}</p>
        ) : (
          <ul className="space-y-2">
            {blocks.map((entry) => (
              <li key={entry.id} className="flex flex-wrap items-center gap-3 text-sm">
                <span className="font-medium">{entry.kind}</span>
                <code className="break-all">{entry.value}</code>
                <button type="button" className="btn-secondary" onClick={() => unblock(entry.id)} disabled={busy}>
                  {T.UNBLOCK}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
