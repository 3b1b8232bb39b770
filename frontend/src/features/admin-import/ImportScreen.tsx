/**
 * /admin/import: choose the source and the file (and a media zip), upload it, then follow the
 * job: a progress bar with the counts so far, Cancel while it runs, and the report at the end
 * (imported, skipped with why, renamed). The latest imports are listed under it.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api/errors';
import { Alert, BusyButton, useHydrated } from '../../components/islands/form-controls';
import { TableFrame } from '../../components/islands/TableFrame';
import { cancelImport, isRunning, listImports, readImport, startImport, type ImportSourceName, type SiteImport } from './import-api';
import { AdminImportTexts as T } from './texts';

// The report's tables: a column never narrower than its longest word; on a phone they scroll in their frame.
const REPORT_TABLE = 'w-full text-left text-sm [overflow-wrap:break-word]';
const REPORT_HEAD = 'border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-950';
const REPORT_ROW = 'border-b border-slate-100 align-top last:border-0 dark:border-slate-800/60';
const REPORT_CELL = 'px-3 py-2';

const POLL_MS = 1000;
const SOURCES: ImportSourceName[] = ['wordpress', 'ghost', 'inkwell'];
const ACCEPT: Record<ImportSourceName, string> = {
  wordpress: '.xml,text/xml,application/xml',
  ghost: '.json,application/json',
  inkwell: '.zip,application/zip',
};

const message = (error: unknown, fallback: string): string => (error instanceof ApiError && error.message ? error.message : fallback);

export default function ImportScreen({ initial }: { initial: SiteImport[] }) {
  const hydrated = useHydrated();
  const [source, setSource] = useState<ImportSourceName>('wordpress');
  const [inviteAuthors, setInviteAuthors] = useState(false);
  const [busy, setBusy] = useState(false);
  const [uploaded, setUploaded] = useState<number | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [current, setCurrent] = useState<SiteImport | undefined>(initial.find((row) => isRunning(row.state)) ?? initial[0]);
  const [earlier, setEarlier] = useState<SiteImport[]>(initial);
  const fileInput = useRef<HTMLInputElement>(null);
  const mediaInput = useRef<HTMLInputElement>(null);

  // Follows the current import while it runs.
  useEffect(() => {
    if (!current || !isRunning(current.state)) return undefined;
    const timer = setTimeout(() => {
      readImport(current.id).then(
        (next) => {
          setCurrent(next);
          if (!isRunning(next.state)) listImports().then(setEarlier, () => undefined);
        },
        () => setError(T.LOAD_FAILED),
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [current]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!file) {
      setError(T.FILE_REQUIRED);
      fileInput.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    setUploaded(0);
    try {
      const media = source === 'inkwell' ? null : (mediaInput.current?.files?.[0] ?? null);
      const started = await startImport({ source, file, media, inviteAuthors }, setUploaded);
      if (started) setCurrent(started);
    } catch (failure) {
      setError(message(failure, T.START_FAILED));
    } finally {
      setBusy(false);
      setUploaded(null);
    }
  }

  async function cancel() {
    if (!current) return;
    try {
      setCurrent(await cancelImport(current.id));
    } catch (failure) {
      setError(message(failure, T.CANCEL_FAILED));
    }
  }

  const running = current ? isRunning(current.state) : false;
  return (
    <div className="space-y-8">
      <form onSubmit={submit} className="card space-y-5 p-6" aria-label={T.TITLE} noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">{T.SOURCE}</legend>
          <div className="flex flex-wrap gap-4">
            {SOURCES.map((name) => (
              <label key={name} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="source"
                  value={name}
                  checked={source === name}
                  onChange={() => setSource(name)}
                  className="h-4 w-4"
                />
                {T.SOURCES[name]}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor="import-file" className="block text-sm font-medium">
            {T.FILE}
          </label>
          <input id="import-file" ref={fileInput} type="file" name="file" accept={ACCEPT[source]} className="mt-1 block w-full text-sm" />
        </div>
        {source !== 'inkwell' ? (
          <div>
            <label htmlFor="import-media" className="block text-sm font-medium">
              {T.MEDIA}
            </label>
            <input
              id="import-media"
              ref={mediaInput}
              type="file"
              name="media"
              accept=".zip,application/zip"
              aria-describedby="import-media-hint"
              className="mt-1 block w-full text-sm"
            />
            <p id="import-media-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {T.MEDIA_HINT}
            </p>
          </div>
        ) : null}
        <div>
          <label className="flex items-start gap-2 text-sm font-medium">
            <input
              type="checkbox"
              name="inviteAuthors"
              checked={inviteAuthors}
              onChange={(event) => setInviteAuthors(event.target.checked)}
              aria-describedby="import-invite-hint"
              className="mt-0.5 h-4 w-4"
            />
            {T.INVITE}
          </label>
          <p id="import-invite-hint" className="mt-1 ml-6 text-xs text-slate-600 dark:text-slate-400">
            {T.INVITE_HINT}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <BusyButton type="submit" className="btn-primary" busy={busy} disabled={!hydrated || running}>
            {T.START}
          </BusyButton>
          {uploaded !== null ? <span className="text-sm text-slate-600 dark:text-slate-400">{T.UPLOADING(uploaded)}</span> : null}
        </div>
      </form>

      {current ? <ImportProgress row={current} onCancel={cancel} /> : null}

      <section aria-labelledby="earlier-imports">
        <h2 id="earlier-imports" className="mb-3 text-lg font-semibold">
          {T.RECENT}
        </h2>
        {earlier.length ? (
          <ul className="space-y-1 text-sm">
            {earlier.map((row) => (
              <li key={row.id}>
                <button type="button" className="text-left underline underline-offset-2" onClick={() => setCurrent(row)}>
                  {row.fileName}
                </button>{' '}
                — {T.STATES[row.state]}, {new Date(row.createdAt).toLocaleString('en-US')}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">{T.NONE_YET}</p>
        )}
      </section>
    </div>
  );
}

function ImportProgress({ row, onCancel }: { row: SiteImport; onCancel: () => void }) {
  const running = isRunning(row.state);
  // The invitations line only for an import asked to invite (otherwise it is always 0).
  const counts = (Object.entries(row.counts) as [string, number][]).filter(([key]) => key !== 'invitations' || row.inviteAuthors);
  return (
    <section className="card space-y-4 p-6" aria-labelledby="import-progress">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="import-progress" className="text-lg font-semibold">
          {row.fileName}: {T.STATES[row.state]}
        </h2>
        {running ? (
          <button type="button" className="btn-secondary" onClick={onCancel} disabled={row.cancelRequested}>
            {T.CANCEL}
          </button>
        ) : null}
      </div>
      <div>
        <progress className="w-full" aria-label={T.PROGRESS} max={row.total ?? 1} value={row.total === null ? undefined : row.processed} />
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" role="status">
          {T.PROGRESS_LINE(row.processed, row.total)}
        </p>
      </div>
      {row.error ? <Alert>{row.error}</Alert> : null}
      <div>
        <h3 className="text-base font-semibold">{running ? T.IMPORTED : T.REPORT}</h3>
        <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
          {counts.map(([key, value]) => (
            <div key={key} className="flex justify-between gap-2">
              <dt>{T.COUNT_LABELS[key] ?? key}</dt>
              <dd className="font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      {row.skippedCount ? (
        <details>
          <summary className="cursor-pointer font-medium">{T.SKIPPED(row.skippedCount)}</summary>
          {row.skipped.length < row.skippedCount ? (
            <p className="mt-1 text-xs">{T.MORE_ROWS(row.skipped.length, row.skippedCount)}</p>
          ) : null}
          <div className="mt-2">
            <TableFrame label={T.SKIPPED_REGION}>
              <table className={`${REPORT_TABLE} min-w-[32rem]`}>
                <thead className={REPORT_HEAD}>
                  <tr>
                    <th scope="col" className={REPORT_CELL}>
                      {T.KIND}
                    </th>
                    <th scope="col" className={REPORT_CELL}>
                      {T.ITEM}
                    </th>
                    <th scope="col" className={REPORT_CELL}>
                      {T.WHY}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {row.skipped.map((skip, index) => (
                    <tr key={`${skip.kind}-${skip.sourceId}-${index}`} className={REPORT_ROW}>
                      <td className={`${REPORT_CELL} whitespace-nowrap`}>{skip.kind}</td>
                      <td className={REPORT_CELL}>{skip.title}</td>
                      <td className={REPORT_CELL}>{skip.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
          </div>
        </details>
      ) : null}
      {row.renamedCount ? (
        <details>
          <summary className="cursor-pointer font-medium">{T.RENAMED(row.renamedCount)}</summary>
          <div className="mt-2">
            <TableFrame label={T.RENAMED_REGION}>
              <table className={`${REPORT_TABLE} min-w-[40rem]`}>
                <thead className={REPORT_HEAD}>
                  <tr>
                    <th scope="col" className={REPORT_CELL}>
                      {T.KIND}
                    </th>
                    <th scope="col" className={REPORT_CELL}>
                      {T.FROM}
                    </th>
                    <th scope="col" className={REPORT_CELL}>
                      {T.TO}
                    </th>
                    <th scope="col" className={REPORT_CELL}>
                      {T.WHY}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {row.renamed.map((rename, index) => (
                    <tr key={`${rename.kind}-${rename.sourceId}-${index}`} className={REPORT_ROW}>
                      <td className={`${REPORT_CELL} whitespace-nowrap`}>{rename.kind}</td>
                      <td className={REPORT_CELL}>{rename.from}</td>
                      <td className={REPORT_CELL}>{rename.to}</td>
                      <td className={REPORT_CELL}>{rename.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
          </div>
        </details>
      ) : null}
    </section>
  );
}
