/**
 * The list part of the four back-office managers (/admin/posts, /admin/tags, /admin/users,
 * /admin/comments): the section with its heading and range line, the failed read with Try
 * Again, the loading line, the empty state, the rows (a table or cards, from the manager) and
 * the pager. `AdminTable` is the sortable table two of them show; each manager supplies its
 * columns, rows and row actions.
 */
import { useCallback, useState, type ComponentProps, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import Pager from './Pager';
import { Spinner } from './form-controls';
import { useKeepTyped } from './keep-typed';
import { FILTER_CONTROL_CLASS } from '../../lib/form-classes';

type PagerProps = ComponentProps<typeof Pager>;

export interface AdminListFailure {
  title: string;
  message: string;
  retryHref: string;
  onRetry: (event: MouseEvent<HTMLAnchorElement>) => void;
}

export interface AdminListEmpty {
  title: string;
  message?: string;
  /** Links under the message ('Clear all', 'New Post'). */
  actions?: ReactNode;
  testId?: string;
}

interface AdminListProps {
  /** The section's heading: shown with the range line beside it, or for screen readers only. */
  heading: { id: string; text: string; visible: boolean };
  loading: boolean;
  /** The range line beside a shown heading ('Showing 1–20 of 42 posts'). */
  range?: { text: string; loadingText: string; testId: string };
  /** The failed read. As a banner above the rows (they stay), or a panel instead of them. */
  failure?: AdminListFailure;
  failureLayout: 'banner' | 'panel';
  /** Shown before the first read has arrived. */
  loadingText?: string;
  /** How many rows the page has; undefined until the first read. */
  rowCount: number | undefined;
  empty: AdminListEmpty;
  /** The rows: a table or a list. */
  children: ReactNode;
  /** Bulk actions above the rows, shown only with rows. */
  toolbar?: ReactNode;
  pager: PagerProps;
  className?: string;
}

const PANEL = 'rounded-xl border border-red-200 bg-red-50 p-8 text-center text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200';
const BANNER = 'mb-4 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200';

function FailureView({ failure, layout }: { failure: AdminListFailure; layout: 'banner' | 'panel' }) {
  const panel = layout === 'panel';
  return (
    <div role="alert" className={panel ? PANEL : BANNER}>
      <p className={panel ? 'text-lg font-semibold' : 'font-semibold'}>{failure.title}</p>
      <p className={panel ? 'mt-1 opacity-90' : 'mt-1'}>{failure.message}</p>
      <a href={failure.retryHref} className={`btn-secondary ${panel ? 'mt-4' : 'mt-3'}`} onClick={failure.onRetry}>
        Try Again
      </a>
    </div>
  );
}

function EmptyView({ empty }: { empty: AdminListEmpty }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-10 text-center dark:border-slate-700" data-testid={empty.testId}>
      <p className="text-lg font-semibold">{empty.title}</p>
      {empty.message && <p className="mt-1 text-slate-600 dark:text-slate-400">{empty.message}</p>}
      {empty.actions && <div className="mt-5 flex justify-center gap-3">{empty.actions}</div>}
    </div>
  );
}

export function AdminList({ heading, loading, range, failure, failureLayout, loadingText, rowCount, empty, children, toolbar, pager, className }: AdminListProps) {
  const replaced = failure !== undefined && failureLayout === 'panel';
  return (
    <section aria-labelledby={heading.id} aria-busy={loading} className={className}>
      {heading.visible ? (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id={heading.id} tabIndex={-1} className="text-lg font-semibold">
            {heading.text}
          </h2>
          {range && (
            <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400" role="status" data-testid={range.testId}>
              {loading && <Spinner />}
              {loading ? range.loadingText : range.text}
            </p>
          )}
        </div>
      ) : (
        <h2 id={heading.id} tabIndex={-1} className="sr-only">
          {heading.text}
        </h2>
      )}
      {failure && <FailureView failure={failure} layout={failureLayout} />}
      {replaced ? null : rowCount === undefined ? (
        loadingText && (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {loadingText}
          </p>
        )
      ) : rowCount === 0 ? (
        <EmptyView empty={empty} />
      ) : (
        <>
          {toolbar}
          {children}
          <Pager {...pager} />
        </>
      )}
    </section>
  );
}

/**
 * A row's action: the row is busy while it runs (its buttons show it, the others wait), a
 * failure goes to `onError` (a toast, a dialog's field).
 */
export function useRowAction() {
  const [busyId, setBusyId] = useState<number>();
  const act = useCallback(async (id: number, work: () => Promise<void>, onError: (error: unknown) => void) => {
    setBusyId(id);
    try {
      await work();
    } catch (error) {
      onError(error);
    } finally {
      setBusyId(undefined);
    }
  }, []);
  return { busyId, act };
}

/** The pager's hidden fields: the list's address parameters but the page. */
export const pagerKeep = (params: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(params).filter(([name]) => name !== 'page'));

/** The empty state's 'Clear all' (back to the unfiltered list). */
export function ClearAll({ href, onClick }: { href: string; onClick: (event: MouseEvent<HTMLAnchorElement>) => void }) {
  return (
    <a href={href} onClick={onClick} className="btn-secondary">
      Clear all
    </a>
  );
}

/** The empty state's link to create the first item ('New Post', 'Create Tag'). */
export function NewItemLink({ href, label }: { href: string; label: string }) {
  return (
    <a href={href} className="btn-primary">
      {label}
    </a>
  );
}

// ---- the search and filter form -------------------------------------------------------------

interface AdminSearchFormProps {
  /** The form's name ('Filter posts'). */
  label: string;
  /** The list's address: without JavaScript the form is a plain GET there. */
  action: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The grid's columns at xl width, one per control. */
  className: string;
  search: { id: string; label: string; placeholder: string; maxLength: number; value: string; onChange: (value: string) => void };
  /** The filters, sort, page size and buttons after the search box. */
  children: ReactNode;
}

/** The search box and filters above a list (role search, a labelled search field first). */
export function AdminSearchForm({ label, action, onSubmit, className, search, children }: AdminSearchFormProps) {
  const keepTyped = useKeepTyped();
  return (
    <form {...keepTyped} method="get" action={action} role="search" aria-label={label} className={`card grid gap-4 p-4 md:grid-cols-2 xl:items-end ${className}`} onSubmit={onSubmit}>
      <div>
        <label htmlFor={search.id} className="mb-1 block text-sm font-medium">
          {search.label}
        </label>
        <input
          id={search.id}
          type="search"
          name="search"
          value={search.value}
          maxLength={search.maxLength}
          placeholder={search.placeholder}
          onChange={(event) => search.onChange(event.target.value)}
          className={FILTER_CONTROL_CLASS}
        />
      </div>
      {children}
    </form>
  );
}

// ---- the sortable table ---------------------------------------------------------------------

export interface AdminColumn<F extends string> {
  label: string;
  /** The sort field this column's header link sets. */
  sort?: F;
  className?: string;
}

interface AdminTableProps<F extends string, Q extends { sortBy: F; sortDir: 'asc' | 'desc' }> {
  columns: readonly AdminColumn<F>[];
  query: Q;
  /** The query a header link sets (same field: the other direction; another: its default). */
  sortedBy: (query: Q, field: F) => Q;
  hrefOf: (query: Q) => string;
  navigate: (query: Q) => (event: MouseEvent<HTMLAnchorElement>) => void;
  /** 'Posts, sorted by Title ascending'. */
  caption: string;
  tableClassName: string;
  headClassName: string;
  headCellClassName: string;
  /** Around the table: a scrolling card; named when it is a focusable region. */
  wrapper: { className: string; label?: string };
  testId?: string;
  children: ReactNode;
}

const directionWord = (dir: 'asc' | 'desc') => (dir === 'asc' ? 'ascending' : 'descending');

/**
 * A table whose sortable headers are links to the sorted address: the current one says its
 * direction (aria-sort, an arrow, and for screen readers what a click does).
 */
export function AdminTable<F extends string, Q extends { sortBy: F; sortDir: 'asc' | 'desc' }>({
  columns,
  query,
  sortedBy,
  hrefOf,
  navigate,
  caption,
  tableClassName,
  headClassName,
  headCellClassName,
  wrapper,
  testId,
  children,
}: AdminTableProps<F, Q>) {
  return (
    // `relative`: the headers' screen-reader texts (absolutely placed) are held and clipped by the
    // scrolling frame, not placed against the page, which they would widen on a small screen.
    <div className={`relative ${wrapper.className}`} {...(wrapper.label ? { role: 'region', 'aria-label': wrapper.label, tabIndex: 0 } : {})}>
      <table className={tableClassName} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className={headClassName}>
          <tr>
            {columns.map((column) => {
              const current = column.sort !== undefined && query.sortBy === column.sort;
              const next = column.sort !== undefined ? sortedBy(query, column.sort) : undefined;
              return (
                <th key={column.label} scope="col" aria-sort={current ? directionWord(query.sortDir) : undefined} className={`${headCellClassName} ${column.className ?? ''}`.trim()}>
                  {next ? (
                    <a href={hrefOf(next)} onClick={navigate(next)} className="inline-flex items-center gap-1 hover:underline">
                      {column.label}
                      <span aria-hidden="true" className="text-xs">
                        {current ? (query.sortDir === 'asc' ? '▲' : '▼') : '↕'}
                      </span>
                      <span className="sr-only">{current ? `, sorted ${directionWord(query.sortDir)}; sort ${directionWord(next.sortDir)}` : `, sort ${directionWord(next.sortDir)}`}</span>
                    </a>
                  ) : (
                    column.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}
