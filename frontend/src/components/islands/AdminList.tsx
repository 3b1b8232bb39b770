/**
 * The list part of the four back-office managers (/admin/posts, /admin/tags, /admin/users,
 * /admin/comments): the section with its heading and range line, the failed read with Try
 * Again, the loading line, the empty state, the rows (a table or cards, from the manager) and
 * the pager. `AdminTable` is the sortable table two of them show (in its own scrolling frame)
 * and `RowActions` the buttons and links of a row or card in all four; each manager supplies its
 * columns, rows and which actions a row has.
 */
import { useCallback, useState, type ComponentProps, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import Pager from './Pager';
import { TableFrame } from './TableFrame';
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

const PANEL =
  'rounded-xl border border-red-200 bg-red-50 p-8 text-center text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200';
const BANNER =
  'mb-4 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200';

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

export function AdminList({
  heading,
  loading,
  range,
  failure,
  failureLayout,
  loadingText,
  rowCount,
  empty,
  children,
  toolbar,
  pager,
  className,
}: AdminListProps) {
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

/**
 * After a row's change: the row stays (changed) while it still matches the list's filter, and
 * otherwise the page is read again, so a tag deactivated under 'Active' or a post approved under
 * 'Pending Review' leaves the list (and the totals and the pager follow).
 */
export function keepOrReload(stillMatches: boolean, replaceRow: () => void, reload: () => Promise<void>): Promise<void> {
  if (stillMatches) {
    replaceRow();
    return Promise.resolve();
  }
  return reload();
}

/** The editor's one-time notice above a list ('Post created successfully.'), with Dismiss. */
export function SavedNotice({ text, onDismiss, disabled }: { text: string; onDismiss: () => void; disabled: boolean }) {
  return (
    <div
      role="status"
      className="flex items-start justify-between gap-3 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
    >
      <p>{text}</p>
      <button type="button" className="text-xs font-medium underline" onClick={onDismiss} disabled={disabled}>
        Dismiss
      </button>
    </div>
  );
}

/** The pager's hidden fields: the list's address parameters but the page. */
export const pagerKeep = (params: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(params).filter(([name]) => name !== 'page'));

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
    <form
      {...keepTyped}
      method="get"
      action={action}
      role="search"
      aria-label={label}
      className={`card grid gap-4 p-4 md:grid-cols-2 xl:items-end ${className}`}
      onSubmit={onSubmit}
    >
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

// ---- a row's actions ---------------------------------------------------------------------------

export type RowActionTone = 'good' | 'bad' | 'plain';

export interface RowAction {
  /** Unique in the row. */
  key: string;
  /** The visible text, which is also the accessible name (with `srSuffix`). */
  label: string;
  tone?: RowActionTone;
  /** A link (Edit, Preview, View Posts); otherwise a button calling `onClick`. */
  href?: string;
  onClick?: () => void;
  /** The button opens a dialog (a reason, a confirmation). */
  opensDialog?: boolean;
  /** The row's work runs for this action: a spinner beside the label. */
  busy?: boolean;
}

const ROW_ACTION =
  'inline-flex items-center gap-1 whitespace-nowrap rounded-md border px-2 py-1 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-50';
const ROW_ACTION_TONES: Record<RowActionTone, string> = {
  good: 'border-emerald-300 text-emerald-800 hover:bg-emerald-50 dark:border-emerald-800 dark:text-emerald-200 dark:hover:bg-emerald-950',
  bad: 'border-red-300 text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950',
  plain: 'border-slate-300 text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800',
};

interface RowActionsProps {
  actions: readonly RowAction[];
  /** The buttons wait while the island hydrates or another row's action runs (links never wait). */
  disabled: boolean;
  /** Which row: the id of its title (each action is described by it), or words read after each label. */
  describedBy?: string;
  srSuffix?: string;
  className?: string;
}

/**
 * The actions of one row or card (posts, tags, comments): small buttons and links in the order
 * given, each label on one line, wrapping as a group inside the cell; every one is a real button
 * or link, so Tab reaches it and its name is its label.
 */
export function RowActions({ actions, disabled, describedBy, srSuffix, className = '' }: RowActionsProps) {
  return (
    <div className={`flex flex-wrap gap-1.5 ${className}`.trim()}>
      {actions.map((action) => {
        const classes = `${ROW_ACTION} ${ROW_ACTION_TONES[action.tone ?? 'plain']}`;
        const content = (
          <>
            {action.busy && <Spinner />}
            {action.label}
            {srSuffix && <span className="sr-only"> {srSuffix}</span>}
          </>
        );
        return action.href !== undefined ? (
          <a key={action.key} href={action.href} className={classes} aria-describedby={describedBy}>
            {content}
          </a>
        ) : (
          <button
            key={action.key}
            type="button"
            className={classes}
            disabled={disabled}
            aria-describedby={describedBy}
            aria-haspopup={action.opensDialog ? 'dialog' : undefined}
            onClick={action.onClick}
          >
            {content}
          </button>
        );
      })}
    </div>
  );
}

// ---- the sortable table ---------------------------------------------------------------------

export interface AdminColumn<F extends string> {
  label: string;
  /** The sort field this column's header link sets. */
  sort?: F;
  className?: string;
  /** The row actions' column: it stays at the frame's right edge on a wide screen (body cells: `ACTIONS_CELL`). */
  actions?: boolean;
}

/** A body cell of an admin table (the header cells match it). */
export const ADMIN_CELL = 'px-2 py-3 align-top';
/**
 * The row actions' column (its header takes it too): on a wide screen it stays at the frame's
 * right edge, so the actions are in view even when long content makes the table scroll.
 */
const STICKY_END = 'lg:sticky lg:right-0 lg:z-[1] lg:border-l lg:border-slate-200 lg:dark:border-slate-800';
export const ACTIONS_CELL = `${STICKY_END} lg:bg-white lg:dark:bg-slate-900`;
const ACTIONS_HEAD = `${STICKY_END} lg:bg-slate-50 lg:dark:bg-slate-950`;

interface AdminTableProps<F extends string, Q extends { sortBy: F; sortDir: 'asc' | 'desc' }> {
  columns: readonly AdminColumn<F>[];
  query: Q;
  /** The query a header link sets (same field: the other direction; another: its default). */
  sortedBy: (query: Q, field: F) => Q;
  hrefOf: (query: Q) => string;
  navigate: (query: Q) => (event: MouseEvent<HTMLAnchorElement>) => void;
  /** 'Posts, sorted by Title ascending'. */
  caption: string;
  /** The scrolling frame's name ('Posts table'): a focusable region, so the keyboard scrolls it too. */
  label: string;
  /** Below this width the table scrolls inside its frame rather than squeezing its columns. */
  minWidthClass: string;
  /** Dims the rows while the next page is read. */
  loading?: boolean;
  testId?: string;
  children: ReactNode;
}

const directionWord = (dir: 'asc' | 'desc') => (dir === 'asc' ? 'ascending' : 'descending');

/**
 * A table whose sortable headers are links to the sorted address: the current one says its
 * direction (aria-sort, an arrow, and for screen readers what a click does). Headers never wrap,
 * and a column is never narrower than its longest word (`break-word`, unlike the page's
 * `anywhere`, leaves the columns' sizes alone: only a word longer than its box breaks); a table wider than its frame (a phone) scrolls inside it (TableFrame).
 */
export function AdminTable<F extends string, Q extends { sortBy: F; sortDir: 'asc' | 'desc' }>({
  columns,
  query,
  sortedBy,
  hrefOf,
  navigate,
  caption,
  label,
  minWidthClass,
  loading = false,
  testId,
  children,
}: AdminTableProps<F, Q>) {
  return (
    <TableFrame label={label} loading={loading}>
      <table className={`w-full text-left text-sm [overflow-wrap:break-word] ${minWidthClass}`} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-950">
          <tr>
            {columns.map((column) => {
              const current = column.sort !== undefined && query.sortBy === column.sort;
              const next = column.sort !== undefined ? sortedBy(query, column.sort) : undefined;
              return (
                <th
                  key={column.label}
                  scope="col"
                  aria-sort={current ? directionWord(query.sortDir) : undefined}
                  className={`whitespace-nowrap px-2 py-2 text-xs font-semibold text-slate-700 dark:text-slate-300 ${column.actions ? ACTIONS_HEAD : ''} ${column.className ?? ''}`.trim()}
                >
                  {next ? (
                    <a href={hrefOf(next)} onClick={navigate(next)} className="inline-flex items-center gap-1 hover:underline">
                      {column.label}
                      <span aria-hidden="true" className="text-xs">
                        {current ? (query.sortDir === 'asc' ? '▲' : '▼') : '↕'}
                      </span>
                      <span className="sr-only">
                        {current
                          ? `, sorted ${directionWord(query.sortDir)}; sort ${directionWord(next.sortDir)}`
                          : `, sort ${directionWord(next.sortDir)}`}
                      </span>
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
    </TableFrame>
  );
}
