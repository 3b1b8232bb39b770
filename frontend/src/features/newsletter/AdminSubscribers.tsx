import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Alert, useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import type { DataOf, Schema } from '../../lib/api/schema';
import { formatDateTime } from '../../lib/dates';
import { errorText } from '../../lib/texts/error-text';
import { AdminSubscribersTexts as T } from './admin-texts';

type SubscriberPage = DataOf<'/api/v1/newsletter/admin/subscribers'>;
type SuppressionPage = DataOf<'/api/v1/newsletter/admin/suppressions'>;
type Counts = DataOf<'/api/v1/newsletter/admin/counts'>;
type Status = 'pending' | 'active' | 'unsubscribed';
type ImportReport = Schema<'ImportReportDto'>;

const PAGE_SIZE = 20;
const CONTROL =
  'rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-950 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30';
const FAILED = { fallback: T.FAILED };

const api = {
  subscribers: (query: { search?: string; status?: Status; follow?: string; page: number }) =>
    unwrap(browserApi().GET('/api/v1/newsletter/admin/subscribers', { params: { query: { ...query, size: PAGE_SIZE } } })),
  remove: (id: number) => unwrap(browserApi().DELETE('/api/v1/newsletter/admin/subscribers/{id}', { params: { path: { id } } })),
  suppressions: (search: string, page: number) =>
    unwrap(
      browserApi().GET('/api/v1/newsletter/admin/suppressions', {
        params: { query: { search: search || undefined, page, size: PAGE_SIZE } },
      }),
    ),
  unsuppress: (email: string) => unwrap(browserApi().DELETE('/api/v1/newsletter/admin/suppressions', { params: { query: { email } } })),
  counts: () => unwrap(browserApi().GET('/api/v1/newsletter/admin/counts', {})),
  importCsv: (csv: string, dryRun: boolean) =>
    unwrap(browserApi().POST('/api/v1/newsletter/admin/subscribers/import', { body: { csv, dryRun } })),
};

/**
 * /admin/subscribers (ADMIN): the follower counts, the subscribers with search and filters
 * (follow, state) and Remove, CSV export and import (with its report or every bad row by line),
 * and the suppression list with its reasons and 'Remove from list'.
 */
export default function AdminSubscribers() {
  const id = useId();
  const hydrated = useHydrated();
  const [counts, setCounts] = useState<Counts>();
  const [filters, setFilters] = useState<{ search: string; status: '' | Status; follow: string; page: number }>({
    search: '',
    status: '',
    follow: '',
    page: 0,
  });
  const [search, setSearch] = useState('');
  const [list, setList] = useState<SubscriberPage>();
  const [suppressionSearch, setSuppressionSearch] = useState('');
  const [suppressionQuery, setSuppressionQuery] = useState({ search: '', page: 0 });
  const [suppressions, setSuppressions] = useState<SuppressionPage>();
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string }>();
  const [csv, setCsv] = useState<{ name: string; text: string }>();
  const [report, setReport] = useState<{ report?: ImportReport; errors?: [string, string[]][]; message?: string }>();
  const { busy, run } = useSubmit();

  const fail = (error: unknown) => setNotice({ kind: 'error', text: errorText(error, FAILED) });
  const loadList = useCallback(
    () =>
      api
        .subscribers({
          search: filters.search || undefined,
          status: filters.status || undefined,
          follow: filters.follow || undefined,
          page: filters.page,
        })
        .then(setList, fail),
    [filters],
  );
  const loadSuppressions = useCallback(
    () => api.suppressions(suppressionQuery.search, suppressionQuery.page).then(setSuppressions, fail),
    [suppressionQuery],
  );
  const loadCounts = useCallback(() => api.counts().then(setCounts, fail), []);

  useEffect(() => void loadList(), [loadList]);
  useEffect(() => void loadSuppressions(), [loadSuppressions]);
  useEffect(() => void loadCounts(), [loadCounts]);

  async function doImport(dryRun: boolean) {
    if (!csv) return;
    await run(
      async () => {
        setReport(undefined);
        const result = await api.importCsv(csv.text, dryRun);
        setReport({ report: result });
        if (!dryRun) await Promise.all([loadList(), loadCounts()]);
      },
      {
        onError: (error) =>
          setReport({
            message: errorText(error, FAILED),
            errors: error instanceof ApiError && error.errors ? Object.entries(error.errors) : undefined,
          }),
      },
    );
  }

  return (
    <div className="flex flex-col gap-10">
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}

      <section aria-labelledby={`${id}-counts`}>
        <h2 id={`${id}-counts`} className="font-serif text-xl font-bold">
          {T.COUNTS_HEADING}
        </h2>
        {counts && (
          <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-5" data-subscriber-counts>
            {[
              [T.PUBLICATION_FOLLOWERS, counts.publication],
              [T.STATUS_LABELS.active, counts.active],
              [T.STATUS_LABELS.pending, counts.pending],
              [T.STATUS_LABELS.unsubscribed, counts.unsubscribed],
              [T.SUPPRESSED, counts.suppressed],
            ].map(([label, value]) => (
              <div key={label} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
                <dt className="text-xs text-slate-600 dark:text-slate-400">{label}</dt>
                <dd className="text-xl font-semibold">{value}</dd>
              </div>
            ))}
          </dl>
        )}
        {counts && (counts.authors.length > 0 || counts.tags.length > 0) && (
          <div className="mt-3 grid gap-4 sm:grid-cols-2 text-sm">
            {(
              [
                [T.BY_AUTHOR, counts.authors],
                [T.BY_TAG, counts.tags],
              ] as const
            ).map(([label, rows]) => (
              <div key={label}>
                <h3 className="font-semibold">{label}</h3>
                <ul className="mt-1">
                  {rows.slice(0, 10).map((row) => (
                    <li key={row.id}>
                      {row.name}: {row.count}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`} className="font-serif text-xl font-bold">
          {T.LIST_HEADING}
        </h2>
        <form
          className="mt-3 flex flex-wrap items-end gap-3"
          role="search"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            setFilters((current) => ({ ...current, search: search.trim(), page: 0 }));
          }}
        >
          <div>
            <label htmlFor={`${id}-search`} className="mb-1 block text-sm font-medium">
              {T.SEARCH_LABEL}
            </label>
            <input
              id={`${id}-search`}
              type="search"
              className={CONTROL}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          <div>
            <label htmlFor={`${id}-status`} className="mb-1 block text-sm font-medium">
              {T.STATUS_FILTER}
            </label>
            <select
              id={`${id}-status`}
              className={CONTROL}
              value={filters.status}
              onChange={(event) => setFilters((current) => ({ ...current, status: event.target.value as '' | Status, page: 0 }))}
            >
              <option value="">{T.ANY}</option>
              {(['active', 'pending', 'unsubscribed'] as const).map((status) => (
                <option key={status} value={status}>
                  {T.STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-follow`} className="mb-1 block text-sm font-medium">
              {T.FOLLOW_FILTER}
            </label>
            <select
              id={`${id}-follow`}
              className={CONTROL}
              value={filters.follow}
              onChange={(event) => setFilters((current) => ({ ...current, follow: event.target.value, page: 0 }))}
            >
              <option value="">{T.ANY}</option>
              <option value="publication">{T.PUBLICATION}</option>
              {counts?.authors.map((author) => (
                <option key={`a${author.id}`} value={`author:${author.id}`}>
                  {T.authorOption(author.name)}
                </option>
              ))}
              {counts?.tags.map((tag) => (
                <option key={`t${tag.id}`} value={`tag:${tag.id}`}>
                  {T.tagOption(tag.name)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-secondary" disabled={!hydrated}>
            {T.SEARCH}
          </button>
          <a href="/api/v1/newsletter/admin/subscribers/export" className="btn-secondary" download data-export-subscribers>
            {T.EXPORT}
          </a>
        </form>
        {list && (
          <>
            <p className="mt-3 text-sm text-slate-600 dark:text-slate-400" data-subscriber-total>
              {T.total(list.totalElements)}
            </p>
            <div className="mt-2 overflow-x-auto">
              <table className="w-full min-w-[44rem] text-left text-sm" data-subscriber-table>
                <thead>
                  <tr className="border-b border-slate-200 dark:border-slate-800">
                    <th scope="col" className="whitespace-nowrap py-2 pr-3">
                      {T.EMAIL}
                    </th>
                    <th scope="col" className="whitespace-nowrap py-2 pr-3">
                      {T.NAME}
                    </th>
                    <th scope="col" className="whitespace-nowrap py-2 pr-3">
                      {T.STATUS}
                    </th>
                    <th scope="col" className="whitespace-nowrap py-2 pr-3">
                      {T.FOLLOWS}
                    </th>
                    <th scope="col" className="whitespace-nowrap py-2 pr-3">
                      {T.SINCE}
                    </th>
                    <th scope="col" className="py-2">
                      <span className="sr-only">{T.ACTIONS}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.content.map((row) => (
                    <tr key={row.id} className="border-b border-slate-100 align-top dark:border-slate-800">
                      <td className="py-2 pr-3">{row.email}</td>
                      <td className="py-2 pr-3">{row.name ?? ''}</td>
                      <td className="whitespace-nowrap py-2 pr-3">
                        {T.STATUS_LABELS[row.status]}
                        {row.suppressed && (
                          <span className="block text-xs text-red-700 dark:text-red-400">{T.suppressedAs(row.suppressed)}</span>
                        )}
                        {row.cadence === 'weekly' && <span className="block text-xs">{T.WEEKLY}</span>}
                      </td>
                      <td className="py-2 pr-3">{row.follows.map((f) => (f.kind === 'tag' ? `#${f.name}` : f.name)).join(', ')}</td>
                      <td className="whitespace-nowrap py-2 pr-3">{formatDateTime(row.createdAt)}</td>
                      <td className="whitespace-nowrap py-2">
                        <button
                          type="button"
                          className="btn-secondary"
                          disabled={busy}
                          aria-label={T.removeLabel(row.email)}
                          onClick={() => {
                            if (!window.confirm(T.confirmRemove(row.email))) return;
                            void run(
                              async () => {
                                await api.remove(row.id);
                                setNotice({ kind: 'success', text: T.REMOVED });
                                await Promise.all([loadList(), loadCounts()]);
                              },
                              { onError: fail },
                            );
                          }}
                        >
                          {T.REMOVE}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={list.number} last={list.last} onPage={(page) => setFilters((current) => ({ ...current, page }))} />
          </>
        )}
      </section>

      <section aria-labelledby={`${id}-import`}>
        <h2 id={`${id}-import`} className="font-serif text-xl font-bold">
          {T.IMPORT_HEADING}
        </h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{T.IMPORT_HELP}</p>
        <p className="mt-2 text-sm font-medium">{T.CONSENT}</p>
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor={`${id}-file`} className="mb-1 block text-sm font-medium">
              {T.FILE_LABEL}
            </label>
            <input
              id={`${id}-file`}
              type="file"
              accept=".csv,text/csv"
              className="text-sm"
              onChange={(event) => {
                const file = event.target.files?.[0];
                setReport(undefined);
                if (file) void file.text().then((text) => setCsv({ name: file.name, text }));
                else setCsv(undefined);
              }}
            />
          </div>
          <button type="button" className="btn-secondary" disabled={!csv || busy} onClick={() => void doImport(true)}>
            {T.CHECK}
          </button>
          <button type="button" className="btn-primary" disabled={!csv || busy} onClick={() => void doImport(false)}>
            {T.IMPORT}
          </button>
        </div>
        {report?.report && (
          <div className="mt-3" data-import-report>
            <Alert kind="success">{T.reportLine(report.report)}</Alert>
            {report.report.skipped.length > 0 && (
              <ul className="mt-2 text-sm">
                {report.report.skipped.map((row) => (
                  <li key={row.line}>{T.skippedLine(row.line, row.email, row.reason)}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {report?.message && (
          <div className="mt-3" data-import-errors>
            <Alert kind="error">{report.message}</Alert>
            {report.errors && (
              <ul className="mt-2 text-sm">
                {report.errors.map(([line, reasons]) => (
                  <li key={line}>
                    {line}: {reasons.join('; ')}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </section>

      <section aria-labelledby={`${id}-suppressions`}>
        <h2 id={`${id}-suppressions`} className="font-serif text-xl font-bold">
          {T.SUPPRESSIONS_HEADING}
        </h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{T.SUPPRESSIONS_HELP}</p>
        <form
          className="mt-3 flex flex-wrap items-end gap-3"
          role="search"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            setSuppressionQuery({ search: suppressionSearch.trim(), page: 0 });
          }}
        >
          <div>
            <label htmlFor={`${id}-suppression-search`} className="mb-1 block text-sm font-medium">
              {T.SEARCH_SUPPRESSED}
            </label>
            <input
              id={`${id}-suppression-search`}
              type="search"
              className={CONTROL}
              value={suppressionSearch}
              onChange={(event) => setSuppressionSearch(event.target.value)}
            />
          </div>
          <button type="submit" className="btn-secondary" disabled={!hydrated}>
            {T.SEARCH}
          </button>
        </form>
        {suppressions && (
          <>
            {suppressions.content.length === 0 ? (
              <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">{T.NO_SUPPRESSIONS}</p>
            ) : (
              <div className="mt-3 overflow-x-auto">
                <table className="w-full min-w-[36rem] text-left text-sm" data-suppression-table>
                  <thead>
                    <tr className="border-b border-slate-200 dark:border-slate-800">
                      <th scope="col" className="whitespace-nowrap py-2 pr-3">
                        {T.EMAIL}
                      </th>
                      <th scope="col" className="whitespace-nowrap py-2 pr-3">
                        {T.REASON}
                      </th>
                      <th scope="col" className="whitespace-nowrap py-2 pr-3">
                        {T.DETAIL}
                      </th>
                      <th scope="col" className="whitespace-nowrap py-2 pr-3">
                        {T.SINCE}
                      </th>
                      <th scope="col" className="py-2">
                        <span className="sr-only">{T.ACTIONS}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {suppressions.content.map((row) => (
                      <tr key={row.email} className="border-b border-slate-100 align-top dark:border-slate-800">
                        <td className="py-2 pr-3">{row.email}</td>
                        <td className="py-2 pr-3">{T.REASONS[row.reason]}</td>
                        <td className="break-words py-2 pr-3">{row.detail ?? ''}</td>
                        <td className="whitespace-nowrap py-2 pr-3">{formatDateTime(row.createdAt)}</td>
                        <td className="whitespace-nowrap py-2">
                          <button
                            type="button"
                            className="btn-secondary"
                            disabled={busy}
                            aria-label={T.unsuppressLabel(row.email)}
                            onClick={() =>
                              void run(
                                async () => {
                                  await api.unsuppress(row.email);
                                  setNotice({ kind: 'success', text: T.UNSUPPRESSED });
                                  await Promise.all([loadSuppressions(), loadCounts()]);
                                },
                                { onError: fail },
                              )
                            }
                          >
                            {T.UNSUPPRESS}
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Pager
              page={suppressions.number}
              last={suppressions.last}
              onPage={(page) => setSuppressionQuery((current) => ({ ...current, page }))}
            />
          </>
        )}
      </section>
    </div>
  );
}

function Pager({ page, last, onPage }: { page: number; last: boolean; onPage: (page: number) => void }) {
  if (page === 0 && last) return null;
  return (
    <nav className="mt-3 flex gap-2" aria-label={T.PAGES}>
      <button type="button" className="btn-secondary" disabled={page === 0} onClick={() => onPage(page - 1)}>
        {T.PREVIOUS}
      </button>
      <button type="button" className="btn-secondary" disabled={last} onClick={() => onPage(page + 1)}>
        {T.NEXT}
      </button>
    </nav>
  );
}
